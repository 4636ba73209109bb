import Recorder
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
        let gaps = timeline.numberedGaps
        let notRecorded = gaps.reduce(0) { PlaceholderRows.total($0, max(1, $1.gap.droppedCount)) }
        let sessions = 1 + timeline.reader.laterSessions.count
        let byType = counts.sorted(by: { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key })
        if invocation["--format"] == "json" {
            var object = JSONObject()
            object["file"] = .string(timeline.path)
            object["bytes"] = .integer(timeline.byteCount)
            object["entries"] = .integer(Int64(timeline.count))
            object["keyframes"] = .integer(Int64(timeline.reader.keyframeCount))
            object["fromEffects"] = .integer(Int64(fromEffects))
            object["timeSpanSeconds"] = .double(lastOffset)
            object["damagedRecords"] = .integer(Int64(damaged))
            object["tornLastLine"] = .bool(timeline.tornTail != nil)
            object["sessions"] = .integer(Int64(sessions))
            object["notRecorded"] = .integer(Int64(notRecorded))
            object["gaps"] = .array(gaps.map { gap, first in
                ["firstEntry": .integer(Int64(first)), "lastEntry": .integer(Int64(first + max(1, gap.droppedCount) - 1)),
                 "reason": gap.explanation.map(JSONValue.string) ?? .null]
            })
            var types = JSONObject()
            for (type, count) in byType { types[type] = .integer(Int64(count)) }
            object["actionsByType"] = .object(types)
            streams.output(JSONWriter.compactString(.object(object)))
            return 0
        }
        var lines = [
            "file:             \(timeline.path.escapingControlCharacters)",
            "size:             \(formatBytes(timeline.byteCount))",
            "entries:          \(timeline.count)" + (notRecorded > 0 ? " (and \(notRecorded.counted("entry", "entries")) not recorded)" : ""),
            "keyframes:        \(timeline.reader.keyframeCount)",
            "from effects:     \(fromEffects)",
            "time span:        \(ValueFormatting.timeOffset(lastOffset).dropFirst())",
            "damaged records:  \(damaged)" + (timeline.tornTail != nil ? " (and a torn last line)" : ""),
            "gaps:             \(gaps.count)" + (gaps.isEmpty ? "" : " (\(notRecorded.counted("entry", "entries")) not recorded)"),
        ]
        for (gap, first) in gaps.prefix(20) {
            lines.append("  " + GapDescription.item(numbered: first, gap: gap))
        }
        if gaps.count > 20 { lines.append("  …and \(gaps.count - 20) more (rewind stats --format json lists them all)") }
        if sessions > 1 { lines.append("sessions:         \(sessions) (the log was opened again \((sessions - 1).counted("time", "times")))") }
        if timeline.reader.hasCarriageReturns {
            lines.append("line endings:     CRLF (converted after recording; records were read without the carriage returns)")
        }
        lines += [
            "actions by type:",
        ]
        // Columns, not characters: a CJK or emoji name takes two per character.
        let width = counts.keys.map { TerminalWidth.of($0.escapingControlCharacters) }.max() ?? 0
        for (type, count) in byType {
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
