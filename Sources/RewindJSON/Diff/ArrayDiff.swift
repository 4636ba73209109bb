/// How two versions of one array line up, shared by the patch and the tree diff.
struct _ArrayDiff {
    let old: [JSONValue]
    let new: [JSONValue]
    /// The member that identifies elements, when the array is aligned by identity.
    let identityField: String?
    /// In order, covering both arrays. Without identity, a run of deletions
    /// and insertions between two kept elements is paired up position by
    /// position as `.match` (changed in place), since nothing says which is which.
    let steps: [_AlignmentStep]
    /// Elements removed in one place and added in another: new index -> old
    /// index. They also appear in `steps` as a deletion and an insertion.
    let moves: [Int: Int]

    init(old: [JSONValue], new: [JSONValue], options: JSONDiffOptions) {
        self.old = old
        self.new = new
        let identity = Self.identityField(old, new, candidates: options.identityFields)
        identityField = identity
        func key(_ element: JSONValue) -> JSONValue { identity.flatMap { element[$0] } ?? element }
        let alignment = _ArrayAlignment(
            oldCount: old.count, newCount: new.count, byIdentity: identity != nil, options: options,
            equal: { old[$0] == new[$1] }, oldKey: { key(old[$0]) }, newKey: { key(new[$0]) })
        steps = alignment.steps
        moves = alignment.moves
    }

    private static func identityField(_ old: [JSONValue], _ new: [JSONValue], candidates: [String]) -> String? {
        guard !old.isEmpty, !new.isEmpty else { return nil }
        for field in candidates {
            let all = old.allSatisfy { Self.hasScalar($0, field) } && new.allSatisfy { Self.hasScalar($0, field) }
            if all { return field }
        }
        return nil
    }

    private static func hasScalar(_ element: JSONValue, _ field: String) -> Bool {
        switch element[field] {
        case .string?, .integer?, .double?, .number?: true
        default: false
        }
    }
}

/// How two versions of one array line up, whatever the elements are: values
/// in a tree (``_ArrayDiff``) or byte ranges of an encoding (``_ByteDiff``).
struct _ArrayAlignment {
    /// In order, covering both arrays. Without identity, a run of deletions
    /// and insertions between two kept elements is paired up position by
    /// position as `.match` (changed in place), since nothing says which is which.
    let steps: [_AlignmentStep]
    /// Elements removed in one place and added in another: new index -> old
    /// index. They also appear in `steps` as a deletion and an insertion.
    let moves: [Int: Int]

    /// - Parameters:
    ///   - equal: whether old element `i` and new element `j` are equal values.
    ///   - oldKey, newKey: what identifies an element: its identity member when
    ///     `byIdentity`, else the whole value (equal keys for equal values).
    init<Key: Hashable>(
        oldCount: Int, newCount: Int, byIdentity: Bool, options: JSONDiffOptions,
        equal: (Int, Int) -> Bool, oldKey: (Int) -> Key, newKey: (Int) -> Key
    ) {
        var classes: [Key: Int] = [:]
        func classify(_ key: Key) -> Int {
            if let existing = classes[key] { return existing }
            classes[key] = classes.count
            return classes.count - 1
        }
        // Equal elements at both ends match without being hashed: a change to one
        // element of a long array (the common case when recording) then hashes
        // only the middle, not every element. Each end pair gets its own negative
        // class, which the alignment trims like any matching prefix or suffix.
        var prefix = 0
        while prefix < oldCount && prefix < newCount && equal(prefix, prefix) { prefix += 1 }
        var suffix = 0
        while suffix < oldCount - prefix && suffix < newCount - prefix
            && equal(oldCount - 1 - suffix, newCount - 1 - suffix) { suffix += 1 }
        if oldCount - prefix - suffix == 0 || newCount - prefix - suffix == 0 {
            // Nothing between the equal ends on one side: the other's middle was all inserted (or
            // all removed), with nothing to pair. A list filled from empty is not hashed element by element.
            var forced = (0..<prefix).map { _AlignmentStep.match(old: $0, new: $0) }
            forced += (prefix..<(oldCount - suffix)).map { .delete(old: $0) }
            forced += (prefix..<(newCount - suffix)).map { .insert(new: $0) }
            forced += (0..<suffix).map { .match(old: oldCount - suffix + $0, new: newCount - suffix + $0) }
            steps = forced
            moves = [:]
            return
        }
        func classesTrimmingEnds(count: Int, key: (Int) -> Key) -> [Int] {
            var result = (0..<prefix).map { -1 - $0 }
            result.reserveCapacity(count)
            for index in prefix..<(count - suffix) { result.append(classify(key(index))) }
            result += (0..<suffix).map { -1 - prefix - $0 }
            return result
        }
        let oldClasses = classesTrimmingEnds(count: oldCount, key: oldKey)
        let newClasses = classesTrimmingEnds(count: newCount, key: newKey)
        let aligned = _SequenceAlignment.align(oldClasses, newClasses, maximumEditDistance: options.maximumEditDistance)
            ?? Self.positional(oldCount, newCount)
        let moves = options.detectsMoves ? Self.pairMoves(aligned, newCount: newCount, oldKey: oldKey, newKey: newKey) : [:]
        self.moves = moves
        steps = byIdentity ? aligned : Self.pairSubstitutions(aligned, moves: moves)
    }

    /// The documented fallback past the edit-distance cap: position by position, then the tail.
    private static func positional(_ oldCount: Int, _ newCount: Int) -> [_AlignmentStep] {
        let shared = min(oldCount, newCount)
        var steps = (0..<shared).map { _AlignmentStep.match(old: $0, new: $0) }
        steps += (shared..<oldCount).map { .delete(old: $0) }
        steps += (shared..<newCount).map { .insert(new: $0) }
        return steps
    }

    /// Pairs deleted and inserted elements with the same key (equal values, or
    /// the same identity). Skipped when simulating the moves while writing the
    /// patch would cost more than a few million element shifts.
    private static func pairMoves<Key: Hashable>(
        _ steps: [_AlignmentStep], newCount: Int, oldKey: (Int) -> Key, newKey: (Int) -> Key
    ) -> [Int: Int] {
        var deleted: [Int] = []
        var inserted: [Int] = []
        for step in steps {
            if case .delete(let i) = step { deleted.append(i) }
            if case .insert(let j) = step { inserted.append(j) }
        }
        guard !deleted.isEmpty, !inserted.isEmpty, newCount * (deleted.count + inserted.count) <= 4_000_000 else { return [:] }
        var removedByKey: [Key: [Int]] = [:]
        for i in deleted.reversed() { removedByKey[oldKey(i), default: []].append(i) }
        var moves: [Int: Int] = [:]
        for j in inserted {
            if let i = removedByKey[newKey(j)]?.popLast() { moves[j] = i }
        }
        return moves
    }

    /// Turns each run of deletions and insertions between kept elements into
    /// in-place changes (first deleted with first inserted, …), leaving moved
    /// elements and the surplus as deletions and insertions. Keeps new indices ascending.
    private static func pairSubstitutions(_ steps: [_AlignmentStep], moves: [Int: Int]) -> [_AlignmentStep] {
        let movedSources = Set(moves.values)
        var result: [_AlignmentStep] = []
        result.reserveCapacity(steps.count)
        var runDeletes: [Int] = []
        var runInserts: [Int] = []
        func flush() {
            let freeDeletes = runDeletes.filter { !movedSources.contains($0) }
            let freeInserts = runInserts.filter { moves[$0] == nil }
            let paired = min(freeDeletes.count, freeInserts.count)
            var pairedOld: [Int: Int] = [:]  // new index -> old index
            for index in 0..<paired { pairedOld[freeInserts[index]] = freeDeletes[index] }
            let pairedSources = Set(freeDeletes.prefix(paired))
            for i in runDeletes where !pairedSources.contains(i) { result.append(.delete(old: i)) }
            for j in runInserts { result.append(pairedOld[j].map { .match(old: $0, new: j) } ?? .insert(new: j)) }
            runDeletes.removeAll(keepingCapacity: true)
            runInserts.removeAll(keepingCapacity: true)
        }
        for step in steps {
            switch step {
            case .delete(let i): runDeletes.append(i)
            case .insert(let j): runInserts.append(j)
            case .match:
                if !runDeletes.isEmpty || !runInserts.isEmpty { flush() }
                result.append(step)
            }
        }
        flush()
        return result
    }
}
