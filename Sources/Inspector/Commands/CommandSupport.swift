import Foundation
import Recorder

/// Shared by the log commands: opening a log with a one-line error, and
/// reading `--flag value` options.
enum CommandSupport {
    /// Opens `path` for a command (indexed fully), or writes one line and returns nil.
    static func openLog(_ path: String, streams: inout some TextStreams) -> LogTimeline? {
        do {
            return try LogTimeline(path: path)
        } catch {
            streams.error("rewind: \(error.description)")
            return nil
        }
    }

    /// The one log path a command takes, or nil after printing `usage`.
    static func singleLogPath(_ arguments: [String], usage: String, streams: inout some TextStreams) -> String? {
        guard arguments.count == 1, !arguments[0].hasPrefix("--") else {
            streams.error(usage)
            return nil
        }
        return arguments[0]
    }

    /// Splits `--name value` options from positional arguments. Unknown
    /// options and options without a value are reported as errors.
    static func parse(_ arguments: [String], options known: Set<String>) -> Result<(positional: [String], options: [String: String]), UsageError> {
        var positional: [String] = []
        var options: [String: String] = [:]
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument.hasPrefix("--") {
                var name = argument
                var value: String?
                if let equals = argument.firstIndex(of: "=") {
                    name = String(argument[..<equals])
                    value = String(argument[argument.index(after: equals)...])
                }
                guard known.contains(name) else { return .failure(UsageError("unknown option '\(name)'")) }
                if value == nil {
                    index += 1
                    guard index < arguments.count else { return .failure(UsageError("option '\(name)' needs a value")) }
                    value = arguments[index]
                }
                options[name] = value
            } else {
                positional.append(argument)
            }
            index += 1
        }
        return .success((positional, options))
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

struct UsageError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
