import Recorder

/// One line of a tree diff as the diff pane and the Markdown export show it.
struct DiffLine: Equatable, Sendable {
    enum Kind: Equatable, Sendable { case header, unchanged, removed, added, collapsed }
    var kind: Kind
    var depth: Int
    var text: String
}

/// Builds the diff pane's lines: for each changed path, a header naming the
/// path, then the old value (`-`) and the new value (`+`), pretty-printed.
/// Only the changed subtrees are printed, so stepping through a 1 MB state
/// costs what the action changed, not the size of the state.
enum DiffLines {
    /// Lines per printed value before the rest is folded into one line.
    static let valueLineLimit = 40

    static func lines(from old: JSONValue?, to new: JSONValue?, changedPaths: [JSONPointer]) -> [DiffLine] {
        var lines: [DiffLine] = []
        for path in outermost(changedPaths) {
            lines.append(DiffLine(kind: .header, depth: 0, text: path.isRoot ? "/" : path.description))
            let before = old?[pointer: path]
            let after = new?[pointer: path]
            if before == after {
                lines.append(DiffLine(kind: .unchanged, depth: 1, text: "(unchanged)"))
                continue
            }
            if let before { append(before, as: .removed, to: &lines) }
            if let after { append(after, as: .added, to: &lines) }
        }
        return lines
    }

    /// Drops paths inside another listed path (printing the parent covers them) and duplicates.
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

    private static func append(_ value: JSONValue, as kind: DiffLine.Kind, to lines: inout [DiffLine]) {
        let text = JSONWriter.prettyString(value)
        var count = 0
        var remaining = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if count < valueLineLimit {
                let indent = line.prefix(while: { $0 == " " }).count
                lines.append(DiffLine(kind: kind, depth: 1 + indent / 2, text: String(line.dropFirst(indent))))
                count += 1
            } else {
                remaining += 1
            }
        }
        if remaining > 0 { lines.append(DiffLine(kind: .collapsed, depth: 1, text: "… \(remaining) more lines")) }
    }
}
