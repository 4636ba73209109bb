import Recorder

/// How every command and the inspector say what a gap stands for, escaped for the
/// terminal. The why is the gap's one explanation (``Recorder/LogGap/explanation``,
/// older logs' reasons reworded alike), said once, after the numbers:
///
/// - a row of a listing (`rewind log`, the timeline): `3–5  not recorded (3 entries): the recording queue was full (queue policy .drop)`;
/// - a sentence (messages, errors, `tail`): `entry 7 was not recorded: the state after load is 70 MB encoded; …`;
/// - an item under a heading that says "not recorded" (`stats`, Markdown): `entries 3–5: the recording queue was full …`.
enum GapDescription {
    /// `entry 5` or `entries 5–7`, from the first number the gap takes.
    static func entries(numbered first: Int, gap: LogGap) -> String { gap.entries(from: first) }

    /// `5` or `5–7`.
    static func range(numbered first: Int, gap: LogGap) -> String { gap.range(from: first) }

    /// `: <why>`, escaped for the terminal, or empty when the gap gives no reason.
    static func because(_ gap: LogGap) -> String {
        gap.explanation.map { ": " + $0.escapingControlCharacters } ?? ""
    }

    /// `entries 5–7 were not recorded` or `entry 5 was not recorded`, with `of` after the numbers (`of app.jsonl`).
    static func notRecorded(numbered first: Int, gap: LogGap, of log: String? = nil) -> String {
        entries(numbered: first, gap: gap) + (log.map { " of " + $0.escapingControlCharacters } ?? "")
            + (gap.droppedCount > 1 ? " were" : " was") + " not recorded"
    }

    /// `entries 5–7 were not recorded: <why>`.
    static func sentence(numbered first: Int, gap: LogGap, of log: String? = nil) -> String {
        notRecorded(numbered: first, gap: gap, of: log) + because(gap)
    }

    /// `entries 5–7: <why>`, under a heading that says they were not recorded.
    static func item(numbered first: Int, gap: LogGap) -> String {
        entries(numbered: first, gap: gap) + because(gap)
    }

    /// What follows a gap's numbers in a row: `not recorded (3 entries): <why>`.
    static func rowText(_ gap: LogGap) -> String { gap.listingText.escapingControlCharacters }

    /// The line `rewind log` prints where the entries would be:
    /// `3–5  not recorded (3 entries): the recording queue was full (queue policy .drop)`.
    static func logLine(numbered first: Int, gap: LogGap, numberWidth: Int) -> String {
        range(numbered: first, gap: gap).leftPadded(toWidth: numberWidth) + "  " + rowText(gap)
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
