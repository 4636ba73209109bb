import Recorder

/// A query compiled for evaluation: each path it reads becomes its position
/// among the values it is handed, once, and the conditions become closures
/// calling one another. The one evaluator of the query language: `rewind find`,
/// `bisect`, `tail`'s callers and the inspector's `:find` and `:bisect` all come
/// here, from a path scan's values (``LogReader/scanPathValues(_:paths:_:)``) or
/// from whole states (``Query/matches(_:)``, which reads the values out first).
/// (Walking the tree at every entry, looking each path up among the scanned
/// ones, was a twentieth of `rewind find`'s time.)
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

// What each condition means (docs/QUERIES.md): a path that does not exist
// makes every comparison false except `!=`; `<` and friends compare numbers
// with numbers and strings with strings, anything else is false.
extension QueryPredicate {
    /// `action == name`: the type itself, or one starting with what comes before a final `*`.
    static func action(_ type: String, matches name: String) -> Bool {
        name.hasSuffix("*") ? type.hasPrefix(name.dropLast()) : type == name
    }

    /// `contains`: an array holding the element, a string holding the text, an object with the key.
    static func contains(_ container: JSONValue, _ element: JSONValue) -> Bool {
        switch (container, element) {
        case (.array(let elements), _): return elements.contains(element)
        case (.string(let text), .string(let part)): return text.contains(part)
        case (.object(let object), .string(let key)): return object[key] != nil
        default: return false
        }
    }

    /// A comparison of two operands' values (nil: absent).
    static func compare(_ a: JSONValue?, _ comparison: QueryComparison, _ b: JSONValue?) -> Bool {
        switch comparison {
        case .equal: return a != nil && a == b
        case .notEqual: return a != b
        default:
            guard let a, let b, let order = Self.order(a, b) else { return false }
            switch comparison {
            case .less: return order < 0
            case .lessOrEqual: return order <= 0
            case .greater: return order > 0
            default: return order >= 0
            }
        }
    }

    /// -1, 0 or 1 for two numbers or two strings; nil for anything else.
    private static func order(_ a: JSONValue, _ b: JSONValue) -> Int? {
        switch (a, b) {
        case (.integer(let x), .integer(let y)): return x < y ? -1 : x == y ? 0 : 1
        case (.string(let x), .string(let y)): return x < y ? -1 : x == y ? 0 : 1
        default:
            guard let x = a.doubleValue, let y = b.doubleValue else { return nil }
            return x < y ? -1 : x == y ? 0 : 1
        }
    }

    /// `length`: elements of an array, members of an object, characters of a string; nil for anything else.
    static func length(of value: JSONValue?) -> JSONValue? {
        switch value {
        case .array(let elements): return .integer(Int64(elements.count))
        case .object(let object): return .integer(Int64(object.count))
        case .string(let text): return .integer(Int64(text.count))
        default: return nil
        }
    }
}
