import Foundation
import Recorder

/// The Markdown bug report: a header (app, log, time range, entry count), the
/// actions as a numbered list, each action's state changes as a `diff` block
/// (tree diff, unchanged siblings collapsed), and the final state. Long payloads,
/// diffs and states are folded into `<details>` so the issue stays readable.
struct MarkdownReport {
    /// Payloads longer than this (compact JSON) are folded; shorter ones are shown inline.
    static let inlinePayloadLimit = 100
    /// The action list shows at most this much of a payload.
    static let summaryPayloadLimit = 60
    /// Diffs and states with more lines than this are folded.
    static let foldedLineLimit = 60
    /// Pretty-printed JSON goes to the output in pieces of about this size.
    static let pieceBytes = 64 << 10

    let slice: ExportSlice
    /// The report's last section: its title and the final state (or the part of it asked for).
    private let finalState: (title: String, value: JSONValue)?

    /// The report of `slice`, with only `path` of the final state when given.
    /// - Throws: ``ExportError`` when `path` is not in the final state (before anything is written).
    init(slice: ExportSlice, path: JSONPointer?) throws(ExportError) {
        self.slice = slice
        guard let state = slice.endState else {
            finalState = nil
            return
        }
        let after = slice.entries.last.map { "after entry \($0.number)" } ?? "at the start"
        var title = "\n## Final state \(after)"
        var value = state
        if let path, !path.isRoot {
            guard let part = state[pointer: path] else {
                throw ExportError(.pathNotFound, "\(path) does not exist in the state \(after)")
            }
            value = part
            title += ", at \(Self.inlineCode(path.description))"
        }
        finalState = (title, value)
    }

    /// The whole report as one string (`rewind export`; small in the inspector's eyes).
    static func text(for slice: ExportSlice, path: JSONPointer?) throws(ExportError) -> String {
        let report = try MarkdownReport(slice: slice, path: path)
        let output = ExportOutput()
        // Text kept in memory is neither cancelled nor fails to be written.
        try? report.write(to: output)
        return output.text
    }

    /// Writes the report to `output` section by section; a diff and a state a piece at a time,
    /// so `output` may stop it (cancelled) between any two pieces. Progress: each entry's
    /// section and the final state count alike, each as far as its diff or state is written.
    ///
    /// A report is read in terminals (`cat`, `less`) as well as browsers: nothing in it may
    /// control one. Names are escaped where they sit on one line; everything else is written
    /// with its control characters escaped (in the JSON blocks the escapes are JSON's, the same values).
    func write(to output: ExportOutput) throws(ExportWriteError) {
        let sections = Double(slice.entries.count + 1)
        try output.writeForTerminals("# Rewind report: \(slice.logName.escapingControlCharacters)\n\n" + header + "\n## Actions\n\n")
        for (position, entry) in slice.entries.enumerated() {
            var line = "\(position + 1). \(Self.inlineCode(entry.action.name))"
            if entry.action.payload != .null {
                line += " " + Self.inlineCode(Self.truncated(entry.action.payload.description, to: Self.summaryPayloadLimit))
            }
            line += " — entry \(entry.number), \(Self.offset(entry.timeOffset))"
            if entry.fromEffect { line += ", from an effect" }
            try output.writeForTerminals(line + "\n")
        }
        try output.writeForTerminals("\n## Changes\n")
        for (position, entry) in slice.entries.enumerated() {
            output.fraction = Double(position) / sections
            var text = "\n### \(position + 1). \(Self.inlineCode(entry.action.name)) (entry \(entry.number))\n\n"
            for gap in slice.gaps where gap.beforePosition == position {
                // The diff below is from the last recorded state: it spans what the gap lost.
                text += "> **Not recorded before this entry:** " + GapDescription.item(numbered: gap.firstNumber, gap: gap.gap)
                    + (gap.gap.droppedCount > 1 ? ". The changes below span them.\n\n" : ". The changes below span it.\n\n")
            }
            if entry.session.startsHere {
                text += "> **A new recording session starts here:** the log was opened again; the changes below are from the state it started with.\n\n"
            }
            try output.writeForTerminals(text)
            try writePayload(entry.action.payload, to: output)
            let progress = { (fraction: Double) in (Double(position) + fraction) / sections }
            guard let before = slice.state(before: position) else {
                try output.writeForTerminals("The log has no state before this entry; the state after it is:\n\n")
                try writeJSON(entry.state, to: output, folding: "State after entry \(entry.number)", progress: progress)
                try output.writeForTerminals("\n")
                continue
            }
            guard before != entry.state else {
                try output.writeForTerminals("No state changes.\n")
                continue
            }
            try writeDiff(from: before, to: entry.state, to: output, progress: progress)
        }
        if let finalState {
            output.fraction = Double(slice.entries.count) / sections
            try output.writeForTerminals(finalState.title + "\n\n")
            try writeJSON(finalState.value, to: output, folding: "Final state") { (Double(slice.entries.count) + $0) / sections }
        }
        output.fraction = 1
    }

    /// The tree diff in a `diff` block, folded when long, a line at a time.
    private func writeDiff(from before: JSONValue, to after: JSONValue, to output: ExportOutput,
                           progress: (Double) -> Double) throws(ExportWriteError) {
        try output.fencedBlock(language: "diff", folding: ("State changes", Self.foldedLineLimit)) { () throws(ExportWriteError) in
            var failure: ExportWriteError?
            var first = true
            _ = JSONDiff.forEachTreeLine(from: before, to: after) { line, fraction in
                output.fraction = progress(fraction)
                do throws(ExportWriteError) {
                    try output.writeForTerminals(first ? line.rendered : "\n" + line.rendered)
                } catch {
                    failure = error
                    return false
                }
                first = false
                return true
            }
            if let failure { throw failure }
        }
    }

    /// `value` pretty-printed in a `json` block (folded when `folding` and long), a piece at a time.
    private func writeJSON(_ value: JSONValue, to output: ExportOutput, folding summary: String?,
                           progress: (Double) -> Double) throws(ExportWriteError) {
        try output.fencedBlock(language: "json", folding: summary.map { ($0, Self.foldedLineLimit) }) { () throws(ExportWriteError) in
            var failure: ExportWriteError?
            _ = JSONWriter.writePretty(value, pieceBytes: Self.pieceBytes) { piece, fraction in
                output.fraction = progress(fraction)
                do throws(ExportWriteError) {
                    try output.writeForTerminals(utf8: piece)
                } catch {
                    failure = error
                    return false
                }
                return true
            }
            if let failure { throw failure }
        }
    }

    private func writePayload(_ payload: JSONValue, to output: ExportOutput) throws(ExportWriteError) {
        guard payload != .null else { return }
        let compact = payload.description
        if compact.count <= Self.inlinePayloadLimit { return try output.writeForTerminals("Payload: \(Self.inlineCode(compact))\n\n") }
        try output.writeForTerminals("<details><summary>Payload (\(compact.utf8.count) bytes)</summary>\n\n")
        try writeJSON(payload, to: output, folding: nil) { _ in output.fraction }
        try output.writeForTerminals("\n</details>\n\n")
    }

    /// The list under the title: app, log, time, entries, gaps, redaction.
    private var header: String {
        var lines: [String] = []
        if let header = slice.header {
            var app = header.processName.isEmpty ? "unknown process" : header.processName.escapingControlCharacters
            let types = [header.stateTypeName, header.actionTypeName].compactMap { $0 }.map(Self.inlineCode)
            if !types.isEmpty { app += " — " + types.joined(separator: ", ") }
            lines.append("- **App:** \(app)")
        }
        lines.append("- **Log:** \(Self.inlineCode(slice.logName)), \(slice.rangeDescription)")
        if let only = slice.entries.first, slice.entries.count == 1 {
            lines.append("- **Time:** " + (only.time.map(Self.timestamp) ?? Self.offset(only.timeOffset)))
        } else if let first = slice.entries.first, let last = slice.entries.last {
            let span = String(format: "%.3f s", last.timeOffset - first.timeOffset)
            if let start = first.time, let end = last.time {
                lines.append("- **Time:** \(Self.timestamp(start)) → \(Self.timestamp(end)) (\(span))")
            } else {
                lines.append("- **Time:** \(Self.offset(first.timeOffset)) → \(Self.offset(last.timeOffset)) (\(span))")
            }
        }
        lines.append("- **Entries:** \(slice.entries.count)")
        if !slice.gaps.isEmpty {
            lines.append("- **Not recorded:** " + slice.gaps.map { GapDescription.item(numbered: $0.firstNumber, gap: $0.gap) }.joined(separator: "; "))
        }
        if !slice.redactionRules.isEmpty {
            lines.append("- **Redacted:** " + slice.redactionRules.map(Self.inlineCode).joined(separator: ", ")
                + " (a marker's digits change when the hidden value changes)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: Markdown pieces

    /// Inline code that survives backticks in the text; control characters from the
    /// recording are shown escaped (a report is read in terminals and browsers).
    static func inlineCode(_ raw: String) -> String {
        let text = raw.escapingControlCharacters
        return text.contains("`") ? "`` \(text) ``" : "`\(text)`"
    }

    static func truncated(_ text: String, to limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }

    static func offset(_ seconds: Double) -> String { String(format: "+%.3f s", seconds) }

    /// UTC, millisecond precision: `2025-11-29T07:06:40.500Z`.
    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }
}
