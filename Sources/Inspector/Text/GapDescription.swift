import Recorder

/// How every command and the inspector say what a gap stands for:
/// `entries 2–4 not recorded: entry 2 (note) was not recorded: it is 70 MB encoded; …`.
enum GapDescription {
    /// `entry 5` or `entries 5–7`, from the first number the gap takes.
    static func entries(numbered first: Int, gap: LogGap) -> String {
        gap.droppedCount <= 1 ? "entry \(first)" : "entries \(range(numbered: first, gap: gap))"
    }

    /// `5` or `5–7`.
    static func range(numbered first: Int, gap: LogGap) -> String {
        gap.droppedCount <= 1 ? "\(first)" : "\(first)–\(first + gap.droppedCount - 1)"
    }

    /// `: <the recorder's reason>`, or empty when the gap gives none.
    static func because(_ gap: LogGap) -> String {
        guard let reason = gap.reason, !reason.isEmpty else { return "" }
        return ": " + reason.escapingControlCharacters
    }

    /// The line `rewind log` and `rewind tail` print where the entries would be:
    /// `2–4  not recorded: the recording queue was full (queue policy .drop)`.
    static func logLine(numbered first: Int, gap: LogGap, numberWidth: Int) -> String {
        range(numbered: first, gap: gap).leftPadded(toWidth: numberWidth) + "  not recorded"
            + (gap.droppedCount > 1 ? " (\(gap.droppedCount) entries)" : "") + because(gap)
    }

    /// What `find` and `bisect` say when gaps kept entries from them:
    /// `app.jsonl: 3 entries were not recorded (2–4) and could not be searched; see rewind stats`.
    static func skipNote(_ timeline: LogTimeline, doing: String, program: String) -> String? {
        let gaps = timeline.numberedGaps
        guard !gaps.isEmpty else { return nil }
        let missing = gaps.reduce(0) { PlaceholderRows.total($0, max(1, $1.gap.droppedCount)) }
        let ranges = gaps.prefix(5).map { range(numbered: $0.firstNumber, gap: $0.gap) }.joined(separator: ", ") + (gaps.count > 5 ? ", …" : "")
        return timeline.name.escapingControlCharacters + ": " + missing.counted("entry was", "entries were")
            + " not recorded (\(ranges)) and could not be \(doing); see \(program) stats"
    }
}
