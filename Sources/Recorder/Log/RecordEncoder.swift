import Foundation

/// One entry record's contents, ready to be written: numbers and names as
/// values, the payload, state and patch as the compact JSON bytes the writer
/// already has (the recorder's byte encoder, or ``JSONWriter`` for ``LogBuilder``).
package struct EntryRecordContent {
    /// A keyframe holds the whole state; any other entry a patch from the previous one.
    package enum Body {
        /// The state, and the paths the action changed (`[""]`: everything, no previous state),
        /// each as the contents of a JSON string (escaped, without its quotes).
        case keyframe(state: UnsafeBufferPointer<UInt8>, changed: [ArraySlice<UInt8>])
        /// An RFC 6902 patch from the previous entry's state, as a JSON array.
        case patch(UnsafeBufferPointer<UInt8>)
    }

    package var sequence: Int64
    /// Seconds since 1970 (written rounded, as ``LogTime/rounded(_:)``).
    package var time: Double
    package var durationNanoseconds: UInt64
    package var actionType: String
    /// Compact JSON.
    package var payload: UnsafeBufferPointer<UInt8>
    package var isReplayable: Bool
    package var effectOf: Int64?
    /// `values` and `trace`, when the entry has them.
    package var values: JSONValue?
    package var trace: JSONValue?
    /// Where the payload holds `Date`s (`payloadDates`, written when there are any).
    package var payloadDatePaths: [String] = []
    package var body: Body
    /// Members only some writers know (an import's `skipped`, `reducerError`), each where ``RecordField/entryOrder`` puts it.
    package var extra: [(RecordField, JSONValue)] = []

    package init(
        sequence: Int64, time: Double, durationNanoseconds: UInt64, actionType: String,
        payload: UnsafeBufferPointer<UInt8>, isReplayable: Bool, effectOf: Int64?,
        values: JSONValue? = nil, trace: JSONValue? = nil, body: Body
    ) {
        self.sequence = sequence
        self.time = time
        self.durationNanoseconds = durationNanoseconds
        self.actionType = actionType
        self.payload = payload
        self.isReplayable = isReplayable
        self.effectOf = effectOf
        self.values = values
        self.trace = trace
        self.body = body
    }

    package var isKeyframe: Bool {
        if case .keyframe = body { return true }
        return false
    }
}

/// Writes entry and gap records (docs/FORMAT.md): the one encoder of their
/// members, in one order, for the recorder's writer, ``LogBuilder`` and the
/// live stream's backlog, so no two writers' records differ. Framing (`"n"`,
/// `"crc"`) is ``LogLine``'s.
///
/// One encoder per writer: numbers and strings are written into its scratch
/// buffer first (``JSONWriter``'s `append…` helpers make a buffer per call).
package final class RecordEncoder {
    private let scratch = _ByteBuffer(capacity: 256)
    /// The `created` of the last header this encoder wrote (rounded as written), in
    /// microseconds since 1970: entries that hold a patch write their time after it (`t`).
    /// Nil until a header is written; such entries then write `time` as keyframes do.
    private var sessionStartMicroseconds: Int64?

    package init() {}

    /// Appends an entry record's members, without its seal; returns where the record starts.
    ///
    /// In ``RecordField/entryOrder``: a keyframe `{"kind":"entry","keyframe":true,"seq":…,"time":…,"durationNs":…,
    /// "action":{"type":…,"payload":…[,"replayable":false]}[,"effectOf":…][,"values":…][,"trace":…][,"payloadDates":[…]]`
    /// then `,"changed":[…],"state":…`; any other entry `{"seq":…,"t":…,"durationNs":…,` the same members, then
    /// `,"patch":[…]`; then any extra members.
    @discardableResult
    package func appendEntryMembers(_ entry: EntryRecordContent, to buffer: inout [UInt8]) -> Int {
        let start = buffer.count
        let sinceStart = timeSinceStart(of: entry)
        for field in RecordField.entryOrder {
            append(field, of: entry, timeSinceStart: sinceStart, to: &buffer)
        }
        return start
    }

    /// One member of an entry record, when the entry has it; `timeSinceStart` is the entry's
    /// `t` (``timeSinceStart(of:)``), nil where it writes `time`.
    private func append(_ field: RecordField, of entry: EntryRecordContent, timeSinceStart: Int64?, to buffer: inout [UInt8]) {
        switch field {
        case .kind:
            // A keyframe's kind and flag, which the index reads from the prefix. An entry that
            // holds a patch goes without its kind: its `seq` opens it (`LogLine.Kind.patchEntry`).
            if entry.isKeyframe { buffer.append(contentsOf: LogLine.keyframePrefix) }
        case .keyframe, .number, .checksum, .firstSequence, .dropped, .reason:
            // In the prefix above, the framing ``LogLine`` seals with, or a gap's.
            break
        case .sequence:
            buffer.append(contentsOf: entry.isKeyframe ? field.memberPrefix : LogLine.patchEntryPrefix)
            append(&buffer) { JSONWriter.writeInt64(entry.sequence, to: $0) }
        case .time:
            // Seconds since 1970 where a reader before format 3 reads the record (keyframes).
            guard timeSinceStart == nil else { return }
            buffer.append(contentsOf: field.memberPrefix)
            append(&buffer) { JSONWriter.writeDouble(LogTime.rounded(entry.time), to: $0) }
        case .timeSinceStart:
            guard let microseconds = timeSinceStart else { return }
            buffer.append(contentsOf: field.memberPrefix)
            append(&buffer) { JSONWriter.writeInt64(microseconds, to: $0) }
        case .durationNanoseconds:
            buffer.append(contentsOf: field.memberPrefix)
            append(&buffer) { JSONWriter.writeUInt64(entry.durationNanoseconds, to: $0) }
        case .action:
            buffer.append(contentsOf: field.memberPrefix)
            for member in ActionField.allCases {
                // Replayable is the usual case and the default: only the exception is written.
                if member == .replayable && entry.isReplayable { continue }
                buffer.append(contentsOf: member == .type ? Self.actionTypePrefix : member.memberPrefix)
                switch member {
                case .type: append(&buffer) { JSONWriter.writeString(entry.actionType, to: $0) }
                case .payload: buffer.append(contentsOf: entry.payload)
                case .replayable: buffer.append(contentsOf: "false".utf8)
                }
            }
            buffer.append(UInt8(ascii: "}"))
        case .effectOf:
            guard let origin = entry.effectOf else { return }
            buffer.append(contentsOf: field.memberPrefix)
            append(&buffer) { JSONWriter.writeInt64(origin, to: $0) }
        case .values, .trace:
            guard let value = field == .values ? entry.values : entry.trace else { return }
            buffer.append(contentsOf: field.memberPrefix)
            append(&buffer) { JSONWriter.write(value, to: $0) }
        case .payloadDates:
            guard !entry.payloadDatePaths.isEmpty else { return }
            buffer.append(contentsOf: field.memberPrefix)
            append(&buffer) { JSONWriter.write(.array(entry.payloadDatePaths.map(JSONValue.string)), to: $0) }
        case .changed:
            guard case .keyframe(_, let changed) = entry.body else { return }
            buffer.append(contentsOf: field.memberPrefix)
            buffer.append(UInt8(ascii: "["))
            for (index, path) in changed.enumerated() {
                if index > 0 { buffer.append(UInt8(ascii: ",")) }
                buffer.append(UInt8(ascii: "\""))
                buffer.append(contentsOf: path)
                buffer.append(UInt8(ascii: "\""))
            }
            buffer.append(UInt8(ascii: "]"))
        case .state:
            guard case .keyframe(let state, _) = entry.body else { return }
            buffer.append(contentsOf: field.memberPrefix)
            buffer.append(contentsOf: state)
        case .patch:
            guard case .patch(let patch) = entry.body else { return }
            buffer.append(contentsOf: field.memberPrefix)
            buffer.append(contentsOf: patch)
        case .skipped, .reducerError:
            // Members only some writers know (an import's), each where the order puts it.
            for (extra, value) in entry.extra where extra == field {
                buffer.append(contentsOf: field.memberPrefix)
                append(&buffer) { JSONWriter.write(value, to: $0) }
            }
        }
    }

    /// An entry's `t`: microseconds from its session's start (the header's `created`) to its
    /// time, for an entry that holds a patch once a header is written; nil means `time`.
    private func timeSinceStart(of entry: EntryRecordContent) -> Int64? {
        guard !entry.isKeyframe, let start = sessionStartMicroseconds else { return nil }
        let (microseconds, overflow) = LogTime.microseconds(entry.time).subtractingReportingOverflow(start)
        return overflow ? nil : microseconds
    }

    /// Appends a header record's members without its seal; returns where the record starts.
    /// `initialState`, when given, is written as the compact JSON it is (the header's own
    /// `initialState` is then nil); `omittedBecause` says why an initial state is missing.
    @discardableResult
    package func appendHeaderMembers(
        _ header: LogHeader, initialState: UnsafeBufferPointer<UInt8>? = nil, omittedBecause: String? = nil,
        to buffer: inout [UInt8]
    ) -> Int {
        let start = buffer.count
        sessionStartMicroseconds = LogTime.microseconds(header.created.timeIntervalSince1970)
        buffer.append(contentsOf: LogLine.headerPrefix)
        for (key, value) in header.jsonObject.members {
            buffer.append(UInt8(ascii: ","))
            append(&buffer) { JSONWriter.writeMemberKey(key, afterComma: false, to: $0) }
            append(&buffer) { JSONWriter.write(value, to: $0) }
        }
        if let initialState {
            buffer.append(contentsOf: Self.initialStatePrefix)
            buffer.append(contentsOf: initialState)
        }
        if let omittedBecause {
            buffer.append(contentsOf: Self.initialStateOmittedPrefix)
            append(&buffer) { JSONWriter.writeString(omittedBecause, to: $0) }
        }
        return start
    }

    /// Appends a gap record's members (docs/FORMAT.md, "Gap") without its seal: `count`
    /// entries from `firstSequence` are missing, and `reason` says why.
    @discardableResult
    package func appendGapMembers(firstSequence: Int64, count: Int64, reason: String, to buffer: inout [UInt8]) -> Int {
        let start = buffer.count
        buffer.append(contentsOf: LogLine.gapPrefix)
        buffer.append(contentsOf: RecordField.firstSequence.memberPrefix)
        append(&buffer) { JSONWriter.writeInt64(firstSequence, to: $0) }
        buffer.append(contentsOf: RecordField.dropped.memberPrefix)
        append(&buffer) { JSONWriter.writeInt64(count, to: $0) }
        buffer.append(contentsOf: RecordField.reason.memberPrefix)
        append(&buffer) { JSONWriter.writeString(reason, to: $0) }
        return start
    }

    /// Appends a sealed, unchained gap record: what a live stream adds for entries it dropped
    /// (the listener seals what it stores in its own chain).
    package static func appendSealedGap(firstSequence: Int64, count: Int64, reason: String, to buffer: inout [UInt8]) {
        let start = RecordEncoder().appendGapMembers(firstSequence: firstSequence, count: count, reason: reason, to: &buffer)
        LogLine.seal(&buffer, recordStart: start)
    }

    private func append(_ buffer: inout [UInt8], _ write: (_ByteBuffer) -> Void) {
        scratch.removeAll(keepingCapacityUpTo: 4096)
        write(scratch)
        buffer.append(contentsOf: UnsafeBufferPointer(start: scratch.base, count: scratch.count))
    }

    private static let initialStatePrefix = Array(#","initialState":"#.utf8)
    private static let initialStateOmittedPrefix = Array(#","initialStateOmitted":"#.utf8)
    /// `{"type":`: the action object's first member opens it.
    private static let actionTypePrefix = Array("{\"\(ActionField.type.name)\":".utf8)
}
