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
}
