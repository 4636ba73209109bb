import Recorder

/// How a diff line reads as text: `@ path`, or a `-`/`+`/space marker, a
/// space and two spaces of indentation per level (as `TreeDiffLine.rendered`).
enum DiffFormatting {
    static func plainText(_ line: DiffLine) -> String {
        let indent = String(repeating: "  ", count: max(0, line.depth))
        switch line.kind {
        case .path: return "@ " + line.text
        case .removed: return "- " + indent + line.text
        case .added: return "+ " + indent + line.text
        case .context, .unchanged, .collapsed: return "  " + indent + line.text
        }
    }
}
