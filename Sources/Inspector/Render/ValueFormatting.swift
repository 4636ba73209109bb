import Recorder

/// Short text for values, payloads and times in the panes.
enum ValueFormatting {
    /// `+1.234s`, `+2m05s`, `+1h02m`: time since the first entry.
    static func timeOffset(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0 else { return "+?" }
        if seconds < 100 {
            let milliseconds = Int((seconds * 1000).rounded())
            let fraction = String(milliseconds % 1000)
            return "+\(milliseconds / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)s"
        }
        // A damaged or hand-edited time can be past any Int.
        guard let whole = Int(exactly: seconds.rounded(.towardZero)) else { return "+?" }
        if whole < 3600 { return "+\(whole / 60)m\(twoDigits(whole % 60))s" }
        return "+\(whole / 3600)h\(twoDigits(whole / 60 % 60))m"
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }

    /// A payload without what the action name already says, its `Date`s (at `datePaths`, the
    /// entry's `payloadDates`) as ISO-8601 dates (see ``ActionSummary``); callers truncate to fit.
    static func payloadSummary(_ payload: JSONValue, actionType: String, datePaths: [String] = []) -> String {
        ActionSummary.payload(payload, actionType: actionType, datePaths: datePaths)
    }

    /// ``payloadSummary(_:actionType:datePaths:)`` of a timeline entry's action.
    static func payloadSummary(of entry: TimelineEntry) -> String {
        payloadSummary(entry.payload, actionType: entry.actionType, datePaths: entry.payloadDatePaths)
    }

    /// What a tree row shows after its key: a scalar, or a summary of a container.
    static func nodeSummary(_ node: JSONNode, expanded: Bool) -> String {
        switch node.kind {
        case .object:
            if expanded { return "{\(node.count)}" }
            let keys = node.keys.prefix(6).joined(separator: ", ")
            return node.count > 6 ? "{\(keys), …}" : "{\(keys)}"
        case .array:
            return node.count == 0 ? "[]" : "[\(node.count)]"
        default:
            return node.scalarValue?.description ?? ""
        }
    }
}
