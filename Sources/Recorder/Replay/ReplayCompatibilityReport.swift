import Foundation

/// Whether a log recorded with older code still decodes with the current
/// types: one line per recorded action type, plus the recorded states.
///
/// ```text
/// actions: 5 types, 4 ok, 1 cannot decode
///   ok                 add (3 entries)
///   cannot decode      rename (1 entry): title: missing (the object has no member "title")
///   not replayable     failed (2 entries): recorded through reflection
/// states: ok (initial state and 4 keyframes decode)
/// ```
///
/// Browsing never depends on it: the inspector shows every entry either way.
public struct ReplayCompatibilityReport: Sendable, Equatable, CustomStringConvertible {
    /// What happened when one sample of an action type was decoded.
    public enum Status: Sendable, Equatable {
        case ok
        /// The recorded JSON does not decode as the current Action type; the reason names the field.
        case cannotDecode(reason: String)
        /// The action was recorded through reflection (its type is not Codable).
        case notReplayable
    }

    /// One recorded action case and whether the current Action type decodes it.
    public struct ActionType: Sendable, Equatable {
        /// The recorded case path (`primary.brakeTapped`).
        public var name: String
        /// Entries of this type in the log.
        public var count: Int
        /// The entry whose action was decoded, from 0.
        public var sampleEntry: Int
        /// Its number, as `rewind log` shows it (entries keep the numbers they were recorded with).
        public var sampleEntryNumber: Int
        /// Whether the sample decoded with the current type.
        public var status: Status
    }

    /// One row per recorded action type, in order of first appearance.
    public var actionTypes: [ActionType]
    /// States decoded (the initial state and keyframes) and the first that failed, if any.
    public var statesChecked: Int
    /// Why the first state that failed does not decode; nil when every checked state decoded.
    public var stateProblem: String?

    /// True when every action type and every checked state decodes.
    public var isFullyCompatible: Bool { stateProblem == nil && actionTypes.allSatisfy { $0.status == .ok } }

    /// Short text for a status bar: `replay: all 5 action types ok` or `replay: 1 of 5 action types cannot decode`.
    public var summary: String {
        if let stateProblem { return "replay: states cannot decode (\(stateProblem))" }
        let failing = actionTypes.filter { $0.status != .ok }.count
        if failing == 0 { return "replay: all \(actionTypes.count) action types ok" }
        let notReplayable = actionTypes.filter { $0.status == .notReplayable }.count
        if notReplayable == failing { return "replay: \(failing) of \(actionTypes.count) action types not replayable (reflection)" }
        return "replay: \(failing) of \(actionTypes.count) action types cannot decode"
    }

    public var description: String {
        let ok = actionTypes.filter { $0.status == .ok }.count
        var lines = ["actions: \(actionTypes.count) type\(actionTypes.count == 1 ? "" : "s"), \(ok) ok, \(actionTypes.count - ok) cannot be replayed"]
        let width = 16
        for type in actionTypes {
            let entries = "\(type.count) entr\(type.count == 1 ? "y" : "ies")"
            switch type.status {
            case .ok:
                lines.append("  " + "ok".padding(toLength: width, withPad: " ", startingAt: 0) + " \(type.name) (\(entries))")
            case .cannotDecode(let reason):
                lines.append("  " + "cannot decode".padding(toLength: width, withPad: " ", startingAt: 0) + " \(type.name) (\(entries), e.g. entry \(type.sampleEntryNumber)): \(reason)")
            case .notReplayable:
                lines.append("  " + "not replayable".padding(toLength: width, withPad: " ", startingAt: 0) + " \(type.name) (\(entries)): recorded through reflection, not Codable")
            }
        }
        if let stateProblem {
            lines.append("states: cannot decode: \(stateProblem)")
        } else {
            lines.append("states: ok (\(statesChecked) recorded state\(statesChecked == 1 ? "" : "s") decode)")
        }
        return lines.joined(separator: "\n")
    }
}

/// A compatibility check that can be extended as more of a log is indexed:
/// the report so far and what it needs to carry on from ``checkedEntries``.
package struct CompatibilityCheck: Sendable, Equatable {
    /// The report over entries `0..<checkedEntries`.
    package var report = ReplayCompatibilityReport(actionTypes: [], statesChecked: 0, stateProblem: nil)
    /// Entries examined so far.
    package var checkedEntries = 0
    /// Row of each action type in `report.actionTypes`.
    var positions: [String: Int] = [:]
    /// Keyframe entries seen, whose states are sampled.
    var keyframes: [Int] = []

    package init() {}
}
