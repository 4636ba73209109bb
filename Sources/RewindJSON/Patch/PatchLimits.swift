/// What patches applied one after another to a document may build. A `copy`
/// duplicates a value, so a patch of 2 KB that copies a value into itself 40 times
/// doubles the document 40 times: 2⁴⁰ nodes out of nothing. And any operation may
/// put a value deeper than readers and writers recurse through.
///
/// A reader of patches from elsewhere charges each operation before applying it,
/// with one value from a whole state (a keyframe) to the next: copies may add at
/// most `copiedBytes` (as the values would be encoded, about), and no operation may
/// leave containers nested more than `maximumNesting` deep. Everything else a patch
/// adds is written in the patch itself, so the document grows at most as its input does.
package struct PatchLimits: Sendable {
    /// Encoded bytes that copies may still add before the next whole state.
    package private(set) var copiedBytesLeft: Int
    let copiedBytes: Int
    /// The deepest nesting of containers an operation may leave.
    package let maximumNesting: Int

    package init(copiedBytes: Int, maximumNesting: Int) {
        self.copiedBytes = copiedBytes
        copiedBytesLeft = copiedBytes
        self.maximumNesting = maximumNesting
    }

    /// As for a whole state: everything allowed again.
    package mutating func restart() { copiedBytesLeft = copiedBytes }

    /// Charges `operation`, about to be applied to `document`; throws (saying which limit)
    /// when what it would build goes past one. A copy spends what it copies. An operation
    /// that will fail anyway (its `from` is missing) passes here and fails when applied.
    package mutating func charge(_ operation: JSONPatchOperation, in document: JSONValue) throws(_PatchFailure) {
        switch operation {
        case .add(let path, let value), .replace(let path, let value):
            // A value the patch holds itself: a tree of its own, walked plainly (no value is shared in it).
            try checkNesting(at: path) { value.unsharedNesting(atMost: $0) }
        case .move(let from, let path):
            if let value = document[pointer: from] { try checkNesting(at: path) { value.nesting(atMost: $0) } }
        case .copy(let from, let path):
            guard let value = document[pointer: from] else { return }
            guard let bytes = value.encodedSize(atMost: copiedBytesLeft) else {
                throw _PatchFailure(reason: "it copies more than \(copiedBytes >> 20) MB since the last whole state, more than a log record holds")
            }
            try checkNesting(at: path) { value.nesting(atMost: $0) }
            copiedBytesLeft -= bytes
        case .remove, .test:
            break
        }
    }

    /// Throws when a value nested `nesting(room)` deep (`room + 1` meaning deeper than `room`)
    /// would pass the limit at `path`.
    private func checkNesting(at path: JSONPointer, _ nesting: (_ room: Int) -> Int) throws(_PatchFailure) {
        let depth = path.tokens.count
        if depth > maximumNesting || nesting(maximumNesting - depth) > maximumNesting - depth {
            throw _PatchFailure(reason: "it nests values more than \(maximumNesting) levels deep, more than a log record holds")
        }
    }
}

extension JSONValue {
    /// About how many bytes the value takes encoded compactly (string escapes and number
    /// digits are estimated); nil when that is more than `limit`.
    func encodedSize(atMost limit: Int) -> Int? {
        var measured = MeasuredElements()
        let size = measure(limit: limit, nestingLimit: .max - 1, &measured).size
        return size <= limit ? size : nil
    }

    /// How many containers deep the value nests (0 for a scalar), or `limit + 1` when deeper.
    func nesting(atMost limit: Int) -> Int {
        switch self {
        case .array, .object:
            var measured = MeasuredElements()
            return measure(limit: .max - 1, nestingLimit: limit, &measured).nesting
        default:
            return 0
        }
    }

    /// ``nesting(atMost:)`` for a value no part of which is shared (one just parsed): a plain
    /// walk that stops at the limit, with no bookkeeping (scalars, the common case, cost a switch).
    func unsharedNesting(atMost limit: Int) -> Int {
        let children: [JSONValue]
        switch self {
        case .array(let elements): children = elements
        case .object(let object): children = object.values
        default: return 0
        }
        guard limit >= 1 else { return limit + 1 }
        var deepest = 0
        for child in children {
            deepest = max(deepest, child.unsharedNesting(atMost: limit - 1))
            if deepest > limit - 1 { return limit + 1 }
        }
        return deepest + 1
    }

    /// Size and nesting, each at most one past its limit.
    fileprivate func measure(limit: Int, nestingLimit: Int, _ measured: inout MeasuredElements) -> (size: Int, nesting: Int) {
        switch self {
        case .null, .bool: return (5, 0)
        case .integer, .double: return (8, 0)
        case .number(let number): return (number.text.utf8.count, 0)
        case .string(let text): return (text.utf8.count + 2, 0)
        case .array(let elements):
            let inner = measured.measure(elements, limit: limit, nestingLimit: nestingLimit)
            return (capped(1 + elements.count, inner.size, limit), inner.nesting > nestingLimit ? inner.nesting : inner.nesting + 1)
        case .object(let object):
            let inner = measured.measure(object.values, limit: limit, nestingLimit: nestingLimit)
            let keys = object.keys.reduce(0) { $0 + $1.utf8.count + 3 }
            return (capped(1 + object.count + keys, inner.size, limit), inner.nesting > nestingLimit ? inner.nesting : inner.nesting + 1)
        }
    }
}

/// `a + b`, at most `limit + 1` (which says "over").
private func capped(_ a: Int, _ b: Int, _ limit: Int) -> Int {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow || sum > limit ? limit &+ 1 : sum
}

/// What the element lists measured so far hold, by the address of their storage (alive
/// while measured): what copies build shares one list among many places, so its logical
/// size doubles with each copy while its storage does not. Each list is walked once.
private struct MeasuredElements {
    private var known: [Int: (size: Int, nesting: Int)] = [:]

    /// The summed size and the deepest nesting of `elements`, each at most one past its limit.
    mutating func measure(_ elements: [JSONValue], limit: Int, nestingLimit: Int) -> (size: Int, nesting: Int) {
        let address = elements.withUnsafeBufferPointer { Int(bitPattern: $0.baseAddress) }
        if address != 0, let found = known[address] { return found }
        var size = 0, deepest = 0
        for element in elements {
            let inner = element.measure(limit: limit, nestingLimit: nestingLimit, &self)
            size = capped(size, inner.size, limit)
            deepest = max(deepest, inner.nesting)
            if size > limit || deepest > nestingLimit { break }
        }
        if address != 0 { known[address] = (size, deepest) }
        return (size, deepest)
    }
}
