import Recorder

/// `rewind log <log>`: one line per entry, for grep and scripts. Also what
/// `rewind <log>` prints when stdout is not a terminal.
enum LogCommand: CommandRunner {
    static func run(_ invocation: Invocation, streams: inout some TextStreams) -> Int32 {
        var numbers: (from: Int?, to: Int?) = (nil, nil)
        for name in ["--from", "--to"] {
            guard let text = invocation[name] else { continue }
            guard let number = Int(text), number >= 1 else {
                return invocation.fail("\(name) '\(text.escapingControlCharacters)' is not an entry number (entries are numbered from 1)", streams: &streams)
            }
            if name == "--from" { numbers.from = number } else { numbers.to = number }
        }
        if let from = numbers.from, let to = numbers.to, from > to { return invocation.fail("--from \(from) is after --to \(to)", streams: &streams) }
        var width = streams.listingWidth(full: invocation.isSet("--full"))
        if let text = invocation["--width"] {
            guard let columns = Int(text), columns >= 1 else {
                return invocation.fail("--width '\(text.escapingControlCharacters)' is not a number of columns", streams: &streams)
            }
            if invocation.isSet("--full") { return invocation.usageError("--width and --full cannot be combined", streams: &streams) }
            width = columns
        }
        guard let timeline = CommandSupport.openLog(invocation.positional[0], program: invocation.program.name, streams: &streams) else { return 2 }
        let lastNumber = timeline.count > 0 ? timeline.entryNumber(at: timeline.count - 1) : 0
        if let from = numbers.from, from > lastNumber {
            let entries = timeline.count == 0 ? "has no entries" : "has entries 1–\(lastNumber)"
            return invocation.fail("no entry \(from) (\(timeline.name.escapingControlCharacters) \(entries))", streams: &streams)
        }
        let range = numbers.from == nil && numbers.to == nil ? nil : (numbers.from ?? 1)...max(numbers.from ?? 1, numbers.to ?? lastNumber)
        printEntries(of: timeline, numbers: range, trace: invocation.isSet("--trace"), width: width,
                     program: invocation.program.name, streams: &streams)
        return 0
    }

    /// The rows whose entry numbers lie in `numbers` (numbers grow with rows: a binary search each end).
    static func rows(numbered numbers: ClosedRange<Int>, in timeline: LogTimeline) -> Range<Int> {
        func firstRow(numberedAtLeast number: Int) -> Int {
            var low = 0, high = timeline.count
            while low < high {
                let middle = (low + high) / 2
                if timeline.entryNumber(at: middle) < number { low = middle + 1 } else { high = middle }
            }
            return low
        }
        let lower = firstRow(numberedAtLeast: numbers.lowerBound)
        return lower..<max(lower, firstRow(numberedAtLeast: numbers.upperBound + 1))
    }

    /// `   6   +4.125s  sync/loaded count: 3  [effect]  changed /todos/-`; with `trace`,
    /// followed by where the action was dispatched:
    /// `        at MyApp/CartView.swift:42` and the recorded call stack, one frame a line.
    /// Gaps and new sessions get a line where they happened; entries keep their recorded
    /// numbers. Lines are cut to `width` columns (nil: whole).
    /// Damage is reported on stderr, each line starting with `program` (`rewind`, or a debug executable's name).
    /// `numbers` limits the listing to the entries numbered in it, with the gaps whose numbers
    /// reach into it and the sessions that start at an entry listed.
    static func printEntries(of timeline: LogTimeline, numbers: ClosedRange<Int>? = nil, trace: Bool = false, width: Int? = nil, program: String,
                             streams: inout some TextStreams) {
        let rows = numbers.map { self.rows(numbered: $0, in: timeline) } ?? 0..<timeline.count
        func isListed(_ mark: EntryListing.Mark, before index: Int) -> Bool {
            guard let numbers else { return true }
            switch mark {
            case .gap(let gap, let first): return first <= numbers.upperBound && first + max(1, gap.droppedCount) - 1 >= numbers.lowerBound
            case .session: return index < rows.upperBound
            }
        }
        let lastNumber = timeline.count > 0 ? timeline.entryNumber(at: timeline.count - 1) : 0
        let numberWidth = max(3, String(lastNumber + (timeline.reader.gaps.last.map { $0.droppedCount } ?? 0)).count)
        var listing = EntryListing(timeline)
        var text = ""
        func add(_ line: String) {
            text += (width.map { line.truncated(toWidth: $0) } ?? line) + "\n"
        }
        // The marks before the entries listed belong to earlier ones (those right before the first are weighed below).
        if rows.lowerBound > 0 { listing.skip(before: rows.lowerBound - 1) }
        for index in rows.lowerBound...rows.upperBound {
            for mark in listing.take(before: index) where isListed(mark, before: index) { add(EntryListing.line(mark, numberWidth: numberWidth)) }
            guard index < rows.upperBound else { break }
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
