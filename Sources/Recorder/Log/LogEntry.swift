import Foundation

/// One recorded reducer call: the action and what it changed.
///
/// ```swift
/// let entry = try reader.entry(at: 3)
/// print(entry.action.name, entry.changedPaths.map(\.description))   // primary.brakeTapped ["/primary/speed"]
/// ```
public struct LogEntry: Sendable, Equatable {
    /// Position among the readable entries of the log, from 0.
    public var index: Int
    /// One-based line number in the file.
    public var lineNumber: Int
    /// The recorder's sequence number: the order in which the reducer ran, from 0 in each session.
    public var sequence: Int64
    /// Wall-clock time when the reducer returned.
    public var time: Date
    /// How long the reducer took, in seconds.
    public var duration: Double
    /// The action the reducer ran: its case path, payload and whether it replays.
    public var action: Action
    /// When an effect sent this action: the sequence number of the entry whose effect it was.
    public var effectOf: Int64?
    /// True when the record holds the whole state rather than a patch.
    public var isKeyframe: Bool
    /// The JSON Pointers the action changed (the patch's paths).
    public var changedPaths: [JSONPointer]
    /// The outside values the reducer read through ``Recorded`` (`values`), in order;
    /// replay hands them back. Empty in logs written before they were recorded.
    public var recordedValues: [Recorded.Value] = []
    /// Where the action was dispatched (`trace`), when the recorder knew it.
    public var trace: EntryTrace?
}

extension LogEntry {
    /// An action as recorded: its case path, its payload and whether it can be decoded back.
    public struct Action: Sendable, Equatable {
        /// The enum case path, `primary.brakeTapped` for `.primary(.brakeTapped)`, or the type name
        /// for struct actions.
        public var name: String
        /// The action as JSON (its `Codable` encoding, or a reflection dump).
        public var payload: JSONValue
        /// True when the action was encoded with `Codable` and can be decoded for replay.
        public var isReplayable: Bool
        /// Where the payload holds `Date`s (seconds since 2001, `Date`'s `Codable` default), as
        /// JSON Pointer patterns with `*` for any array index or dictionary key: `["/tick/_0"]`.
        public var datePaths: [String] = []
    }
}

/// An entry record, read member by member: the state of a keyframe is only
/// delimited here and parsed when a state is asked for.
package struct ParsedEntry {
    package var entry: LogEntry
    /// Where the whole state is in the line, for keyframes.
    package var stateRange: Range<Int>?
    /// Patch from the previous entry's state otherwise.
    package var patch: JSONPatch?

    /// Reads the entry `line`; `sessionStart` (its session header's `created`) dates an entry
    /// that gives its time as `t` (format 3), nil for a reader that does not use ``LogEntry/time``.
    package init(line: UnsafeBufferPointer<UInt8>, index: Int, lineNumber: Int, sessionStart: Date?) throws(LogRecordError) {
        try self.init(record: try EntryRecord(line), index: index, lineNumber: lineNumber, sessionStart: sessionStart)
    }

    /// Reads a keyframe from `head`, the first bytes of its line, when its members up to the
    /// state are all there (Rewind's writers put every member an entry has before it,
    /// ``RecordField/entryOrder``): the same entry as the whole line gives, without reading the
    /// state. Nil when the head does not reach a state (a patch, or a head longer than `head`).
    /// The line's checksum was checked when it was indexed; what follows the state is not looked at.
    package init?(head: UnsafeBufferPointer<UInt8>, index: Int, lineNumber: Int, sessionStart: Date?) throws(LogRecordError) {
        guard let record = EntryRecord(head: head) else { return nil }
        try self.init(record: record, index: index, lineNumber: lineNumber, sessionStart: sessionStart)
    }

    private init(record: EntryRecord, index: Int, lineNumber: Int, sessionStart: Date?) throws(LogRecordError) {
        let (sequence, action) = try record.sequenceAndAction()
        var changedPaths: [JSONPointer] = []
        if let state = record.member(.state) {
            stateRange = state
            changedPaths = try record.keyframeChangedPaths()
        } else if let patchValue = try record.value(.patch) {
            do {
                let patch = try JSONPatch(jsonValue: patchValue)
                self.patch = patch
                changedPaths = patch.operations.map(\.path)
            } catch {
                throw LogRecordError("entry patch is not a valid JSON Patch: \(error)")
            }
        } else {
            throw EntryRecord.neitherStateNorPatch
        }
        let timing = try record.timing(sessionStart: sessionStart)
        entry = LogEntry(
            index: index, lineNumber: lineNumber, sequence: sequence,
            time: timing.time, duration: timing.duration, action: action, effectOf: timing.effectOf,
            isKeyframe: stateRange != nil, changedPaths: changedPaths)
        // Optional members: unreadable ones are ignored, so they never make an entry unreadable
        // (ScannedEntry, which skips them, must agree on what is readable).
        entry.recordedValues = Recorded.Value.read(try? record.value(.values))
        entry.trace = EntryTrace.read(try? record.value(.trace))
    }
}

/// What rebuilding a state needs of an entry record, and nothing else: where
/// its whole state or its patch is in the line. (The rebuild then parses all
/// the patches of a chain in one go: each parse costs a parser's set-up, and
/// a rebuild reads hundreds of patch records.)
package enum StateStep {
    case keyframe(stateRange: Range<Int>)
    case patch(range: Range<Int>)

    /// Finds a keyframe's state without skipping over it: writers put `state`
    /// last, just before the record's framing, so its value is taken to run up
    /// to there (skipping a large state costs about a third of parsing it).
    /// If that range does not parse (a record with members after its state), the
    /// caller reads the record again with `exactly: true`, which delimits every member.
    package init(line: UnsafeBufferPointer<UInt8>, exactly: Bool = false) throws(LogRecordError) {
        if !exactly, let members = RecordScanner.members(line, stoppingAt: .state) {
            if let last = members.last, last.field == .state,
               let end = LogLine.membersEnd(UnsafeRawBufferPointer(line)), end > last.value.lowerBound {
                self = .keyframe(stateRange: last.value.lowerBound..<end)
                return
            }
            // No state: the scan went through every member.
            if let patch = members.first(where: { $0.field == .patch }) {
                self = .patch(range: patch.value)
                return
            }
        }
        let record = try EntryRecord(line)
        if let state = record.member(.state) {
            self = .keyframe(stateRange: state)
        } else if let patch = record.member(.patch) {
            self = .patch(range: patch)
        } else {
            throw EntryRecord.neitherStateNorPatch
        }
    }
}

/// The top-level members of an entry line, each parsed only when read. What
/// makes an entry readable is checked here, once for ``ParsedEntry`` and the
/// lighter ``ScannedEntry`` alike.
package struct EntryRecord {
    let line: UnsafeBufferPointer<UInt8>
    /// Where each known field's value is, by ``RecordField/rawValue`` (the first
    /// of a repeated member, as a JSON parser keeping the first would read it).
    private var ranges: [Range<Int>?]

    static let neitherStateNorPatch = LogRecordError("entry has neither \"state\" nor \"patch\"")

    init(_ line: UnsafeBufferPointer<UInt8>) throws(LogRecordError) {
        guard let members = RecordScanner.members(line) else { throw LogRecordError("the record is not a JSON object") }
        self.init(line, members: members)
    }

    /// The members of a line up to its state, from `head`, the line's first bytes; nil unless a
    /// state starts within them (the state's range then runs to the end of `head`).
    init?(head: UnsafeBufferPointer<UInt8>) {
        guard let members = RecordScanner.members(head, stoppingAt: .state), members.last?.field == .state else { return nil }
        self.init(head, members: members)
    }

    private init(_ line: UnsafeBufferPointer<UInt8>, members: [RecordScanner.Member]) {
        self.line = line
        ranges = Array(repeating: nil, count: RecordField.allCases.count)
        for member in members {
            guard let field = member.field, ranges[field.rawValue] == nil else { continue }
            ranges[field.rawValue] = member.value
        }
    }

    /// Where `field`'s value is in the line.
    func member(_ field: RecordField) -> Range<Int>? { ranges[field.rawValue] }

    func value(_ field: RecordField) throws(LogRecordError) -> JSONValue? {
        guard let range = member(field) else { return nil }
        do {
            return try JSONParser.parse(buffer: UnsafeBufferPointer(rebasing: line[range]))
        } catch {
            throw LogRecordError("member \"\(field.name)\": \(error)")
        }
    }

    /// `seq` and `action`, which every entry has.
    func sequenceAndAction() throws(LogRecordError) -> (Int64, LogEntry.Action) {
        guard let sequence = try value(.sequence)?.int64Value else { throw LogRecordError("entry has no \"seq\"") }
        guard let action = try value(.action), let name = action[ActionField.type.name]?.stringValue else {
            throw LogRecordError("entry has no \"action\" with a \"type\"")
        }
        let datePaths = (try? value(.payloadDates))?.arrayValue?.compactMap(\.stringValue) ?? []
        // Absent is replayable: writers leave out the usual `true` (older ones wrote it always).
        let isReplayable = action[ActionField.replayable.name].map { $0.boolValue == true } ?? true
        return (sequence, LogEntry.Action(name: name, payload: action[ActionField.payload.name] ?? .null,
                                         isReplayable: isReplayable, datePaths: datePaths))
    }

    /// A keyframe's `changed` member (paths that are not JSON Pointers are left out).
    func keyframeChangedPaths() throws(LogRecordError) -> [JSONPointer] {
        Self.pointers(in: try value(.changed))
    }

    /// The JSON Pointers in a keyframe's `changed` array.
    package static func pointers(in changed: JSONValue?) -> [JSONPointer] {
        var paths: [JSONPointer] = []
        for path in changed?.arrayValue ?? [] {
            if let text = path.stringValue, let pointer = try? JSONPointer(parsing: text) { paths.append(pointer) }
        }
        return paths
    }

    /// The entry's time (`time`, or `t` microseconds after `sessionStart`, its session
    /// header's `created`), duration and `effectOf`.
    func timing(sessionStart: Date?) throws(LogRecordError) -> (time: Date, duration: Double, effectOf: Int64?) {
        var seconds = try value(.time)?.doubleValue
        if seconds == nil, let sinceStart = try value(.timeSinceStart), let sessionStart {
            let microseconds = sinceStart.int64Value ?? Int64(saturating: sinceStart.doubleValue ?? 0)
            seconds = LogTime.time(microseconds: microseconds, after: sessionStart.timeIntervalSince1970)
        }
        return (Date(timeIntervalSince1970: seconds ?? 0),
                Double(try value(.durationNanoseconds)?.int64Value ?? 0) / 1e9,
                try value(.effectOf)?.int64Value)
    }
}
