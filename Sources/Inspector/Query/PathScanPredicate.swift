import Recorder

/// A query made ready for a path scan (``LogReader/scanPathValues(_:paths:_:)``):
/// each path it reads becomes its position among the scan's values, once, and
/// the conditions become closures calling one another. Evaluating the query's
/// tree at every entry looked each path up among the scanned ones and built a
/// ``QueryInput`` around the values; that was a twentieth of `rewind find`'s time.
///
/// It gives exactly what ``Query/matches(_:)`` gives for the same entry (the
/// meanings are in QueryEvaluation.swift; `QueryScanAgreementTests` holds every
/// mode of the scan to `Query.matches` on each rebuilt state).
///
/// ```swift
/// let predicate = PathScanPredicate(query, paths: query.distinctPaths)
/// predicate.matches(values: step.values!, previous: step.previousValues, actionType: step.actionType)
/// ```
struct PathScanPredicate {
    /// The values at the scan's paths after the entry, before it (nil: unavailable), and the action type.
    typealias Test = (_ values: [JSONValue?], _ previous: [JSONValue?]?, _ actionType: String) -> Bool

    private let test: Test

    /// `paths` must hold every path the query reads (a scan watches `query.distinctPaths`).
    init(_ query: Query, paths: [JSONPointer]) {
        test = Self.compile(query.root, paths: paths)
    }

    func matches(values: [JSONValue?], previous: [JSONValue?]?, actionType: String) -> Bool {
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
            return { _, _, type in QueryNode.action(type, matches: name) != negated }
        case .contains(let container, let element):
            let (container, element) = (operand(container, paths: paths), operand(element, paths: paths))
            return { values, _, _ in
                guard let container = container(values), let element = element(values) else { return false }
                return QueryNode.contains(container, element)
            }
        case .compare(let left, let comparison, let right):
            // The common case, a path and a literal, reads the value in place.
            if case .path(let path) = left, case .literal(let literal) = right {
                let at = position(path)
                return { values, _, _ in QueryNode.compare(values[at], comparison, literal) }
            }
            let (left, right) = (operand(left, paths: paths), operand(right, paths: paths))
            return { values, _, _ in QueryNode.compare(left(values), comparison, right(values)) }
        }
    }

    private static func operand(_ operand: QueryOperand, paths: [JSONPointer]) -> ([JSONValue?]) -> JSONValue? {
        switch operand {
        case .literal(let value):
            return { _ in value }
        case .path(let path):
            let at = Self.position(of: path, in: paths)
            return { $0[at] }
        case .length(let path):
            let at = Self.position(of: path, in: paths)
            return { QueryOperand.length(of: $0[at]) }
        }
    }
}
