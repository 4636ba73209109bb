import Recorder

/// What `e` exports, as the model asks for it; the effect runner turns it into
/// Markdown (``markdown(from:)``), so the model never runs the exporter itself.
enum DiffExport: Equatable, Sendable {
    /// After `m` and `d`: the mark-against-selection diff exactly as the diff pane shows it, the
    /// entries by the numbers the inspector shows (`6`, `3–5`); `to` nil: against the initial state (`:0`).
    case markedDiff(logName: String, from: String, to: String?, lines: [DiffLine])
    /// The exporter's report of one entry (`rewind export --format markdown --from N --to N`), 0-based.
    case entry(Int)

    /// The Markdown, in memory (tests, and a source read on the session's thread only).
    func markdown(from source: any TimelineSource) throws -> String {
        let output = ExportOutput()
        try write(from: source, to: output)
        return output.text
    }

    /// Writes the Markdown to `output` a piece at a time (``ExportOutput`` may stop it: cancelled).
    func write(from source: any TimelineSource, to output: ExportOutput) throws {
        switch self {
        case .markedDiff(let logName, let mark, let selection, let lines):
            try Self.write(logName: logName, from: mark, to: selection, lines: lines, to: output)
        case .entry(let index):
            var request = ExportRequest(format: .markdown)
            request.firstEntry = source.entryNumber(at: index)
            request.lastEntry = source.entryNumber(at: index)
            try LogExporter.writeMarkdownReport(from: source, request, to: output)
        }
    }

    /// The mark-against-selection diff as the diff pane shows it, in Markdown.
    /// `selection` nil: the initial state, before entry 1.
    static func write(logName: String, from mark: String, to selection: String?, lines: [DiffLine],
                      to output: ExportOutput) throws(ExportWriteError) {
        var text = "# Diff: \(logName), entry \(mark) → " + (selection.map { "entry \($0)" } ?? "the initial state") + "\n\n"
        let after = selection.map { "the state after entry \($0)" } ?? "the initial state, before entry 1,"
        text += "The state after entry \(mark) (`-`) against \(after) (`+`), "
        text += "as the inspector's diff pane shows it.\n\n"
        if lines.isEmpty { return try output.write(text + "No differences.\n") }
        try output.write(text + "```diff\n")
        for (number, line) in lines.enumerated() {
            output.fraction = Double(number) / Double(lines.count)
            try output.write(DiffFormatting.plainText(line) + "\n")
        }
        try output.write("```\n")
    }
}
