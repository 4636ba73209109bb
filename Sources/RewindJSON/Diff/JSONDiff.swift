/// Structural differences between two JSON documents.
///
/// ```swift
/// let patch = JSONDiff.patch(from: old, to: new)
/// try patch.applied(to: old) == new       // always true
/// JSONDiff.treeText(from: old, to: new)   // "-"/"+" lines, nil when equal
/// ```
///
/// Objects are compared by key. Arrays are aligned: the common prefix and
/// suffix are trimmed, then Myers' O(ND) algorithm aligns the rest, by element
/// identity when the elements carry an `id`-like member (see
/// ``JSONDiffOptions``). Removing one element from the middle of a long array
/// is one `remove`. Past ``JSONDiffOptions/maximumEditDistance`` the array is
/// compared position by position instead.
public enum JSONDiff {
    /// An RFC 6902 patch that turns `old` into `new`: `add`, `remove`,
    /// `replace`, and `move` where an element only changed position.
    public static func patch(from old: JSONValue, to new: JSONValue, options: JSONDiffOptions = JSONDiffOptions()) -> JSONPatch {
        var builder = _PatchBuilder(options: options)
        builder.diff(old, new, at: JSONPointer())
        return JSONPatch(builder.operations)
    }

    /// The locations a patch touches, in order, without repeats (a `move`
    /// contributes its source and its destination).
    public static func changedPaths(in patch: JSONPatch) -> [JSONPointer] {
        var seen = Set<JSONPointer>()
        var paths: [JSONPointer] = []
        for operation in patch.operations {
            if case .move(let from, _) = operation, seen.insert(from).inserted { paths.append(from) }
            if seen.insert(operation.path).inserted { paths.append(operation.path) }
        }
        return paths
    }
}

struct _PatchBuilder {
    let options: JSONDiffOptions
    var operations: [JSONPatchOperation] = []

    init(options: JSONDiffOptions) { self.options = options }

    mutating func diff(_ old: JSONValue, _ new: JSONValue, at path: JSONPointer) {
        switch (old, new) {
        case (.object(let a), .object(let b)):
            for key in a.keys where b[key] == nil {
                operations.append(.remove(path: path.appending(key)))
            }
            for (key, value) in b.members {
                if let previous = a[key] {
                    // Comparing first avoids building a pointer for every unchanged member.
                    if previous != value { diff(previous, value, at: path.appending(key)) }
                } else {
                    operations.append(.add(path: path.appending(key), value: value))
                }
            }
        case (.array(let a), .array(let b)):
            diffArray(_ArrayDiff(old: a, new: b, options: options), at: path)
        default:
            if old != new { operations.append(.replace(path: path, value: new)) }
        }
    }

    private mutating func diffArray(_ arrays: _ArrayDiff, at path: JSONPointer) {
        var sink = _TreeArraySink(builder: self, arrays: arrays, path: path)
        operations = []  // so the sink's copy of the operations is the only one, appended in place
        _ArrayAlignment.emitPatch(steps: arrays.steps, moves: arrays.moves, oldCount: arrays.old.count, newCount: arrays.new.count, into: &sink)
        self = sink.builder
    }
}

/// Writes an array's operations as ``JSONPatchOperation``s.
private struct _TreeArraySink: _ArrayPatchSink {
    var builder: _PatchBuilder
    let arrays: _ArrayDiff
    let path: JSONPointer

    mutating func remove(at index: Int) { builder.operations.append(.remove(path: path.appending(index))) }
    mutating func add(element: Int, at index: Int?) {
        builder.operations.append(.add(path: index.map { path.appending($0) } ?? path.appending("-"), value: arrays.new[element]))
    }
    mutating func move(from: Int, to: Int) { builder.operations.append(.move(from: path.appending(from), path: path.appending(to))) }
    mutating func update(old: Int, new: Int, at index: Int) {
        if arrays.old[old] != arrays.new[new] { builder.diff(arrays.old[old], arrays.new[new], at: path.appending(index)) }
    }
}

/// Receives the operations that turn one array into another, in order, as
/// ``_ArrayAlignment/emitPatch(steps:moves:oldCount:newCount:into:)`` finds them.
protocol _ArrayPatchSink {
    mutating func remove(at index: Int)
    /// Adds new element `element` at `index`, or at the end (`-`) when `index` is nil.
    mutating func add(element: Int, at index: Int?)
    mutating func move(from: Int, to: Int)
    /// Old element `old` sits at `index` as new element `new`: the changes inside it, if any.
    mutating func update(old: Int, new: Int, at index: Int)
}

extension _ArrayAlignment {
    /// The RFC 6902 operations of an alignment, each index valid when its
    /// operation applies (operations apply in order).
    static func emitPatch(steps: [_AlignmentStep], moves: [Int: Int], oldCount: Int, newCount: Int, into sink: inout some _ArrayPatchSink) {
        var deleted: [Int] = []
        var sourceOfTarget: [Int: Int] = [:]  // new index -> old index, for kept elements
        var lastKeptTarget = -1
        for step in steps {
            switch step {
            case .match(let i, let j):
                sourceOfTarget[j] = i
                lastKeptTarget = j
            case .delete(let i): deleted.append(i)
            case .insert: break
            }
        }
        if moves.isEmpty {
            // Remove back to front so indices stay valid, then walk the result
            // front to back: every kept element already sits at its final index.
            for i in deleted.reversed() { sink.remove(at: i) }
            for step in steps {
                switch step {
                case .match(let i, let j): sink.update(old: i, new: j, at: j)
                case .insert(let j):
                    // Past the last kept element, an insertion appends: "/-", as people write it.
                    sink.add(element: j, at: j > lastKeptTarget ? nil : j)
                case .delete: break
                }
            }
            return
        }
        for (j, i) in moves { sourceOfTarget[j] = i }
        let movedSources = Set(moves.values)
        for i in deleted.reversed() where !movedSources.contains(i) { sink.remove(at: i) }
        // Simulate the array as the new index each remaining element is headed for.
        var current: [Int] = []
        current.reserveCapacity(newCount)
        let targetOfSource = Dictionary(uniqueKeysWithValues: sourceOfTarget.map { ($1, $0) })
        for i in 0..<oldCount { if let j = targetOfSource[i] { current.append(j) } }
        let movedTargets = Set(moves.keys)
        for j in 0..<newCount {
            guard let i = sourceOfTarget[j] else {
                sink.add(element: j, at: j == current.count ? nil : j)
                current.insert(j, at: j)
                continue
            }
            // A moved element sitting here but headed further on goes straight
            // to its place (after everything headed before it).
            while current[j] != j, movedTargets.contains(current[j]), current[j] > j {
                let target = current.remove(at: j)
                let place = (current.lastIndex { $0 < target } ?? -1) + 1
                current.insert(target, at: place)
                sink.move(from: j, to: place)
            }
            // Otherwise the element for this index is further on: bring it here.
            if current[j] != j {
                let position = current[j...].firstIndex(of: j)!
                sink.move(from: position, to: j)
                current.remove(at: position)
                current.insert(j, at: j)
            }
            sink.update(old: i, new: j, at: j)
        }
    }
}
