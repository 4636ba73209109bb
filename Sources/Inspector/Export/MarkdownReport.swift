import Foundation
import Recorder

/// The Markdown bug report: a header (app, log, time range, entry count), the
/// actions as a numbered list, each action's state changes as a `diff` block
/// (tree diff, unchanged siblings collapsed), and the final state. Long payloads,
/// diffs and states are folded into `<details>` so the issue stays readable.
enum MarkdownReport {
    /// Payloads longer than this (compact JSON) are folded; shorter ones are shown inline.
    static let inlinePayloadLimit = 100
    /// The action list shows at most this much of a payload.
    static let summaryPayloadLimit = 60
    /// Diffs and states with more lines than this are folded.
    static let foldedLineLimit = 60

    static func text(for slice: ExportSlice, path: JSONPointer?) throws(ExportError) -> String {
        var text = "# Rewind report: \(slice.logName.escapingControlCharacters)\n\n"
        text += header(for: slice)
        text += "\n## Actions\n\n"
        for (position, entry) in slice.entries.enumerated() {
            text += "\(position + 1). \(inlineCode(entry.action.name))"
            if entry.action.payload != .null {
                text += " " + inlineCode(truncated(entry.action.payload.description, to: summaryPayloadLimit))
            }
            text += " — entry \(entry.number), \(offset(entry.timeOffset))"
            if entry.fromEffect { text += ", from an effect" }
            text += "\n"
        }
        text += "\n## Changes\n"
        for (position, entry) in slice.entries.enumerated() {
            text += "\n### \(position + 1). \(inlineCode(entry.action.name)) (entry \(entry.number))\n\n"
            for gap in slice.gaps where gap.beforePosition == position {
                // The diff below is from the last recorded state: it spans what the gap lost.
                text += "> **Not recorded before this entry:** " + GapDescription.item(numbered: gap.firstNumber, gap: gap.gap)
                    + (gap.gap.droppedCount > 1 ? ". The changes below span them.\n\n" : ". The changes below span it.\n\n")
            }
            if entry.session.startsHere {
                text += "> **A new recording session starts here:** the log was opened again; the changes below are from the state it started with.\n\n"
            }
            text += payloadSection(entry.action.payload)
            guard let before = slice.state(before: position) else {
                text += "The log has no state before this entry; the state after it is:\n\n"
                text += folded(fenced("json", JSONWriter.prettyString(entry.state)), summary: "State after entry \(entry.number)") + "\n"
                continue
            }
            guard let diff = JSONDiff.treeText(from: before, to: entry.state) else {
                text += "No state changes.\n"
                continue
            }
            text += folded(fenced("diff", diff), summary: "State changes")
        }
        text += try finalState(of: slice, path: path)
        // A report is read in terminals (`cat`, `less`) as well as browsers: nothing in it may
        // control one. Names were escaped where they sit on one line; in the JSON blocks the
        // escapes are JSON's, the same values.
        return text.escapingControlCharactersKeepingLines
    }

    private static func header(for slice: ExportSlice) -> String {
        var lines: [String] = []
        if let header = slice.header {
            var app = header.processName.isEmpty ? "unknown process" : header.processName.escapingControlCharacters
            let types = [header.stateTypeName, header.actionTypeName].compactMap { $0 }.map(inlineCode)
            if !types.isEmpty { app += " — " + types.joined(separator: ", ") }
            lines.append("- **App:** \(app)")
        }
        lines.append("- **Log:** \(inlineCode(slice.logName)), \(slice.rangeDescription)")
        if let only = slice.entries.first, slice.entries.count == 1 {
            lines.append("- **Time:** " + (only.time.map(timestamp) ?? offset(only.timeOffset)))
        } else if let first = slice.entries.first, let last = slice.entries.last {
            let span = String(format: "%.3f s", last.timeOffset - first.timeOffset)
            if let start = first.time, let end = last.time {
                lines.append("- **Time:** \(timestamp(start)) → \(timestamp(end)) (\(span))")
            } else {
                lines.append("- **Time:** \(offset(first.timeOffset)) → \(offset(last.timeOffset)) (\(span))")
            }
        }
        lines.append("- **Entries:** \(slice.entries.count)")
        if !slice.gaps.isEmpty {
            lines.append("- **Not recorded:** " + slice.gaps.map { GapDescription.item(numbered: $0.firstNumber, gap: $0.gap) }.joined(separator: "; "))
        }
        if !slice.redactionRules.isEmpty {
            lines.append("- **Redacted:** " + slice.redactionRules.map(inlineCode).joined(separator: ", ")
                + " (a marker's digits change when the hidden value changes)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func payloadSection(_ payload: JSONValue) -> String {
        guard payload != .null else { return "" }
        let compact = payload.description
        if compact.count <= inlinePayloadLimit { return "Payload: \(inlineCode(compact))\n\n" }
        return "<details><summary>Payload (\(compact.utf8.count) bytes)</summary>\n\n"
            + fenced("json", JSONWriter.prettyString(payload)) + "\n</details>\n\n"
    }

    private static func finalState(of slice: ExportSlice, path: JSONPointer?) throws(ExportError) -> String {
        guard let state = slice.endState else { return "" }
        let after = slice.entries.last.map { "after entry \($0.number)" } ?? "at the start"
        var title = "\n## Final state \(after)"
        var value = state
        if let path, !path.isRoot {
            guard let part = state[pointer: path] else {
                throw ExportError(.pathNotFound, "\(path) does not exist in the state \(after)")
            }
            value = part
            title += ", at \(inlineCode(path.description))"
        }
        return title + "\n\n" + folded(fenced("json", JSONWriter.prettyString(value)), summary: "Final state")
    }

    // MARK: Markdown pieces

    /// A fenced block; the fence is longer than any run of backticks inside.
    static func fenced(_ language: String, _ body: String) -> String {
        var fence = "```"
        while body.contains(fence) { fence += "`" }
        let trimmed = body.hasSuffix("\n") ? String(body.dropLast()) : body
        return "\(fence)\(language)\n\(trimmed)\n\(fence)\n"
    }

    /// `block` as is, or inside `<details>` when it has more than ``foldedLineLimit`` lines.
    static func folded(_ block: String, summary: String) -> String {
        let lines = block.reduce(0) { $1 == "\n" ? $0 + 1 : $0 } - 2
        guard lines > foldedLineLimit else { return block }
        return "<details><summary>\(summary) (\(lines) lines)</summary>\n\n\(block)\n</details>\n"
    }

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
