import Recorder
import RewindJSON

/// One line of the diff pane and of the Markdown export.
struct DiffLine: Equatable, Sendable {
    enum Kind: Equatable, Sendable {
        /// `@ /todos/0`: which changed path the lines below belong to.
        case path
        /// A bracket of a container whose contents changed.
        case context
        case unchanged
        case removed
        case added
        /// `… (N unchanged)` or `… N more lines`.
        case collapsed
    }

    var kind: Kind
    /// Nesting level: two spaces of indentation per level.
    var depth: Int
    var text: String
}

/// Builds the diff pane's lines with the JSON engine's tree diff.
///
/// For one action: a `@ path` line per changed path, then the tree diff of that
/// subtree only, so stepping through a 1 MB state costs what the action
/// changed, not the size of the state. For mark → selection: the tree diff of
/// the two whole states, unchanged siblings collapsed.
enum DiffLines {
    /// Lines per added or removed value before the rest is folded into one line.
    static let valueLineLimit = 40
    /// Lines of one tree diff (a changed path's, or a whole mark diff) before it is cut:
    /// a list of 100,000 items added whole is shown by its start, not written out.
    static let treeLineLimit = 10_000

    /// A changed path's values are read whole below this many bytes still to parse; a bigger
    /// one (a 30 MB list added whole) only as far as its first lines (``DiffOperands``).
    static let wholeValueBudget = 4 << 20

    /// The lines of `changedPaths` between the states `old` and `new`: per outermost path, its
    /// `@ path` line, then the tree diff of the values there (or the value removed and added).
    static func lines(from old: JSONNode?, to new: JSONNode?, changedPaths: [JSONPointer],
                      wholeValueBudget budget: Int = wholeValueBudget) -> [DiffLine] {
        var lines: [DiffLine] = []
        for path in outermost(changedPaths) {
            lines.append(DiffLine(kind: .path, depth: 0, text: path.isRoot ? "/" : path.description))
            let before = old?[pointer: path]
            let after = new?[pointer: path]
            switch (before, after) {
            case (let before?, let after?) where before == after:
                lines.append(DiffLine(kind: .unchanged, depth: 0, text: "(unchanged)"))
            case (let before?, let after?) where before.isContainer && after.isContainer:
                let operands = DiffOperands.treeDiff(from: before, to: after, lineLimit: treeLineLimit, budget: budget)
                lines += treeLines(from: operands.old, to: operands.new)
            default:
                if let before { appendPretty(before, as: .removed, to: &lines, budget: budget) }
                if let after { appendPretty(after, as: .added, to: &lines, budget: budget) }
            }
        }
        return lines
    }

    /// The whole-document tree diff (mark → selection).
    static func treeLines(from old: JSONValue, to new: JSONValue) -> [DiffLine] {
        JSONDiff.treeLines(from: old, to: new, lineLimit: treeLineLimit).map { line in
            let kind: DiffLine.Kind = switch line.kind {
            case .unchanged: .unchanged
            case .removed: .removed
            case .added: .added
            case .collapsed: .collapsed
            case .header: .context
            }
            return DiffLine(kind: kind, depth: line.depth, text: line.text)
        }
    }

    /// True for the line that stands for the rest of a cut value or diff (`… N more lines`,
    /// `… (the diff goes on: …)`): what it stands for is not in the pane, nor searched there.
    static func isCut(_ line: DiffLine) -> Bool {
        line.kind == .collapsed && (line.text.hasSuffix(" more lines") || line.text.hasPrefix("… (the diff goes on"))
    }

    /// Drops paths inside another listed path (the parent's diff covers them) and duplicates.
    static func outermost(_ paths: [JSONPointer]) -> [JSONPointer] {
        var result: [JSONPointer] = []
        var seen: Set<JSONPointer> = []
        for path in paths where !seen.contains(path) {
            seen.insert(path)
            if paths.contains(where: { $0 != path && path.hasPrefix($0) }) { continue }
            result.append(path)
        }
        return result
    }

    /// The value's pretty JSON, its first `valueLineLimit` lines written (only those: a
    /// value added whole can be a 30 MB list, read no further than they go), the rest counted in one line.
    private static func appendPretty(_ node: JSONNode, as kind: DiffLine.Kind, to lines: inout [DiffLine], budget: Int) {
        // A huge node's lines are counted from its bytes, once; a small one's by the lines made of it whole.
        let huge = DiffOperands.isHuge(node, budget: budget)
        let hugeLineCount = huge ? node.prettyLineCount : 0
        var pretty = PrettyJSONLines(huge ? DiffOperands.prettyPrefix(of: node, lines: valueLineLimit, budget: budget, lineCount: hugeLineCount) : node.value)
        let count = huge ? hugeLineCount : pretty.count
        for index in 0..<min(count, valueLineLimit) {
            let line = pretty.line(index)
            let indent = line.prefix(while: { $0 == " " }).count
            lines.append(DiffLine(kind: kind, depth: indent / 2, text: String(line.dropFirst(indent))))
        }
        if count > valueLineLimit { lines.append(DiffLine(kind: .collapsed, depth: 0, text: "… \(count - valueLineLimit) more lines")) }
    }
}
