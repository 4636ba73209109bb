import Recorder

/// `rewind blame <log> <pointer>`: every entry that changed a state path,
/// with the value before and after (`old → new`).
enum BlameCommand: CommandRunner {
    static func run(_ invocation: Invocation, streams: inout some TextStreams) -> Int32 {
        let pointer: JSONPointer
        do {
            pointer = try JSONPointer(parsing: invocation.positional[1])
        } catch {
            return invocation.fail(error.description, streams: &streams)
        }
        guard let timeline = CommandSupport.openLog(invocation.positional[0], program: invocation.program.name, streams: &streams) else { return 2 }
        let numberWidth = max(3, String(timeline.count).count)
        // The engine behind `w`: follows the value at `pointer` in the last state back to where it was created.
        // A log with no entries has no last state to start from, and nothing changed anything.
        var changes: [ValueChange] = []
        if timeline.count > 0 {
            var history = ValueHistory(path: pointer, origin: timeline.count - 1, source: timeline)
            history.runToCompletion(source: timeline)
            changes = history.changes
        }
        let gaps = timeline.numberedGaps.filter { $0.gap.beforeEntry < timeline.count }
        var lines: [String] = []
        for change in changes {
            guard let entry = timeline.entry(at: change.entry) else { continue }
            var line = CommandSupport.entryLine(entry, number: timeline.entryNumber(at: change.entry), numberWidth: numberWidth)
                + "  " + ValueChangeText.describe(change, source: timeline).escapingControlCharacters
            // The value before is the last recorded one: the change may have happened in the gap.
            if let (gap, first) = gaps.last(where: { $0.gap.beforeEntry == change.entry }) {
                line += "  (across a gap: " + GapDescription.entries(numbered: first, gap: gap) + " not recorded)"
            } else if timeline.startsNewSession(at: change.entry) {
                // Not what the previous session left: the state the app started the new session with.
                line += "  (a new recording session starts here)"
            }
            lines.append(line)
        }
        if lines.isEmpty {
            streams.output("No entry in \(timeline.name.escapingControlCharacters) changed \(pointer.description.escapingControlCharacters)")
        } else {
            streams.output(lines.joined(separator: "\n"))
        }
        if !gaps.isEmpty {
            let covered = gaps.map { GapDescription.range(numbered: $0.firstNumber, gap: $0.gap) }.joined(separator: ", ")
            let single = gaps.count == 1 && gaps[0].gap.droppedCount <= 1
            streams.output("note: " + (single ? "entry \(covered) was" : "entries \(covered) were") + " not recorded; a change to \(pointer.description.escapingControlCharacters) there is not listed (rewind stats says why)")
        }
        return 0
    }
}
