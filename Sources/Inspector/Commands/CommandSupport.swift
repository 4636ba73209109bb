import Foundation
import Recorder

/// Shared by the log commands: opening a log with a one-line error, and the
/// entry line. (Arguments are parsed by ``CommandParser`` from ``CommandTable``.)
enum CommandSupport {
    /// Opens `path` for a command (indexed fully), or writes one line, `rewind: <why>`
    /// (`program` names a debug executable instead), and returns nil.
    static func openLog(_ path: String, program: String = "rewind", streams: inout some TextStreams) -> LogTimeline? {
        do {
            return try LogTimeline(path: path)
        } catch {
            streams.error("\(program): \(error.description)")
            return nil
        }
    }

    /// Opens `path` for the full-screen inspector, indexing in the background, and
    /// takes the terminal; or writes one line, `<command>: <why>` (for a terminal it
    /// cannot drive, followed by `hint`), and returns nil. Shared by `rewind <log>` and `listen`.
    /// Each damaged record keeps a row, so entry numbers are the file's (with a reducer linked too).
    static func openForInspector(_ path: String, command: String, hint: String,
                                 streams: inout some TextStreams) -> (timeline: LogTimeline, terminal: CursesTerminal)? {
        let timeline: LogTimeline
        do {
            timeline = try LogTimeline(path: path, indexInBackground: true, keepsDamagedRows: true)
        } catch {
            streams.error("\(command): \(error.description)")
            return nil
        }
        guard let terminal = CursesTerminal() else {
            streams.error("\(command): cannot drive this terminal (TERM=\(ProcessInfo.processInfo.environment["TERM"] ?? "(unset)")); \(hint)")
            return nil
        }
        return (timeline, terminal)
    }

    /// A one-line description of an entry, shared by `log`, `blame` and the
    /// non-terminal `rewind <log>`: number, time offset, action, and the payload
    /// summarised as in the timeline pane (`add title: "Buy milk"`), untruncated.
    static func entryLine(_ entry: TimelineEntry, number: Int, numberWidth: Int) -> String {
        var line = String(number).leftPadded(toWidth: numberWidth) + "  "
        line += ValueFormatting.timeOffset(entry.timeOffset).leftPadded(toWidth: 8) + "  "
        line += entry.actionType
        let payload = ValueFormatting.payloadSummary(of: entry)
        if !payload.isEmpty { line += " " + payload }
        return line.escapingControlCharacters
    }
}

extension CommandSupport {
    /// `changed /todos/0/done "/notes/a b"` (at most four, then `…(+3)`): paths that need it
    /// quoted as JSON strings so the list stays unambiguous; the whole state as `/` … `(the whole state)`;
    /// nil when nothing changed.
    static func changedList(_ paths: [JSONPointer]) -> String? {
        guard !paths.isEmpty else { return nil }
        let shown = paths.prefix(4).map(pathText).joined(separator: " ")
        return "changed " + shown + (paths.count > 4 ? " …(+\(paths.count - 4))" : "")
    }

    /// A path as listings print it: bare when unambiguous, a JSON string when it holds
    /// a space, a quote or nothing printable; the root as `(the whole state)`.
    static func pathText(_ path: JSONPointer) -> String {
        let text = path.description
        if text.isEmpty { return "(the whole state)" }
        if text.unicodeScalars.contains(where: { $0 == " " || $0 == "\"" || $0.properties.isWhitespace }) {
            return JSONWriter.compactString(.string(text))
        }
        return text
    }
}

/// A one-line reason a command cannot go on (an unreadable input, an unsaved token).
struct UsageError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
