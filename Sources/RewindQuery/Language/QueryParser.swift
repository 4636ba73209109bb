import Recorder

/// Recursive descent over the tokens; the grammar, loosest binding first:
///
/// ```
/// query   := or
/// or      := and ("or" and)*                      also ||
/// and     := unary ("and" unary)*                 also &&
/// unary   := "not" unary | primary                also !
/// primary := "(" or ")" | "exists" POINTER | "changed" POINTER
///          | "action" ("==" | "!=") NAME          NAME: a bare word or a string; ends in * for a prefix
///          | operand ("==" | "!=" | "<" | "<=" | ">" | ">=" | "contains") operand
/// operand := POINTER ["length"] | STRING | NUMBER | true | false | null
/// ```
///
/// A query is capped in length, depth and size (docs/QUERIES.md, "Limits"): the
/// parser recurses once per `(` and `not`, and compiling, evaluating, comparing and
/// freeing the tree recurse once per level of it, where a chain of `or` is a
/// level per condition. Checking here keeps all of those within the stack of a
/// worker thread, keeps the work of reading a query in proportion to what a
/// search does, and keeps any per-entry check out of the scan.
struct QueryParser {
    /// The most characters in one query: room for the most conditions, spelled out.
    static let maximumLength = 65_536
    /// The most `(` and `not` (or `!`) that may enclose one another.
    static let maximumNesting = 256
    /// The most conditions (`exists`, `changed`, `action ==`, comparisons) in one query.
    static let maximumConditions = 1_000

    private let tokens: [QueryToken]
    private var position = 0
    /// How many `(` and `not` enclose the current token.
    private var nesting = 0
    /// How many conditions were parsed so far.
    private var conditions = 0

    static func parse(_ text: String) throws(QueryError) -> QueryNode {
        // Counted only up to the limit: a query of megabytes costs no more than one at it.
        if text.index(text.startIndex, offsetBy: maximumLength, limitedBy: text.endIndex).map({ $0 < text.endIndex }) ?? false {
            throw QueryError(column: maximumLength + 1,
                             reason: "the query is longer than \(maximumLength) characters; split it into several queries")
        }
        var parser = QueryParser(tokens: try QueryLexer.tokens(text))
        guard parser.current.kind != .end else {
            throw QueryError(column: 1, reason: "the query is empty; try /path == value, exists /path or action == name")
        }
        let node = try parser.parseOr()
        guard parser.current.kind == .end else {
            throw parser.unexpected("after a complete condition; join conditions with 'and' or 'or'")
        }
        return node
    }

    private init(tokens: [QueryToken]) { self.tokens = tokens }

    private var current: QueryToken { tokens[position] }
    private mutating func advance() { if position < tokens.count - 1 { position += 1 } }

    private func isWord(_ word: String) -> Bool { current.kind == .word(word) }
    private func isSymbol(_ symbol: String) -> Bool { current.kind == .symbol(symbol) }

    private mutating func parseOr() throws(QueryError) -> QueryNode {
        var node = try parseAnd()
        while isWord("or") {
            advance()
            node = .or(node, try parseAnd())
        }
        return node
    }

    private mutating func parseAnd() throws(QueryError) -> QueryNode {
        var node = try parseUnary()
        while isWord("and") {
            advance()
            node = .and(node, try parseUnary())
        }
        return node
    }

    private mutating func parseUnary() throws(QueryError) -> QueryNode {
        if isWord("not") || isSymbol("!") {
            try enterNesting()
            defer { nesting -= 1 }
            advance()
            return .not(try parseUnary())
        }
        return try parsePrimary()
    }

    private mutating func parsePrimary() throws(QueryError) -> QueryNode {
        let token = current
        if token.kind == .symbol("(") {
            try enterNesting()
            defer { nesting -= 1 }
            advance()
            let node = try parseOr()
            guard isSymbol(")") else { throw unexpected("where ')' should close the '(' at column \(token.column)") }
            advance()
            return node
        }
        conditions += 1
        guard conditions <= Self.maximumConditions else {
            throw QueryError(column: token.column,
                             reason: "more than \(Self.maximumConditions) conditions in one query; split it into several queries")
        }
        switch token.kind {
        case .word("exists"):
            advance()
            return .exists(try pointer(after: "exists"))
        case .word("changed"):
            advance()
            return .changed(try pointer(after: "changed"))
        case .word("action"):
            advance()
            let negated: Bool
            if isSymbol("==") { negated = false } else if isSymbol("!=") { negated = true } else {
                throw unexpected("after 'action'; write action == name or action != name")
            }
            advance()
            let name: String
            switch current.kind {
            case .word(let word): name = word
            case .literal(.string(let text)): name = text
            default: throw unexpected("where an action type should be (action == checkout.submit)")
            }
            advance()
            return .action(name: name, negated: negated)
        default:
            let left = try operand()
            if isWord("contains") {
                advance()
                return .contains(left, try operand())
            }
            guard case .symbol(let symbol) = current.kind, let comparison = QueryComparison(rawValue: symbol) else {
                throw unexpected("after \(token.text); expected ==, !=, <, <=, >, >= or contains")
            }
            advance()
            return .compare(left, comparison, try operand())
        }
    }

    private mutating func pointer(after keyword: String) throws(QueryError) -> JSONPointer {
        guard case .pointer(let pointer) = current.kind else {
            throw unexpected("after '\(keyword)'; expected a path such as /user/name")
        }
        advance()
        return pointer
    }

    private mutating func operand() throws(QueryError) -> QueryOperand {
        switch current.kind {
        case .pointer(let pointer):
            advance()
            if isWord("length") {
                advance()
                return .length(pointer)
            }
            return .path(pointer)
        case .literal(let value):
            advance()
            return .literal(value)
        case .word(let word) where !["and", "or", "not", "contains", "length", "exists", "changed", "action"].contains(word):
            throw QueryError(column: current.column,
                             reason: "'\(word)' is neither a path nor a value; paths start with '/', text goes in quotes (\"\(word)\")")
        default:
            throw unexpected("where a path or a value should be")
        }
    }

    /// Counts a `(` or `not` at the current token, which must not nest past the limit.
    private mutating func enterNesting() throws(QueryError) {
        nesting += 1
        guard nesting <= Self.maximumNesting else {
            throw QueryError(column: current.column,
                             reason: "more than \(Self.maximumNesting) levels of '(' and 'not' inside one another; nest less deeply")
        }
    }

    /// `found ')' where a path or a value should be`, naming the end of the query as such.
    private func unexpected(_ context: String) -> QueryError {
        let found = current.kind == .end ? "found the end of the query" : "found '\(current.text)'"
        return QueryError(column: current.column, reason: "\(found) \(context)")
    }
}
