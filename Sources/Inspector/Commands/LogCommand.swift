import Recorder

/// `rewind log <log>`: one line per entry, for grep and scripts. Also what
/// `rewind <log>` prints when stdout is not a terminal.
enum LogCommand: CommandRunner {
    static func run(_ invocation: Invocation, streams: inout some TextStreams) -> Int32 {
        guard let timeline = CommandSupport.openLog(invocation.positional[0], program: invocation.program.name, streams: &streams) else { return 2 }
        printEntries(of: timeline, trace: invocation.isSet("--trace"), width: streams.listingWidth(full: invocation.isSet("--full")),
                     program: invocation.program.name, streams: &streams)
        return 0
    }

    /// `   6   +4.125s  sync/loaded count: 3  [effect]  changed /todos/-`; with `trace`,
    /// followed by where the action was dispatched:
    /// `        at MyApp/CartView.swift:42` and the recorded call stack, one frame a line.
    /// Gaps and new sessions get a line where they happened; entries keep their recorded
    /// numbers. Lines are cut to `width` columns (nil: whole).
    /// Damage is reported on stderr, each line starting with `program` (`rewind`, or a debug executable's name).
    static func printEntries(of timeline: LogTimeline, trace: Bool = false, width: Int? = nil, program: String,
                             streams: inout some TextStreams) {
        let lastNumber = timeline.count > 0 ? timeline.entryNumber(at: timeline.count - 1) : 0
        let numberWidth = max(3, String(lastNumber + (timeline.reader.gaps.last.map { $0.droppedCount } ?? 0)).count)
        var listing = EntryListing(timeline)
        var text = ""
        func add(_ line: String) {
            text += (width.map { line.truncated(toWidth: $0) } ?? line) + "\n"
        }
        for index in 0...timeline.count {
            for mark in listing.take(before: index) { add(EntryListing.line(mark, numberWidth: numberWidth)) }
            guard index < timeline.count else { break }
            let number = timeline.entryNumber(at: index)
            guard let entry = timeline.entry(at: index) else {
                add(String(number).leftPadded(toWidth: numberWidth) + "  (unreadable record)")
                continue
            }
            var line = CommandSupport.entryLine(entry, number: number, numberWidth: numberWidth)
            if entry.fromEffect { line += "  [effect]" }
            line += CommandSupport.changedList(entry.changedPaths).map { "  " + $0 } ?? ""
            add(line.escapingControlCharacters)
            if trace { text += traceLines(entry.trace, indent: numberWidth + 2) }
            // Stream in chunks so a million entries do not sit in memory.
            if text.utf8.count > 1 << 16 {
                streams.output(String(text.dropLast()))
                text = ""
            }
        }
        if !text.isEmpty { streams.output(String(text.dropLast())) }
        for damaged in timeline.damage {
            // Records deleted before a line: what is missing is damage, the line itself was read (and is listed).
            if damaged.lineWasRead {
                streams.error("\(program): \(timeline.name): line \(damaged.line): \(damaged.reason); line \(damaged.line) itself was read")
            } else {
                streams.error("\(program): \(timeline.name): line \(damaged.line) is damaged (\(damaged.reason)); skipped")
            }
        }
        if let torn = timeline.tornTail { streams.error("\(program): \(timeline.name): line \(torn.line) is cut off (\(torn.reason)); ignored") }
    }

    /// `at <file>:<line>` and the stack frames, indented under the entry; `(no trace recorded)` without one.
    static func traceLines(_ trace: EntryTrace?, indent: Int) -> String {
        let pad = String(repeating: " ", count: indent)
        guard let trace else { return pad + "(no trace recorded)\n" }
        var text = ""
        if trace.file != nil { text += pad + "at \(trace.description.escapingControlCharacters)\n" }
        for frame in trace.stack { text += pad + "  " + frame.escapingControlCharacters + "\n" }
        return text
    }
}
