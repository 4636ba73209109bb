extension JSONDiff {
    /// Lines of context around each change in ``unifiedText(from:to:fromLabel:toLabel:)``.
    static let unifiedContext = 3

    /// A `diff -u` of the two documents pretty-printed (two-space indent), or
    /// `nil` when they are equal. Hunks carry 3 lines of context.
    ///
    /// ```text
    /// --- a.json
    /// +++ b.json
    /// @@ -1,3 +1,3 @@
    ///  {
    /// -  "count": 1
    /// +  "count": 2
    ///  }
    /// ```
    ///
    /// Lines are aligned with Myers' algorithm up to 10,000 changed lines;
    /// beyond that the differing middle is shown as one block removed and added.
    public static func unifiedText(from old: JSONValue, to new: JSONValue, fromLabel: String = "a", toLabel: String = "b") -> String? {
        if old == new { return nil }
        let oldLines = JSONWriter.prettyString(old).split(separator: "\n", omittingEmptySubsequences: false)
        let newLines = JSONWriter.prettyString(new).split(separator: "\n", omittingEmptySubsequences: false)
        // Lines are told apart by their Unicode scalars: "é" in NFC and NFD are two lines.
        var classes: [_ScalarKey: Int] = [:]
        func classify(_ line: Substring) -> Int {
            let key = _ScalarKey(String(line))
            if let existing = classes[key] { return existing }
            classes[key] = classes.count
            return classes.count - 1
        }
        let a = oldLines.map(classify)
        let b = newLines.map(classify)
        let steps = _SequenceAlignment.align(a, b, maximumEditDistance: 10_000) ?? blockReplacement(a, b)

        var output = ["--- \(fromLabel)", "+++ \(toLabel)"]
        for hunk in hunks(steps) {
            output.append(header(for: hunk, in: steps))
            for step in steps[hunk] {
                switch step {
                case .match(let i, _): output.append(" " + oldLines[i])
                case .delete(let i): output.append("-" + oldLines[i])
                case .insert(let j): output.append("+" + newLines[j])
                }
            }
        }
        return output.joined(separator: "\n")
    }

    /// Fallback alignment: common prefix and suffix, everything between replaced.
    private static func blockReplacement(_ a: [Int], _ b: [Int]) -> [_AlignmentStep] {
        var prefix = 0
        while prefix < a.count && prefix < b.count && a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix && suffix < b.count - prefix && a[a.count - 1 - suffix] == b[b.count - 1 - suffix] { suffix += 1 }
        var steps = (0..<prefix).map { _AlignmentStep.match(old: $0, new: $0) }
        steps += (prefix..<(a.count - suffix)).map { .delete(old: $0) }
        steps += (prefix..<(b.count - suffix)).map { .insert(new: $0) }
        steps += (0..<suffix).map { .match(old: a.count - suffix + $0, new: b.count - suffix + $0) }
        return steps
    }

    /// Ranges of steps to print: each change with up to 3 steps of context,
    /// merging hunks whose context would touch.
    private static func hunks(_ steps: [_AlignmentStep]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        for (index, step) in steps.enumerated() {
            if case .match = step { continue }
            let start = max(0, index - unifiedContext)
            let end = min(steps.count, index + unifiedContext + 1)
            if let last = ranges.last, start <= last.upperBound {
                ranges[ranges.count - 1] = last.lowerBound..<max(last.upperBound, end)
            } else {
                ranges.append(start..<end)
            }
        }
        return ranges
    }

    /// `@@ -start,count +start,count @@` (a count of 1 is left out, as diff(1)
    /// does; an empty side names the line before the hunk).
    private static func header(for hunk: Range<Int>, in steps: [_AlignmentStep]) -> String {
        var oldBefore = 0, newBefore = 0
        for step in steps[..<hunk.lowerBound] {
            switch step {
            case .match: oldBefore += 1; newBefore += 1
            case .delete: oldBefore += 1
            case .insert: newBefore += 1
            }
        }
        var oldCount = 0, newCount = 0
        for step in steps[hunk] {
            switch step {
            case .match: oldCount += 1; newCount += 1
            case .delete: oldCount += 1
            case .insert: newCount += 1
            }
        }
        func range(before: Int, count: Int) -> String {
            switch count {
            case 0: "\(before),0"
            case 1: "\(before + 1)"
            default: "\(before + 1),\(count)"
            }
        }
        return "@@ -\(range(before: oldBefore, count: oldCount)) +\(range(before: newBefore, count: newCount)) @@"
    }
}
