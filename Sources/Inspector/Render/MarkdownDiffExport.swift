import Recorder

/// The `e` key's export: a short Markdown note with a header and the diff
/// pane's lines in a fenced `diff` block, ready to paste into an issue.
/// (A full bug-report exporter replaces this; see issue 6.)
enum MarkdownDiffExport {
    static func markdown(for model: InspectorModel) -> String {
        let selection = model.selection
        var text = "# \(model.source.name): "
        if model.comparingWithMark, let mark = model.mark {
            text += "entry \(mark + 1) → entry \(selection + 1)\n\n"
        } else {
            let action = model.view.entry.map { "`\($0.actionType)`" } ?? "entry"
            text += "entry \(selection + 1), \(action)\n\n"
            if let payload = model.view.entry?.payload, payload != .null {
                text += "Payload: `\(payload.description)`\n\n"
            }
        }
        text += "```diff\n"
        for line in model.view.diffLines {
            text += DiffFormatting.plainText(line) + "\n"
        }
        if model.view.diffLines.isEmpty { text += "  (no changes)\n" }
        text += "```\n"
        return text
    }
}

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
