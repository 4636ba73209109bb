/// The mark-against-selection diff as the diff pane shows it, in Markdown (`e` after `m` and `d`).
enum DiffExportText {
    static func markdown(logName: String, from mark: Int, to selection: Int, lines: [DiffLine]) -> String {
        var text = "# Diff: \(logName), entry \(mark + 1) → entry \(selection + 1)\n\n"
        text += "The state after entry \(mark + 1) (`-`) against the state after entry \(selection + 1) (`+`), "
        text += "as the inspector's diff pane shows it.\n\n"
        if lines.isEmpty { return text + "No differences.\n" }
        text += "```diff\n"
        for line in lines { text += DiffFormatting.plainText(line) + "\n" }
        return text + "```\n"
    }
}
