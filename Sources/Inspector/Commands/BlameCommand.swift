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
        var lines: [String] = []
        for change in changes {
            guard let entry = timeline.entry(at: change.entry) else { continue }
            lines.append(CommandSupport.entryLine(entry, numberWidth: numberWidth) + "  " + ValueChangeText.describe(change, source: timeline).escapingControlCharacters)
        }
        if lines.isEmpty {
            streams.output("No entry in \(timeline.name) changed \(pointer)")
        } else {
            streams.output(lines.joined(separator: "\n"))
        }
        return 0
    }
}
