import Recorder

/// A condition over one entry of a recording: its state after the action, the
/// state before it and the action's type. `rewind find`, `bisect`, the
/// inspector's `:find` and `:bisect` all take one (docs/QUERIES.md).
///
/// ```swift
/// let query = try Query(parsing: #"/cart/total < 0 and action == checkout.submit"#)
/// query.matches(QueryInput(state: state, actionType: "checkout.submit"))
/// ```
struct Query: Sendable, Equatable, CustomStringConvertible {
    /// The text it was parsed from.
    let text: String
    let root: QueryNode

    /// Parses `text`; a ``QueryError`` names the column of what is wrong.
    init(parsing text: String) throws(QueryError) {
        self.text = text
        root = try QueryParser.parse(text)
    }

    /// True exactly where `other` is false (`bisect` looks for the first such entry).
    init(negating other: Query) {
        text = "not (\(other.text))"
        root = .not(other.root)
    }

    var description: String { text }

    /// True when the condition reads the state before the entry (`changed`).
    var readsPreviousState: Bool { root.readsPreviousState }

    /// The state paths the condition reads.
    var paths: [JSONPointer] { root.paths }

    /// The state paths it reads, each once, in order: what a path scan watches.
    var distinctPaths: [JSONPointer] {
        var paths: [JSONPointer] = []
        for path in root.paths where !paths.contains(path) { paths.append(path) }
        return paths
    }

    func matches(_ input: QueryInput) -> Bool { root.evaluate(input) }
}

/// What a query is asked about one entry.
struct QueryInput {
    /// The state after the entry (nil when it is unavailable: every path reads as absent).
    var state: JSONValue?
    /// The state before the entry; read only by `changed`.
    var previousState: JSONValue?
    var actionType: String

    /// The value at `path` in the state after the entry; nil when absent or the state is unavailable.
    func value(at path: JSONPointer) -> JSONValue? { state?[pointer: path] }
}

/// The parsed form of a query.
indirect enum QueryNode: Sendable, Equatable {
    case and(QueryNode, QueryNode)
    case or(QueryNode, QueryNode)
    case not(QueryNode)
    case exists(JSONPointer)
    case changed(JSONPointer)
    case compare(QueryOperand, QueryComparison, QueryOperand)
    case contains(QueryOperand, QueryOperand)
    /// `action == name` (or `!=`); a name ending in `*` matches by prefix.
    case action(name: String, negated: Bool)

    var readsPreviousState: Bool {
        switch self {
        case .and(let a, let b), .or(let a, let b): a.readsPreviousState || b.readsPreviousState
        case .not(let a): a.readsPreviousState
        case .changed: true
        default: false
        }
    }

    var paths: [JSONPointer] {
        switch self {
        case .and(let a, let b), .or(let a, let b): a.paths + b.paths
        case .not(let a): a.paths
        case .exists(let path), .changed(let path): [path]
        case .compare(let a, _, let b), .contains(let a, let b): a.paths + b.paths
        case .action: []
        }
    }
}

/// One side of a comparison: a literal, the value at a path, or its length.
enum QueryOperand: Sendable, Equatable {
    case literal(JSONValue)
    case path(JSONPointer)
    /// `/items length`: elements of an array, members of an object, characters of a string.
    case length(JSONPointer)

    var paths: [JSONPointer] {
        switch self {
        case .literal: []
        case .path(let path), .length(let path): [path]
        }
    }
}

enum QueryComparison: String, Sendable, Equatable {
    case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
}
