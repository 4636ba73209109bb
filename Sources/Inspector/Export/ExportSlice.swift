import Foundation
import Recorder

/// The entries of a log an export covers, with every state rebuilt (and
/// redacted, when asked) once, so each format only formats.
struct ExportSlice {
    struct Entry {
        /// The number `rewind log` gives it (entries keep the numbers they were recorded with).
        var number: Int
        /// Wall-clock time, when the log file holds the entry (an in-memory timeline's entries
        /// and a replay branch's only have offsets, and no duration or sequence number either).
        var time: Date?
        /// Seconds since the log's first entry.
        var timeOffset: Double
        var duration: Double?
        var sequence: Int64?
        var effectOf: Int64?
        var fromEffect: Bool
        var action: LogEntry.Action
        /// The outside values the reducer read (`Recorded`), as the log's `values` member holds them.
        var values: JSONValue?
        /// The state after the action.
        var state: JSONValue
        /// Whether a new recording session starts with it (the log was opened again), and the
        /// state that session started with (nil when its header holds none).
        var session: (startsHere: Bool, startState: JSONValue?) = (false, nil)
    }

    var logName: String
    /// The log's header, when the source is a log file.
    var header: LogHeader?
    /// When the log's first entry was recorded (what `timeOffset`s count from), when the source is a log file.
    var firstEntryTime: Date?
    /// Entries in the whole log.
    var totalCount: Int
    /// The state before the first entry of the slice (`nil` at the start of a log without an initial state).
    var startState: JSONValue?
    var entries: [Entry]
    /// Gaps (entries that were not recorded) before the slice's entries: position in
    /// the slice of the entry each comes before, the gap, and the first number it takes.
    var gaps: [(beforePosition: Int, gap: LogGap, firstNumber: Int)] = []
    /// Rules applied to the slice's states and payloads.
    var redactionRules: [String] = []

    /// The state after the last entry (or the start state when the slice is empty).
    var endState: JSONValue? { entries.last?.state ?? startState }

    /// Reads entries `range` (0-based) of `source`, rebuilding each state once
    /// (neighbouring states cost one patch each: the source caches the last).
    init(source: any TimelineSource, range: ClosedRange<Int>, redaction: Redaction? = nil) throws(ExportError) {
        try self.init(source: source, range: range, redaction: redaction, isCancelled: { false })!
    }

    /// The same, for the inspector's `e`: nil once `isCancelled` says so, which is looked at
    /// as a huge state's children are read (``JSONNode/value(unlessCancelled:)``).
    init?(source: any TimelineSource, range: ClosedRange<Int>, redaction: Redaction? = nil, isCancelled: () -> Bool) throws(ExportError) {
        var cancelled = false
        func state(at index: Int) throws -> JSONValue {
            guard let state = try source.stateNode(at: index).value(unlessCancelled: isCancelled) else {
                cancelled = true
                return .null
            }
            return state
        }
        let reader = source.recordedLog
        logName = source.name
        header = reader?.header
        totalCount = source.count > 0 ? source.entryNumber(at: source.count - 1) : 0
        do {
            // A slice starting a new session starts from the state that session started from.
            startState = range.lowerBound == 0 ? source.initialState
                : source.startsNewSession(at: range.lowerBound) ? source.stateBefore(range.lowerBound) : try state(at: range.lowerBound - 1)
            if let reader, reader.entryCount > 0 { firstEntryTime = try reader.entryReadUpToItsState(at: 0).time }
        } catch {
            throw ExportError(.stateUnavailable, "the state before entry \(source.entryNumber(at: range.lowerBound)) cannot be rebuilt: \(StateUnavailable.reason(of: error))")
        }
        if cancelled { return nil }
        entries = []
        entries.reserveCapacity(range.count)
        for index in range {
            guard let summary = source.entry(at: index) else {
                throw ExportError(.damagedEntry, "entry \(source.entryNumber(at: index)) of \(source.name) cannot be read")
            }
            var entry = Entry(
                number: source.entryNumber(at: index), time: nil, timeOffset: summary.timeOffset, duration: nil, sequence: nil,
                effectOf: nil, fromEffect: summary.fromEffect,
                action: LogEntry.Action(type: summary.actionType, payload: summary.payload),
                state: .null)
            do {
                // Positions are not always the file's entries: damaged records keep rows of their
                // own, and a replay branch follows the log's last entry.
                if let reader, let recordedIndex = source.recordedLogIndex(ofEntry: index) {
                    let full = try reader.entryReadUpToItsState(at: recordedIndex)
                    entry.time = full.time
                    entry.timeOffset = firstEntryTime.map { full.time.timeIntervalSince($0) } ?? summary.timeOffset
                    entry.duration = full.duration
                    entry.sequence = full.sequence
                    entry.effectOf = full.effectOf
                    entry.action = full.action
                    if !full.recordedValues.isEmpty {
                        entry.values = .array(full.recordedValues.map { .object(JSONObject([("name", .string($0.name)), ("value", $0.json)])) })
                    }
                }
                entry.state = try state(at: index)
                if cancelled { return nil }
                if index > range.lowerBound, source.startsNewSession(at: index) { entry.session = (true, source.stateBefore(index)) }
            } catch {
                throw ExportError(.stateUnavailable, "the state after entry \(source.entryNumber(at: index)) cannot be rebuilt: \(StateUnavailable.reason(of: error))")
            }
            entries.append(entry)
        }
        if let reader {
            for gap in reader.gaps {
                let position = source.entryIndex(ofRecordedLogIndex: gap.beforeEntry) - range.lowerBound
                guard position >= 0, position < entries.count else { continue }
                gaps.append((position, gap, entries[position].number - max(1, gap.droppedCount)))
            }
        }
        if let redaction, !redaction.isEmpty { redact(with: redaction) }
    }

    /// Replaces every secret in states and payloads by its marker.
    private mutating func redact(with redaction: Redaction) {
        startState = startState.map(redaction.redact)
        for index in entries.indices {
            entries[index].state = redaction.redact(entries[index].state)
            entries[index].session.startState = entries[index].session.startState.map(redaction.redact)
            entries[index].action.payload = redaction.redact(entries[index].action.payload)
            // Each value as the recorder redacts it (a redacted value replays as a missing one).
            entries[index].values = entries[index].values?.arrayValue.map { values in
                .array(values.map { value in
                    guard var object = value.objectValue, let inner = object["value"] else { return value }
                    object["value"] = redaction.redact(inner)
                    return .object(object)
                })
            }
        }
        let initial = header?.initialState.map(redaction.redact)
        header?.initialState = initial
        redactionRules = redaction.rules
    }

    /// The state before entry `position` of the slice (0-based within the slice): the one before
    /// it in the slice, except where a new recording session starts (the state it started with).
    func state(before position: Int) -> JSONValue? {
        if position == 0 { return startState }
        return entries[position].session.startsHere ? entries[position].session.startState : entries[position - 1].state
    }

    /// `todo.jsonl`, entries 3–5 of 7.
    var rangeDescription: String {
        guard let first = entries.first, let last = entries.last else { return "no entries" }
        let span = first.number == last.number ? "entry \(first.number)" : "entries \(first.number)–\(last.number)"
        return "\(span) of \(totalCount)"
    }
}
