/// The values at a few paths of a document that JSON Patch operations keep
/// changing, kept exact without rebuilding the whole document: what a query
/// over every state of a recording reads (`rewind find '/cart/total < 0'`).
///
/// It holds a whole document (the `base`: a keyframe's state), the operations
/// applied since, and the values at the watched paths and at the other paths
/// the operations needed (cached). An operation is applied to those values
/// alone when its effect on each of them, and whether it applies at all, can be
/// told from them; otherwise (an array insert or removal before a watched
/// element, `move`, `copy`, a path the operations since the base make unknown)
/// the whole document is rebuilt from the base, as ``JSONPatch/apply(_:to:)``
/// would, and becomes the new base. Either way an operation succeeds exactly
/// when it does on the whole document, and every value read is the one there.
///
/// ```swift
/// var values = PatchedPathValues(watching: [JSONPointer(tokens: ["n"])], in: ["n": 1, "items": []])
/// _ = values.apply(.replace(path: JSONPointer(tokens: ["n"]), value: 2))   // true
/// values.value(at: 0)                                                       // 2
/// ```
package struct PatchedPathValues {
    /// The paths asked for: always kept, first in `paths`.
    package let watched: [JSONPointer]
    private var base: JSONValue
    /// The operations applied since `base` (replayed on it when rebuilding).
    private var pending: [JSONPatchOperation] = []
    /// Where the document changed since `base`: values at or under or above these are not the base's.
    private var touched: [JSONPointer] = []
    /// The paths whose values are known: the watched ones, then those operations looked up.
    private var paths: [JSONPointer]
    /// Per path, its value in the current document (nil: absent).
    private var values: [JSONValue?]
    /// Whole-document rebuilds so far (for tests: proof that both ways are taken).
    package private(set) var rebuilds = 0

    /// Paths looked up beyond the watched ones that are kept at most (then forgotten).
    static let cachedPathLimit = 64
    /// Changed places since the base that are kept at most (then the document is rebuilt).
    static let touchedLimit = 256
    /// Operations since the base that are kept at most (then the document is rebuilt).
    static let pendingLimit = 4096

    package init(watching watched: [JSONPointer], in document: JSONValue) {
        self.watched = watched
        base = document
        paths = watched
        values = watched.map { document[pointer: $0] }
    }

    /// The value at `watched[position]` (nil: absent).
    package func value(at position: Int) -> JSONValue? { values[position] }

    /// Starts again from `document` (a keyframe's state).
    package mutating func reset(to document: JSONValue) {
        base = document
        pending.removeAll(keepingCapacity: true)
        touched.removeAll(keepingCapacity: true)
        paths = watched
        values = watched.map { document[pointer: $0] }
    }

    /// Applies `operation`; false when it fails on the document (which is then unknown: start again with ``reset(to:)``).
    package mutating func apply(_ operation: JSONPatchOperation) -> Bool {
        switch operation {
        case .replace(let path, let value):
            if path.isRoot {
                reset(to: value)
                return true
            }
            guard let current = lookUp(path) else { return rebuild(then: operation) }
            guard current != nil else { return false }
            for position in paths.indices {
                let watched = paths[position]
                if watched.hasPrefix(path) {
                    values[position] = value[pointer: Self.rest(of: watched, after: path)]
                } else if path.hasPrefix(watched) {
                    guard applyInside(position, operation) else { return rebuild(then: operation) }
                }
            }
            changed(path, operation)
            return true
        case .test(let path, let value):
            guard let current = lookUp(path) else { return rebuild(then: operation) }
            return current == value
        case .add(let path, let value):
            guard let parentPath = path.parent, let token = path.lastToken else {
                reset(to: value)
                return true
            }
            guard let parent = lookUp(parentPath) else { return rebuild(then: operation) }
            switch parent {
            case .object?:
                for position in paths.indices {
                    let watched = paths[position]
                    if watched.hasPrefix(path) {
                        values[position] = value[pointer: Self.rest(of: watched, after: path)]
                    } else if path.hasPrefix(watched) {
                        guard applyInside(position, operation) else { return rebuild(then: operation) }
                    }
                }
                changed(path, operation)
                return true
            case .array(let elements)?:
                let index = token == "-" ? elements.count : JSONPointer.arrayIndex(token)
                guard let index, index <= elements.count else { return false }
                return shiftArray(parentPath, from: index, operation)
            default:
                return false
            }
        case .remove(let path):
            guard let parentPath = path.parent, let token = path.lastToken else { return false }
            guard let parent = lookUp(parentPath) else { return rebuild(then: operation) }
            switch parent {
            case .object(let object)?:
                guard object[token] != nil else { return false }
                for position in paths.indices {
                    let watched = paths[position]
                    if watched.hasPrefix(path) {
                        values[position] = nil
                    } else if path.hasPrefix(watched) {
                        guard applyInside(position, operation) else { return rebuild(then: operation) }
                    }
                }
                changed(path, operation)
                return true
            case .array(let elements)?:
                guard let index = JSONPointer.arrayIndex(token), index < elements.count else { return false }
                return shiftArray(parentPath, from: index, operation)
            default:
                return false
            }
        case .move, .copy:
            return rebuild(then: operation)
        }
    }

    /// An insert or removal at `index` of the array at `array` (known to succeed):
    /// values inside the array at that index or after it move, so watching one
    /// of those takes a rebuild; those before it and the array itself (and what
    /// holds it) are edited in place.
    private mutating func shiftArray(_ array: JSONPointer, from index: Int, _ operation: JSONPatchOperation) -> Bool {
        let depth = array.tokens.count
        for position in paths.indices {
            let watched = paths[position]
            if watched.tokens.count > depth, watched.hasPrefix(array) {
                // An element: one before the change keeps its place; a token that is not an index stays absent.
                guard let element = JSONPointer.arrayIndex(watched.tokens[depth]) else { continue }
                if element < index { continue }
                return rebuild(then: operation)
            }
        }
        for position in paths.indices where array.hasPrefix(paths[position]) {
            guard applyInside(position, operation) else { return rebuild(then: operation) }
        }
        // Every element from the change on is another value now: the whole array counts as changed.
        changed(array, operation)
        return true
    }

    /// Applies `operation` (whose path lies inside `paths[position]`) to that value alone.
    private mutating func applyInside(_ position: Int, _ operation: JSONPatchOperation) -> Bool {
        guard values[position] != nil else { return false }
        let depth = paths[position].tokens.count
        let inner: JSONPatchOperation
        switch operation {
        case .add(let path, let value): inner = .add(path: JSONPointer(tokens: Array(path.tokens[depth...])), value: value)
        case .remove(let path): inner = .remove(path: JSONPointer(tokens: Array(path.tokens[depth...])))
        case .replace(let path, let value): inner = .replace(path: JSONPointer(tokens: Array(path.tokens[depth...])), value: value)
        default: return false
        }
        do {
            try JSONPatch.apply(inner, to: &values[position]!)
            return true
        } catch {
            return false
        }
    }

    /// Records an applied operation and where it changed the document.
    private mutating func changed(_ place: JSONPointer, _ operation: JSONPatchOperation) {
        pending.append(operation)
        if !touched.contains(place) { touched.append(place) }
        // A long run without keyframes: fold what is pending into the base (it applies: each operation did).
        if touched.count >= Self.touchedLimit || pending.count >= Self.pendingLimit { _ = rebuild(then: nil) }
    }

    /// The value at `path` now: `.some(nil)` when absent, nil when the known
    /// values cannot tell (a rebuild can). Found values are kept for next time.
    private mutating func lookUp(_ path: JSONPointer) -> JSONValue?? {
        if let position = paths.firstIndex(of: path) { return values[position] }
        let found: JSONValue?
        if let position = paths.firstIndex(where: { path.hasPrefix($0) }) {
            found = values[position]?[pointer: Self.rest(of: path, after: paths[position])]
        } else {
            // The base's value, unless something changed at, above or under it since.
            guard !touched.contains(where: { path.hasPrefix($0) || $0.hasPrefix(path) }) else { return nil }
            found = base[pointer: path]
        }
        if paths.count >= watched.count + Self.cachedPathLimit {
            paths.removeSubrange(watched.count...)
            values.removeSubrange(watched.count...)
        }
        paths.append(path)
        values.append(found)
        return .some(found)
    }

    /// Rebuilds the whole document from the base and applies `operation` to it;
    /// false when that fails. The rebuilt document is the new base.
    private mutating func rebuild(then operation: JSONPatchOperation?) -> Bool {
        rebuilds += 1
        var document = base
        do {
            for earlier in pending { try JSONPatch.apply(earlier, to: &document) }
            if let operation { try JSONPatch.apply(operation, to: &document) }
        } catch {
            return false
        }
        reset(to: document)
        return true
    }

    private static func rest(of path: JSONPointer, after prefix: JSONPointer) -> JSONPointer {
        JSONPointer(tokens: Array(path.tokens[prefix.tokens.count...]))
    }
}
