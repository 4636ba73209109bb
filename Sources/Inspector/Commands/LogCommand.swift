/// `rewind log <log>`: one line per entry, for grep and scripts. Also what
/// `rewind <log>` prints when stdout is not a terminal.
enum LogCommand {
    static let usage = "usage: rewind log <log>"

    static func run(_ arguments: [String], streams: inout some TextStreams) -> Int32 {
        guard let path = CommandSupport.singleLogPath(arguments, usage: usage, streams: &streams),
              let timeline = CommandSupport.openLog(path, streams: &streams) else { return 2 }
        printEntries(of: timeline, streams: &streams)
        return 0
    }

    /// `   6   +4.125s  sync/loaded count: 3  [effect]  changed /todos/-`
    static func printEntries(of timeline: LogTimeline, streams: inout some TextStreams) {
        let numberWidth = max(3, String(timeline.count).count)
        var text = ""
        for index in 0..<timeline.count {
            guard let entry = timeline.entry(at: index) else {
                text += String(index + 1).leftPadded(toWidth: numberWidth) + "  (unreadable record)\n"
                continue
            }
            var line = CommandSupport.entryLine(entry, numberWidth: numberWidth)
            if entry.fromEffect { line += "  [effect]" }
            if !entry.changedPaths.isEmpty {
                let shown = entry.changedPaths.prefix(4).map(\.description).joined(separator: " ")
                line += "  changed " + shown + (entry.changedPaths.count > 4 ? " …(+\(entry.changedPaths.count - 4))" : "")
            }
            text += line.escapingControlCharacters + "\n"
            // Stream in chunks so a million entries do not sit in memory.
            if text.utf8.count > 1 << 16 {
                streams.output(String(text.dropLast()))
                text = ""
            }
        }
        if !text.isEmpty { streams.output(String(text.dropLast())) }
        for damaged in timeline.damage { streams.error("rewind: \(timeline.name): line \(damaged.line) is damaged (\(damaged.reason)); skipped") }
        if let torn = timeline.tornTail { streams.error("rewind: \(timeline.name): line \(torn.line) is cut off (\(torn.reason)); ignored") }
    }
}
