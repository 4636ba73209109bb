import Foundation
import Recorder

/// `rewind tail <log> [-n N|all] [-f] [--format text|json]`: the last entries
/// the way TCA's `_printChanges` prints them (`received action:`, the action
/// indented, then the state diff or `(No state changes)`), or one JSON object
/// per entry for scripts; `-f` keeps printing entries as they are recorded.
enum TailCommand: CommandRunner {
    enum Format: String, CaseIterable { case text, json }

    /// How the run was asked for, apart from where it writes.
    struct Settings {
        var path: String
        var last: Int?            // nil: every entry
        var follow = false
        var format = Format.text
        var colors = false
    }

    static func run(_ invocation: Invocation, streams: inout some TextStreams) -> Int32 {
        run(invocation, streams: &streams, environment: ProcessInfo.processInfo.environment,
            stdoutIsTerminal: isatty(STDOUT_FILENO) == 1, waitForMore: { usleep(200_000); return true })
    }

    /// `rewind tail ARGUMENTS` with what tests inject: the environment, whether stdout is a
    /// terminal, and `waitForMore`, which runs between looks at a followed log and returns
    /// false to stop (tests append entries there).
    static func run(_ arguments: [String], streams: inout some TextStreams, environment: [String: String],
                    stdoutIsTerminal: Bool, waitForMore: () -> Bool) -> Int32 {
        CommandLineProgram.rewind.run(CommandTable.command("tail"), arguments, streams: &streams) { invocation, streams in
            run(invocation, streams: &streams, environment: environment, stdoutIsTerminal: stdoutIsTerminal, waitForMore: waitForMore)
        }
    }

    static func run(_ invocation: Invocation, streams: inout some TextStreams, environment: [String: String],
                    stdoutIsTerminal: Bool, waitForMore: () -> Bool) -> Int32 {
        var settings = Settings(path: invocation.positional[0], last: 10)
        if let count = invocation["-n"] {
            if count == "all" {
                settings.last = nil
            } else if let number = Int(count), number >= 0 {
                settings.last = number
            } else {
                return invocation.fail("-n takes a number of entries or 'all', not '\(count)'", streams: &streams)
            }
        }
        // The parser accepts only the table's choices, which are the cases.
        settings.format = invocation["--format"].flatMap(Format.init(rawValue:)) ?? .text
        settings.follow = invocation.isSet("-f")
        settings.colors = settings.format == .text && stdoutIsTerminal && environment["NO_COLOR"].map(\.isEmpty) ?? true
        guard let timeline = CommandSupport.openLog(settings.path, program: invocation.program.name, streams: &streams) else { return 2 }

        let count = timeline.count
        var printed = settings.last.map { max(0, count - $0) } ?? 0
        printed = printEntries(of: timeline, from: printed, settings: settings, streams: &streams)
        guard settings.follow else { return 0 }
        while waitForMore() {
            // A log cut, rewritten, rotated or replaced at its path is reopened by name and read
            // from its start, as the inspector's follow mode does (LogReader.refresh()).
            if let notice = timeline.refresh() {
                streams.error("\(invocation.displayName): \(notice.message)")
                if notice.startedOver { printed = 0 }
            }
            if timeline.count < printed {
                // The recorder cut a torn tail and indexing started over: go on after what is still there.
                printed = timeline.count
            }
            if timeline.count > printed {
                printed = printEntries(of: timeline, from: printed, settings: settings, streams: &streams)
            }
        }
        return 0
    }

    /// Prints entries from `start` to the end; returns the index after the last one printed.
    static func printEntries(of timeline: LogTimeline, from start: Int, settings: Settings, streams: inout some TextStreams) -> Int {
        var next = start
        let end = timeline.count
        var output = BufferedOutput()
        timeline.reader.scanStates(start..<end, keepingPrevious: true) { step in
            let text = settings.format == .json
                ? jsonLine(step, timeline: timeline)
                : textBlock(step, timeline: timeline, colors: settings.colors)
            output.append(text, to: &streams)
            next = step.index + 1
            return true
        }
        output.flush(to: &streams)
        return max(next, start)
    }

    /// The `_printChanges` form of one entry.
    static func textBlock(_ step: StateScanStep, timeline: LogTimeline, colors: Bool) -> String {
        let style = TerminalStyle(enabled: colors)
        guard let entry = timeline.entry(at: step.index) else {
            return style.bold("received action:") + "\n  (entry \(step.index + 1): unreadable record)"
        }
        var lines = [style.bold("received action:")]
        let payload = ValueFormatting.payloadSummary(entry.payload, actionType: entry.actionType)
        lines.append("  " + entry.actionType + (payload.isEmpty ? "" : " " + payload))
        // The first entry of a log without an initial state: all of its state is new.
        let before = step.previousState ?? firstBefore(step)
        guard let after = step.state, let before else {
            lines.append(style.dim("  (state unavailable: a damaged record or a gap before this entry)"))
            return lines.joined(separator: "\n")
        }
        if let diff = JSONDiff.treeText(from: before, to: after) {
            // The tree diff's lines start with their marker, then two spaces of indent, as TCA's do.
            for line in diff.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
                switch line.first {
                case "-": lines.append(style.red(line))
                case "+": lines.append(style.green(line))
                default: lines.append(line)
                }
            }
        } else {
            lines.append("  (No state changes)")
        }
        return lines.joined(separator: "\n")
    }

    /// `{"entry":3,"time":…,"action":{"type":…,"payload":…},"changed":[…],"patch":[…]}`.
    static func jsonLine(_ step: StateScanStep, timeline: LogTimeline) -> String {
        var object = JSONObject()
        object["entry"] = .integer(Int64(step.index + 1))
        guard let entry = try? timeline.reader.entry(at: step.index) else {
            object["error"] = "unreadable record"
            return JSONWriter.compactString(.object(object))
        }
        object["time"] = .double(entry.time.timeIntervalSince1970)
        object["action"] = ["type": .string(entry.action.name), "payload": entry.action.payload]
        object["changed"] = .array(entry.changedPaths.map { .string($0.description) })
        // A keyframe records the whole state: its patch is the diff from the state before.
        if let patch = step.patch {
            object["patch"] = patch.jsonValue
        } else if let before = step.previousState ?? firstBefore(step), let after = step.state {
            object["patch"] = JSONDiff.patch(from: before, to: after).jsonValue
        } else {
            object["patch"] = .null
        }
        return JSONWriter.compactString(.object(object))
    }
}

extension TailCommand {
    /// What the first entry of a log without an initial state is diffed from (nothing: all of it is new).
    /// (Not `nil` in a ternary: JSONValue is expressible by `nil`, which would read as JSON null.)
    static func firstBefore(_ step: StateScanStep) -> JSONValue? {
        guard step.index == 0 else { return Optional<JSONValue>.none }
        return .object(JSONObject())
    }
}

/// ANSI styles, or none (stdout not a terminal, or NO_COLOR set: no-color.org).
struct TerminalStyle {
    var enabled: Bool

    func bold(_ text: String) -> String { wrap(text, "1") }
    func dim(_ text: String) -> String { wrap(text, "2") }
    func red(_ text: String) -> String { wrap(text, "31") }
    func green(_ text: String) -> String { wrap(text, "32") }

    private func wrap(_ text: String, _ code: String) -> String {
        enabled ? "\u{1b}[\(code)m\(text)\u{1b}[0m" : text
    }
}
