import Foundation
import Recorder
import RewindQuery

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
        /// Columns an action line may take (nil: whole, `--full` or JSON).
        var width: Int? = 120
        /// `-F`: wait for a log that does not exist yet.
        var waitsForFile = false
    }

    /// Where a followed listing has got: the next entry, and the gaps and sessions already printed.
    struct Progress {
        var next: Int
        var marksDone = 0
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
        settings.waitsForFile = invocation.isSet("-F")
        settings.follow = invocation.isSet("-f") || settings.waitsForFile
        settings.colors = settings.format == .text && stdoutIsTerminal && environment["NO_COLOR"].map(\.isEmpty) ?? true
        settings.width = settings.format == .json ? nil : streams.listingWidth(full: invocation.isSet("--full"))
        if settings.waitsForFile {
            // As tail -F: a log the app has not created yet is waited for, quietly.
            while !FileManager.default.fileExists(atPath: settings.path) {
                guard waitForMore() else { return 0 }
            }
        }
        guard let timeline = CommandSupport.openLog(settings.path, program: invocation.program.name, streams: &streams) else { return 2 }

        let count = timeline.count
        var printed = Progress(next: settings.last.map { max(0, count - $0) } ?? 0)
        printed = printEntries(of: timeline, from: printed, settings: settings, streams: &streams)
        guard settings.follow else { return 0 }
        while waitForMore() {
            // A log cut, rewritten, rotated or replaced at its path is reopened by name and read
            // from its start, as the inspector's follow mode does (LogReader.refresh()).
            if let notice = timeline.refresh() {
                streams.error("\(invocation.displayName): \(notice.message)")
                if notice.startedOver { printed = Progress(next: 0) }
            }
            if timeline.count < printed.next {
                // The recorder cut a torn tail and indexing started over: go on after what is still there.
                printed.next = timeline.count
            }
            if timeline.count > printed.next || EntryListing(timeline).count > printed.marksDone {
                printed = printEntries(of: timeline, from: printed, settings: settings, streams: &streams)
            }
        }
        return 0
    }

    /// Prints entries from `start` to the end, with a line for each gap and new session
    /// among them; returns where the next call goes on.
    static func printEntries(of timeline: LogTimeline, from start: Progress, settings: Settings, streams: inout some TextStreams) -> Progress {
        var progress = start
        let end = timeline.count
        var output = BufferedOutput(styled: settings.colors)
        var listing = EntryListing(timeline)
        // Marks before the first entry shown are not this listing's (`-n 10` starts later).
        let skipped = start.next > 0 ? listing.take(before: start.next - 1).count : 0
        var marksDone = max(start.marksDone, skipped)
        var seen = skipped
        func printMarks(before index: Int) {
            for mark in listing.take(before: index) {
                seen += 1
                guard seen > marksDone else { continue }
                output.append(settings.format == .json ? jsonLine(mark) : textBlock(mark, colors: settings.colors), to: &streams)
                marksDone = seen
            }
        }
        timeline.reader.scanStates(start.next..<end, keepingPrevious: true) { step in
            printMarks(before: step.index)
            let text = settings.format == .json
                ? jsonLine(step, timeline: timeline)
                : textBlock(step, timeline: timeline, colors: settings.colors, width: settings.width)
            output.append(text, to: &streams)
            progress.next = step.index + 1
            return true
        }
        progress.next = max(progress.next, start.next)
        if progress.next == end { printMarks(before: end) }
        output.flush(to: &streams)
        progress.marksDone = marksDone
        return progress
    }

    /// A gap or a new session, where it happened:
    /// `entries 2–4 were not recorded: the recording queue was full (queue policy .drop)`.
    static func textBlock(_ mark: EntryListing.Mark, colors: Bool) -> String {
        let style = TerminalStyle(enabled: colors)
        switch mark {
        case .gap(let gap, let first):
            return style.bold(GapDescription.notRecorded(numbered: first, gap: gap)) + GapDescription.because(gap)
        case .session(let session):
            return style.dim("── " + EntryListing.sessionDescription(session))
        }
    }

    /// `{"kind":"gap","firstEntry":2,"lastEntry":4,"reason":"…"}` or `{"kind":"session","created":…,"process":…}`.
    static func jsonLine(_ mark: EntryListing.Mark) -> String {
        var object = JSONObject()
        switch mark {
        case .gap(let gap, let first):
            object["kind"] = "gap"
            object["firstEntry"] = .integer(Int64(first))
            object["lastEntry"] = .integer(Int64(first + max(1, gap.droppedCount) - 1))
            object["reason"] = gap.explanation.map(JSONValue.string) ?? .null
        case .session(let session):
            object["kind"] = "session"
            object["created"] = session.header.map { .double($0.created.timeIntervalSince1970) } ?? .null
            object["process"] = session.header.map { .string($0.processName) } ?? .null
        }
        return JSONWriter.compactString(.object(object))
    }

    /// The `_printChanges` form of one entry.
    static func textBlock(_ step: StateScanStep, timeline: LogTimeline, colors: Bool, width: Int? = nil) -> String {
        let style = TerminalStyle(enabled: colors)
        let number = timeline.entryNumber(at: step.index)
        guard let entry = timeline.entry(at: step.index) else {
            return style.bold("received action:") + "\n  (entry \(number): unreadable record)"
        }
        var lines = [style.bold("received action:")]
        let payload = ValueFormatting.payloadSummary(of: entry)
        let action = ("  " + entry.actionType + (payload.isEmpty ? "" : " " + payload)).escapingControlCharacters
        lines.append(width.map { action.truncated(toWidth: $0) } ?? action)
        guard let after = step.state, let before = stateBefore(step, timeline: timeline) else {
            lines.append(style.dim(timeline.startsNewSession(at: step.index)
                ? "  (no state before it: a new recording session starts here, and its header holds none)"
                : "  (state unavailable: a damaged record or a gap before this entry)"))
            return lines.joined(separator: "\n")
        }
        if let diff = JSONDiff.treeText(from: before, to: after) {
            // The tree diff's lines start with their marker, then two spaces of indent, as TCA's do.
            for line in diff.split(separator: "\n", omittingEmptySubsequences: false).map({ String($0).escapingControlCharacters }) {
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
        object["kind"] = "entry"
        object["entry"] = .integer(Int64(timeline.entryNumber(at: step.index)))
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
        } else if let before = stateBefore(step, timeline: timeline), let after = step.state {
            object["patch"] = JSONDiff.patch(from: before, to: after).jsonValue
        } else {
            object["patch"] = .null
        }
        return JSONWriter.compactString(.object(object))
    }
}

extension TailCommand {
    /// What an entry's change is shown from: the state before it as the scan hands it over; for
    /// the first entry of a new session, the state that session started with (nil when its header
    /// holds none), not the previous session's last; for the first entry of a log without an
    /// initial state, nothing (all of its state is new).
    static func stateBefore(_ step: StateScanStep, timeline: LogTimeline) -> JSONValue? {
        if step.index > 0, timeline.startsNewSession(at: step.index) { return timeline.stateBefore(step.index) }
        return step.previousState ?? firstBefore(step)
    }

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
