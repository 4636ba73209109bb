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

    /// A one-line description of an entry, shared by `log`, `blame` and the
    /// non-terminal `rewind <log>`: number, time offset, action, and the payload
    /// summarised as in the timeline pane (`add title: "Buy milk"`), untruncated.
    static func entryLine(_ entry: TimelineEntry, numberWidth: Int) -> String {
        var line = String(entry.index + 1).leftPadded(toWidth: numberWidth) + "  "
        line += ValueFormatting.timeOffset(entry.timeOffset).leftPadded(toWidth: 8) + "  "
        line += entry.actionType
        let payload = ValueFormatting.payloadSummary(entry.payload, actionType: entry.actionType)
        if !payload.isEmpty { line += " " + payload }
        return line.escapingControlCharacters
    }
}

/// A one-line reason a command cannot go on (an unreadable input, an unsaved token).
struct UsageError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
