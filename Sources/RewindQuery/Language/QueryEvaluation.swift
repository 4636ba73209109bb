import Recorder

/// A query compiled for evaluation: each path it reads becomes its position
/// among the values it is handed, once, and the conditions become closures
/// calling one another. The one evaluator of the query language: `rewind find`,
/// `bisect`, `tail`'s callers and the inspector's `:find` and `:bisect` all come
/// here, from a path scan's values (``LogReader/scanPathValues(_:paths:_:)``) or
/// from whole states (``Query/matches(_:)``, which reads the values out first).
/// (Walking the tree at every entry, looking each path up among the scanned
/// ones, would cost a twentieth of `rewind find`'s time.)
///
/// ```swift
/// let query = try Query(parsing: "/n > 2")
/// query.predicate.matches(values: [3], previous: nil, actionType: "tick")   // true
/// ```
package struct QueryPredicate: Sendable {
    /// The values at the query's paths after the entry, before it (nil: unavailable), and the action type.
    typealias Test = @Sendable (_ values: [JSONValue?], _ previous: [JSONValue?]?, _ actionType: String) -> Bool

    private let test: Test

    /// `paths` must hold every path `root` reads (``Query/distinctPaths``).
    init(_ root: QueryNode, paths: [JSONPointer]) {
        test = Self.compile(root, paths: paths)
    }

    /// Whether the condition holds for an entry: `values` are those at the query's
    /// ``Query/distinctPaths`` after it (nil inside: absent), `previous` those before
    /// it (nil: the state before is unavailable, so nothing counts as changed).
    package func matches(values: [JSONValue?], previous: [JSONValue?]?, actionType: String) -> Bool {
        test(values, previous, actionType)
    }

    /// Where `path` is among the scanned ones (it is one of them).
    private static func position(of path: JSONPointer, in paths: [JSONPointer]) -> Int { paths.firstIndex(of: path)! }

    private static func compile(_ node: QueryNode, paths: [JSONPointer]) -> Test {
        func position(_ path: JSONPointer) -> Int { Self.position(of: path, in: paths) }
        switch node {
        case .and(let a, let b):
            let (a, b) = (compile(a, paths: paths), compile(b, paths: paths))
            return { a($0, $1, $2) && b($0, $1, $2) }
        case .or(let a, let b):
            let (a, b) = (compile(a, paths: paths), compile(b, paths: paths))
            return { a($0, $1, $2) || b($0, $1, $2) }
        case .not(let a):
            let a = compile(a, paths: paths)
            return { !a($0, $1, $2) }
        case .exists(let path):
            let at = position(path)
            return { values, _, _ in values[at] != nil }
        case .changed(let path):
            // No state before (unavailable): nothing to compare, as with a whole state.
            let at = position(path)
            return { values, previous, _ in previous.map { values[at] != $0[at] } ?? false }
        case .action(let name, let negated):
            return { _, _, type in QueryPredicate.action(type, matches: name) != negated }
        case .contains(let container, let element):
            let (container, element) = (operand(container, paths: paths), operand(element, paths: paths))
            return { values, _, _ in
                guard let container = container(values), let element = element(values) else { return false }
                return QueryPredicate.contains(container, element)
            }
        case .compare(let left, let comparison, let right):
            // The common case, a path and a literal, reads the value in place.
            if case .path(let path) = left, case .literal(let literal) = right {
                let at = position(path)
                return { values, _, _ in QueryPredicate.compare(values[at], comparison, literal) }
            }
            let (left, right) = (operand(left, paths: paths), operand(right, paths: paths))
            return { values, _, _ in QueryPredicate.compare(left(values), comparison, right(values)) }
        }
    }

    private static func operand(_ operand: QueryOperand, paths: [JSONPointer]) -> @Sendable ([JSONValue?]) -> JSONValue? {
        switch operand {
        case .literal(let value):
            return { _ in value }
        case .path(let path):
            let at = Self.position(of: path, in: paths)
            return { $0[at] }
        case .length(let path):
            let at = Self.position(of: path, in: paths)
            return { QueryPredicate.length(of: $0[at]) }
        }
    }
}

// What each condition means (docs/QUERIES.md, "What comparisons mean"), from one
// equality and one order:
// - Equality is the JSON engine's (`JSONValue ==`): numbers by exact value (`1 == 1.0`,
//   `9007199254740993 != 9007199254740992.0`, `-0.0 != 0`), strings and keys by their
//   Unicode scalars (NFC "é" is not NFD "é", as in the recorded bytes), arrays element by
//   element, objects member by member in any order. A non-finite double is the string it
//   is written as ("NaN", "Infinity", "-Infinity").
// - Order is defined between two numbers (by exact value, -0.0 right before 0) and between
//   two strings (by Unicode scalars, as code points sort), and agrees with equality: two
//   values of one of those kinds are equal exactly when neither comes first.
// - Every operator is one of those: `a != b` is `not (a == b)`, `a <= b` is `a < b or a == b`,
//   `a > b` is `b < a`. A path that is absent has no value: it equals nothing and orders
//   with nothing, so only `!=` holds for it (two absent paths included).
extension QueryPredicate {
    /// `action == name`: the type itself, or one starting with what comes before a final `*`
    /// (by Unicode scalars, as strings compare).
    static func action(_ type: String, matches name: String) -> Bool {
        name.hasSuffix("*") ? type.utf8.starts(with: name.utf8.dropLast()) : type.utf8.elementsEqual(name.utf8)
    }

    /// `contains`: an array holding an element equal to it, a string holding the text
    /// (by Unicode scalars; every string holds the empty one), an object with the key.
    static func contains(_ container: JSONValue, _ element: JSONValue) -> Bool {
        switch (container, element) {
        case (.array(let elements), _): return elements.contains(element)
        case (.string(let text), .string(let part)): return contains(text, part)
        case (.object(let object), .string(let key)): return object[key] != nil
        default: return false
        }
    }

    /// Whether the UTF-8 of `part` occurs in that of `text`: a match of whole scalars
    /// only, since no scalar's bytes start inside another's.
    private static func contains(_ text: String, _ part: String) -> Bool {
        let text = Array(text.utf8), part = Array(part.utf8)
        guard !part.isEmpty else { return true }
        guard part.count <= text.count else { return false }
        for start in 0...(text.count - part.count) where text[start] == part[0] && text[start..<(start + part.count)].elementsEqual(part) {
            return true
        }
        return false
    }

    /// A comparison of two operands' values (nil: absent).
    static func compare(_ a: JSONValue?, _ comparison: QueryComparison, _ b: JSONValue?) -> Bool {
        guard let a, let b else { return comparison == .notEqual }
        switch comparison {
        case .equal: return a == b
        case .notEqual: return a != b
        case .less: return order(a, b) == -1
        case .lessOrEqual: return a == b || order(a, b) == -1
        case .greater: return order(a, b) == 1
        case .greaterOrEqual: return a == b || order(a, b) == 1
        }
    }

    /// -1, 0 or 1 for two numbers or two strings; nil for anything else.
    static func order(_ a: JSONValue, _ b: JSONValue) -> Int? {
        switch (comparable(a), comparable(b)) {
        case (.string(let x), .string(let y)):
            // UTF-8 bytes sort as the scalars they encode.
            if x.utf8.elementsEqual(y.utf8) { return 0 }
            return x.utf8.lexicographicallyPrecedes(y.utf8) ? -1 : 1
        case (let x, let y):
            return JSONValue.numberOrder(x, y)
        }
    }

    /// A non-finite double as the string it is written as, which it equals; anything else as it is.
    private static func comparable(_ value: JSONValue) -> JSONValue {
        if case .double(let double) = value, !double.isFinite {
            return .string(double.isNaN ? "NaN" : double < 0 ? "-Infinity" : "Infinity")
        }
        return value
    }

    /// `length`: elements of an array, members of an object, Unicode scalars of a string
    /// (as strings compare); nil for anything else.
    static func length(of value: JSONValue?) -> JSONValue? {
        switch value {
        case .array(let elements): return .integer(Int64(elements.count))
        case .object(let object): return .integer(Int64(object.count))
        case .string(let text): return .integer(Int64(text.unicodeScalars.count))
        default: return nil
        }
    }
}
