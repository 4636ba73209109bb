/// Why entries were not recorded, in the words that follow `not recorded: ` wherever
/// a gap is shown (`rewind log`, the inspector, failure reports): the recorder writes
/// a gap record's `reason` with these, and readers show older recorders' reasons
/// reworded to match (``readable(_:)``).
///
/// A reason names what was over which limit, never the entry's number: the gap
/// record holds the numbers, and every listing prints them in its own column.
package enum GapReason {
    /// A `.drop` queue was full when the app recorded the entries.
    static let queueFull = "the recording queue was full (queue policy .drop)"

    /// What was over a limit: `predicate` follows it (`is 70 MB encoded; …`, or `are …` for both).
    enum Subject {
        /// The state an action produced, named by the action.
        case state(after: String)
        /// An action's payload.
        case action(String)
        /// An action's payload and the state it produced, together.
        case actionAndState(String)
    }

    /// `the state after load is 70 MB encoded; a log record holds at most 64 MB`.
    static func overLimit(_ subject: Subject, _ predicate: String) -> String {
        switch subject {
        case .state(let action): "the state after \(action) \(predicate)"
        case .action(let action): "the action \(action) \(predicate)"
        case .actionAndState(let action): "the action \(action) and the state after it \(predicate)"
        }
    }

    /// `reason` as it reads after `not recorded: `. Today's recorder writes it so; older
    /// ones wrote `queue full`, and `entry 7 (load) was not recorded: it is 70 MB encoded; …`
    /// with a number of their own (counted from 0 before format 2): reworded, without the number.
    package static func readable(_ reason: String) -> String {
        if reason == "queue full" { return queueFull }
        guard let (action, problem) = olderOverLimit(reason) else { return reason }
        for (prefix, subject) in [("it is ", Subject.state(after: action)), ("its action is ", .action(action))] where problem.hasPrefix(prefix) {
            return overLimit(subject, "is " + problem.dropFirst(prefix.count))
        }
        if problem.hasPrefix("its action and state are ") {
            return overLimit(.actionAndState(action), "are " + problem.dropFirst("its action and state are ".count))
        }
        return "\(action): \(problem)"
    }

    /// `entry 7 (load) was not recorded: it is …` → (`load`, `it is …`).
    private static func olderOverLimit(_ reason: String) -> (action: String, problem: Substring)? {
        guard reason.hasPrefix("entry ") else { return nil }
        let afterEntry = reason.dropFirst("entry ".count)
        let digits = afterEntry.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, afterEntry.dropFirst(digits.count).hasPrefix(" ("),
              let end = afterEntry.range(of: ") was not recorded: ") else { return nil }
        let action = afterEntry[afterEntry.index(digits.endIndex, offsetBy: 2)..<end.lowerBound]
        return (String(action), afterEntry[end.upperBound...])
    }
}

extension LogGap {
    /// Why the entries were not recorded, as every listing shows it after `not recorded: `
    /// (`the recording queue was full (queue policy .drop)`), older logs' reasons reworded
    /// alike; nil when the gap record gives none.
    package var explanation: String? {
        guard let reason, !reason.isEmpty else { return nil }
        return GapReason.readable(reason)
    }

    /// `5–7`, or `5` for a gap of one entry, from the number of its first entry.
    package func range(from first: Int) -> String {
        droppedCount > 1 ? "\(first)–\(first + droppedCount - 1)" : "\(first)"
    }

    /// `entries 5–7`, or `entry 5`.
    package func entries(from first: Int) -> String {
        (droppedCount > 1 ? "entries " : "entry ") + range(from: first)
    }

    /// What a listing prints after the gap's numbers, where its entries would be:
    /// `not recorded (3 entries): the recording queue was full (queue policy .drop)`.
    package var listingText: String {
        "not recorded" + (droppedCount > 1 ? " (\(droppedCount) entries)" : "") + (explanation.map { ": " + $0 } ?? "")
    }
}
