/// The first entry whose recomputed state differs from the recorded one:
/// what ``Replay/verify(reducer:state:action:)`` throws.
///
/// `description` is the report a test failure or `verify <log>` prints:
/// ```text
/// entry 5 of 12 diverges: toggle {"toggle":{"id":1}}
/// recorded (-) → recomputed (+):
///     {
///       … (3 unchanged)
///       "stats": {
///         … (1 unchanged)
///   -     "done": 1
///   +     "done": 0
///       }
///     }
/// ```
public struct ReplayDivergence: Error, Sendable, Equatable, CustomStringConvertible {
    /// Position of the entry in the log, from 0.
    public var entryIndex: Int
    /// Entries in the log.
    public var entryCount: Int
    /// The entry's number, as `rewind log` shows it (entries keep the numbers they were
    /// recorded with: gaps and damaged records before it count).
    public var entryNumber: Int
    /// The number of the log's last entry, counted as ``entryNumber`` is.
    public var lastEntryNumber: Int
    /// The action, as recorded: its case path and its JSON.
    public var action: LogEntry.Action
    /// The state the log holds after the action.
    public var recorded: JSONValue
    /// The state the current reducer computed, encoded as the recorder encodes states.
    public var recomputed: JSONValue
    /// Outside values the reducer read through ``Recorded`` that the entry has no recorded
    /// value for (`uuid #2: the recording has no value for it`); the reducer got live values
    /// instead. Empty when only the state differs.
    public var unrecordedReads: [String] = []

    /// What differs, as a tree diff (`-` recorded, `+` recomputed).
    public var diff: String { DivergenceDiff.text(recorded: recorded, recomputed: recomputed) }

    /// The JSON Pointers of the values that differ (`/stats/done`).
    public var differingPaths: [JSONPointer] { DivergenceDiff.paths(recorded: recorded, recomputed: recomputed) }

    public var description: String {
        let payload = ReplayText.short(ActionSummary.payload(of: action))
        var text = "entry \(entryNumber) of \(lastEntryNumber) diverges: \(action.name)\(payload.isEmpty ? "" : " " + payload)\n"
        for read in unrecordedReads { text += "reads Recorded value \(read)\n" }
        if !unrecordedReads.isEmpty && recorded == recomputed { return text + "(the recomputed state matches the recording)" }
        text += "recorded (-) → recomputed (+):\n"
        text += diff.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n")
        return text
    }
}

/// Why a log cannot be replayed (as opposed to replaying and diverging).
/// `description` is one line: `entry 3 (load): the action was recorded through reflection …`.
public struct ReplayError: Error, Sendable, Equatable, CustomStringConvertible {
    enum Reason: Sendable, Equatable {
        case unreadable(LogReadError)
        case stateNotReplayable
        case stateCannotDecode(entry: Entry?, JSONValueDecodingError)
        case stateCannotEncode(entry: Entry, String)
        case actionNotReplayable(entry: Entry, name: String)
        case actionCannotDecode(entry: Entry, name: String, JSONValueDecodingError)
    }

    /// An entry by its position in the log (from 0) and its number, as `rewind log` shows it.
    struct Entry: Sendable, Equatable {
        var index: Int
        var number: Int
    }

    let reason: Reason

    init(_ reason: Reason) { self.reason = reason }

    private var entry: Entry? {
        switch reason {
        case .unreadable, .stateNotReplayable: nil
        case .stateCannotDecode(let entry, _): entry
        case .stateCannotEncode(let entry, _), .actionNotReplayable(let entry, _), .actionCannotDecode(let entry, _, _): entry
        }
    }

    /// The entry the error is about, from 0, when it is about one.
    public var entryIndex: Int? { entry?.index }

    /// The number of the entry the error is about, as `rewind log` shows it (entries keep the
    /// numbers they were recorded with: gaps and damaged records before it count), when it is about one.
    public var entryNumber: Int? { entry?.number }

    public var description: String {
        switch reason {
        case .unreadable(let error): "\(error)"
        case .stateNotReplayable:
            "the state was recorded through reflection (its type is not Codable), so it cannot be restored for replay"
        case .stateCannotDecode(let entry, let error):
            (entry.map { "the state after entry \($0.number)" } ?? "the initial state") + " cannot be decoded with the current State type: \(error)"
        case .stateCannotEncode(let entry, let why):
            "the state computed for entry \(entry.number) cannot be encoded: \(why)"
        case .actionNotReplayable(let entry, let name):
            "entry \(entry.number) (\(name)): the action was recorded through reflection (not Codable), so it cannot be replayed"
        case .actionCannotDecode(let entry, let name, let error):
            "entry \(entry.number) (\(name)): the action cannot be decoded with the current Action type: \(error)"
        }
    }
}

/// Short one-line renderings for reports.
enum ReplayText {
    /// Compact JSON cut to `limit` characters.
    static func short(_ value: JSONValue, limit: Int = 120) -> String { short(value.description, limit: limit) }

    /// Text cut to `limit` characters.
    static func short(_ text: String, limit: Int = 120) -> String {
        text.count > limit ? String(text.prefix(limit - 1)) + "…" : text
    }
}
