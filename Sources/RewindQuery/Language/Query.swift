import Recorder

/// A condition over one entry of a recording: its state after the action, the
/// state before it and the action's type. `rewind find`, `bisect`, the
/// inspector's `:find` and `:bisect` all take one (docs/QUERIES.md), and all
/// evaluate it the one way: ``QueryPredicate``, over the values at the query's
/// paths.
///
/// ```swift
/// let query = try Query(parsing: #"/cart/total < 0 and action == checkout.submit"#)
/// query.matches(QueryInput(state: state, actionType: "checkout.submit"))
/// ```
package struct Query: Sendable, Equatable, CustomStringConvertible {
    /// The text it was parsed from.
    package let text: String
    package let root: QueryNode
    /// The state paths it reads, each once, in order: what a path scan watches,
    /// and the positions of the values ``predicate`` is handed.
    package let distinctPaths: [JSONPointer]
    /// The condition compiled once, for every entry it is asked about.
    package let predicate: QueryPredicate

    /// Parses `text`; a ``QueryError`` names the column of what is wrong.
    package init(parsing text: String) throws(QueryError) {
        self.init(text: text, root: try QueryParser.parse(text))
    }

    /// True exactly where `other` is false (`bisect` looks for the first such entry).
    package init(negating other: Query) {
        self.init(text: "not (\(other.text))", root: .not(other.root))
    }

    private init(text: String, root: QueryNode) {
        self.text = text
        self.root = root
        var paths: [JSONPointer] = []
        for path in root.paths where !paths.contains(path) { paths.append(path) }
        distinctPaths = paths
        predicate = QueryPredicate(root, paths: paths)
    }

    /// Queries are equal when their text and meaning are (the compiled form follows from those).
    package static func == (left: Query, right: Query) -> Bool { left.text == right.text && left.root == right.root }

    package var description: String { text }

    /// True when the condition reads the state before the entry (`changed`).
    package var readsPreviousState: Bool { root.readsPreviousState }

    /// The state paths the condition reads, in the order they appear (repeats included).
    package var paths: [JSONPointer] { root.paths }

    /// Whether the condition holds for a whole entry: the values at ``distinctPaths``
    /// are read out of its states and handed to ``predicate``.
    package func matches(_ input: QueryInput) -> Bool {
        let values = distinctPaths.map { input.state?[pointer: $0] }
        let previous = input.previousState.map { state in distinctPaths.map { state[pointer: $0] } }
        return predicate.matches(values: values, previous: previous, actionType: input.actionType)
    }
}

/// What a query is asked about one entry, as whole states.
package struct QueryInput {
    /// The state after the entry (nil when it is unavailable: every path reads as absent).
    package var state: JSONValue?
    /// The state before the entry; read only by `changed` (nil: unavailable, so nothing changed).
    package var previousState: JSONValue?
    package var actionType: String

    package init(state: JSONValue?, previousState: JSONValue? = nil, actionType: String) {
        self.state = state
        self.previousState = previousState
        self.actionType = actionType
    }
}

/// The parsed form of a query.
package indirect enum QueryNode: Sendable, Equatable {
    case and(QueryNode, QueryNode)
    case or(QueryNode, QueryNode)
    case not(QueryNode)
    case exists(JSONPointer)
    case changed(JSONPointer)
    case compare(QueryOperand, QueryComparison, QueryOperand)
    case contains(QueryOperand, QueryOperand)
    /// `action == name` (or `!=`); a name ending in `*` matches by prefix.
    case action(name: String, negated: Bool)

    package var readsPreviousState: Bool {
        switch self {
        case .and(let a, let b), .or(let a, let b): a.readsPreviousState || b.readsPreviousState
        case .not(let a): a.readsPreviousState
        case .changed: true
        default: false
        }
    }

    package var paths: [JSONPointer] {
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
package enum QueryOperand: Sendable, Equatable {
    case literal(JSONValue)
    case path(JSONPointer)
    /// `/items length`: elements of an array, members of an object, Unicode scalars of a string.
    case length(JSONPointer)

    package var paths: [JSONPointer] {
        switch self {
        case .literal: []
        case .path(let path), .length(let path): [path]
        }
    }
}

package enum QueryComparison: String, Sendable, Equatable {
    case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
}
