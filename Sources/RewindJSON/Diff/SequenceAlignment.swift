/// One step of an alignment between two sequences, in order.
enum _AlignmentStep: Equatable {
    /// `old[old]` and `new[new]` are the same element (equal, or same identity).
    case match(old: Int, new: Int)
    case delete(old: Int)
    case insert(new: Int)
}

/// Myers' O(ND) shortest edit script over sequences of small integers (each
/// integer names an equivalence class of elements), with the common prefix
/// and suffix trimmed first and the edit distance capped.
enum _SequenceAlignment {
    /// The steps aligning `old` with `new`, or `nil` when more than
    /// `maximumEditDistance` deletions plus insertions would be needed (the
    /// caller then falls back to something cheaper). Work is O((N+M)·D) time
    /// and O(D²) memory, never an N·M matrix.
    static func align(_ old: [Int], _ new: [Int], maximumEditDistance: Int) -> [_AlignmentStep]? {
        var prefix = 0
        while prefix < old.count && prefix < new.count && old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix && suffix < new.count - prefix
            && old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }

        let a = old[prefix..<(old.count - suffix)]
        let b = new[prefix..<(new.count - suffix)]
        guard let middle = myers(Array(a), Array(b), maximumEditDistance: maximumEditDistance) else { return nil }

        var steps: [_AlignmentStep] = []
        steps.reserveCapacity(prefix + middle.count + suffix)
        for index in 0..<prefix { steps.append(.match(old: index, new: index)) }
        for step in middle {
            switch step {
            case .match(let i, let j): steps.append(.match(old: i + prefix, new: j + prefix))
            case .delete(let i): steps.append(.delete(old: i + prefix))
            case .insert(let j): steps.append(.insert(new: j + prefix))
            }
        }
        for index in 0..<suffix {
            steps.append(.match(old: old.count - suffix + index, new: new.count - suffix + index))
        }
        return steps
    }

    /// Forward greedy Myers, keeping one snapshot of the frontier per edit
    /// distance (only the 2d+1 diagonals reachable at distance d) to backtrack.
    private static func myers(_ a: [Int], _ b: [Int], maximumEditDistance: Int) -> [_AlignmentStep]? {
        let n = a.count, m = b.count
        if n == 0 { return (0..<m).map { .insert(new: $0) } }
        if m == 0 { return (0..<n).map { .delete(old: $0) } }
        let maxD = min(n + m, maximumEditDistance)
        let offset = maxD + 1
        var frontier = [Int](repeating: 0, count: 2 * maxD + 3)
        var snapshots: [[Int]] = []
        for d in 0...maxD {
            snapshots.append(Array(frontier[(offset - d)...(offset + d)]))
            for k in stride(from: -d, through: d, by: 2) {
                var x = (k == -d || (k != d && frontier[offset + k - 1] < frontier[offset + k + 1]))
                    ? frontier[offset + k + 1] : frontier[offset + k - 1] + 1
                var y = x - k
                while x < n && y < m && a[x] == b[y] {
                    x += 1
                    y += 1
                }
                frontier[offset + k] = x
                if x >= n && y >= m { return backtrack(snapshots, distance: d, n: n, m: m) }
            }
        }
        return nil
    }

    private static func backtrack(_ snapshots: [[Int]], distance: Int, n: Int, m: Int) -> [_AlignmentStep] {
        var steps: [_AlignmentStep] = []
        var x = n, y = m
        for d in stride(from: distance, to: 0, by: -1) {
            let previous = snapshots[d]  // frontier after distance d-1, diagonals -d...d
            func at(_ k: Int) -> Int { previous[k + d] }
            let k = x - y
            let previousK = (k == -d || (k != d && at(k - 1) < at(k + 1))) ? k + 1 : k - 1
            let previousX = at(previousK)
            let previousY = previousX - previousK
            while x > previousX && y > previousY {
                steps.append(.match(old: x - 1, new: y - 1))
                x -= 1
                y -= 1
            }
            if x == previousX {
                steps.append(.insert(new: y - 1))
            } else {
                steps.append(.delete(old: x - 1))
            }
            x = previousX
            y = previousY
        }
        while x > 0 && y > 0 {
            steps.append(.match(old: x - 1, new: y - 1))
            x -= 1
            y -= 1
        }
        return steps.reversed()
    }
}
