/// `rewind stats <log>`: entries, keyframes, size, damaged records, time span
/// and how often each action type occurs.
enum StatsCommand: CommandRunner {
    static func run(_ invocation: Invocation, streams: inout some TextStreams) -> Int32 {
        guard let timeline = CommandSupport.openLog(invocation.positional[0], program: invocation.program.name, streams: &streams) else { return 2 }
        var unreadable = 0
        var fromEffects = 0
        var counts: [String: Int] = [:]
        var lastOffset = 0.0
        for index in 0..<timeline.count {
            guard let entry = timeline.entry(at: index) else { unreadable += 1; continue }
            if entry.fromEffect { fromEffects += 1 }
            counts[entry.actionType, default: 0] += 1
            lastOffset = entry.timeOffset
        }
        let damaged = timeline.damage.count + unreadable
        var lines = [
            "file:             \(timeline.path)",
            "size:             \(formatBytes(timeline.byteCount))",
            "entries:          \(timeline.count)",
            "keyframes:        \(timeline.reader.keyframeCount)",
            "from effects:     \(fromEffects)",
            "time span:        \(ValueFormatting.timeOffset(lastOffset).dropFirst())",
            "damaged records:  \(damaged)" + (timeline.tornTail != nil ? " (and a torn last line)" : ""),
        ]
        if timeline.reader.hasCarriageReturns {
            lines.append("line endings:     CRLF (converted after recording; records were read without the carriage returns)")
        }
        lines += [
            "actions by type:",
        ]
        // Columns, not characters: a CJK or emoji name takes two per character.
        let width = counts.keys.map { TerminalWidth.of($0.escapingControlCharacters) }.max() ?? 0
        for (type, count) in counts.sorted(by: { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }) {
            let name = type.escapingControlCharacters
            lines.append("  " + name + String(repeating: " ", count: width - TerminalWidth.of(name)) + "  " + String(count).leftPadded(toWidth: 7))
        }
        streams.output(lines.joined(separator: "\n"))
        return 0
    }

    static func formatBytes(_ bytes: Int64) -> String {
        let units = ["bytes", "KB", "MB", "GB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024, unit < units.count - 1 { value /= 1024; unit += 1 }
        if unit == 0 { return "\(bytes) bytes" }
        return "\((value * 10).rounded() / 10) \(units[unit]) (\(bytes) bytes)"
    }
}
