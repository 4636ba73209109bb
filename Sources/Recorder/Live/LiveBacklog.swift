/// Records waiting to be sent to the listener, at most `capacity` bytes, kept
/// so that the listener's copy always reads like a log file: when records must
/// be dropped (the queue is full, or a connection was lost with records in
/// flight), entries are dropped until the next keyframe, and a gap record
/// saying which sequence numbers are missing goes before that keyframe.
///
/// Pure bookkeeping, no I/O: `LiveSink` guards it with a lock.
package struct LiveBacklog {
    /// The kinds of record the backlog tells apart (see LogLine's prefixes).
    package enum Kind: Equatable {
        case header
        case entry(sequence: Int64, isKeyframe: Bool)
        case gap(first: Int64, count: Int64)
        case other
    }

    let capacity: Int
    /// Queued records, back to back.
    private(set) var bytes: [UInt8] = []
    private var kinds: [(kind: Kind, end: Int)] = []
    /// The session's header: sent first on every connection.
    private(set) var header: [UInt8]?
    /// The last sequence number the listener will hold once everything queued
    /// arrives (as an entry or inside a gap); -1 before the first.
    private(set) var streamEnd: Int64 = -1
    /// Set when an entry was dropped: only a keyframe may follow.
    private(set) var needsKeyframe = false
    /// Entries dropped so far, in total.
    private(set) var droppedEntries = 0
    /// Records queued since the last `takeAll`, for waiters.
    var isEmpty: Bool { kinds.isEmpty }

    static let queueFullReason = "live stream queue full"
    static let connectionLostReason = "live connection lost"

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Queues what the writer produced (whole records); returns true when an
    /// entry was dropped and the writer should make its next entry a keyframe.
    mutating func admit(_ batch: [UInt8]) -> Bool {
        var dropped = false
        var start = 0
        batch.withUnsafeBytes { all in
            while start < all.count {
                let end = all[start...].firstIndex(of: 0x0A).map { $0 + 1 } ?? all.count
                let record = UnsafeRawBufferPointer(rebasing: all[start..<end])
                if !admit(record, kind: LiveBacklog.kind(of: record), reason: LiveBacklog.queueFullReason, limited: true) {
                    dropped = true
                }
                start = end
            }
        }
        return dropped
    }

    /// After (re)connecting: the listener holds the session up to `lastSequence`
    /// (nil: nothing of it). Requeues the header first, then what is still
    /// queued from there; returns true when entries had to be dropped.
    mutating func resume(listenerHolds lastSequence: Int64?) -> Bool {
        let old = bytes
        let oldKinds = kinds
        let sentUpTo = streamEnd
        bytes.removeAll(keepingCapacity: true)
        kinds.removeAll(keepingCapacity: true)
        streamEnd = lastSequence ?? -1
        needsKeyframe = false
        if let header { append(header, kind: .header) }
        var dropped = false
        var start = 0
        old.withUnsafeBytes { all in
            for (kind, end) in oldKinds {
                defer { start = end }
                if kind == .header { continue }
                let record = UnsafeRawBufferPointer(rebasing: all[start..<end])
                // Already admitted once: the capacity was checked then.
                if !admit(record, kind: kind, reason: LiveBacklog.connectionLostReason, limited: false) { dropped = true }
            }
        }
        // Records sent on the lost connection never arrived: the next entry must be a keyframe.
        if streamEnd < sentUpTo {
            needsKeyframe = true
            dropped = true
        }
        return dropped
    }

    /// Everything queued, for sending; if it does not arrive, `resume` finds out from the listener.
    mutating func takeAll() -> [UInt8] {
        defer {
            bytes = []
            kinds.removeAll(keepingCapacity: true)
        }
        return bytes
    }

    private mutating func admit(_ record: UnsafeRawBufferPointer, kind: Kind, reason: String, limited: Bool) -> Bool {
        let room = !limited || bytes.count + record.count <= capacity || kinds.isEmpty
        switch kind {
        case .header:
            header = Array(record)
            streamEnd = -1
            needsKeyframe = false
            append(record, kind: kind)
        case .entry(let sequence, let isKeyframe):
            if sequence <= streamEnd { return true }  // the listener has it already
            let continues = sequence == streamEnd + 1 && !needsKeyframe
            guard room, continues || isKeyframe else {
                needsKeyframe = true
                droppedEntries += 1
                return false
            }
            if sequence > streamEnd + 1 { appendGap(first: streamEnd + 1, count: sequence - streamEnd - 1, reason: reason) }
            append(record, kind: kind)
            streamEnd = sequence
            needsKeyframe = false
        case .gap(let first, let count):
            // The writer's own gap (its queue was full): passed on when it continues the
            // stream, otherwise the gap written before the next keyframe covers it.
            guard room, first == streamEnd + 1, !needsKeyframe else {
                needsKeyframe = true
                return true
            }
            append(record, kind: kind)
            streamEnd = first + count - 1
        case .other:
            if room { append(record, kind: kind) }
        }
        return true
    }

    private mutating func append(_ record: some Collection<UInt8>, kind: Kind) {
        bytes.append(contentsOf: record)
        kinds.append((kind, bytes.count))
    }

    private mutating func appendGap(first: Int64, count: Int64, reason: String) {
        var record: [UInt8] = []
        RecordEncoder.appendSealedGap(firstSequence: first, count: count, reason: reason, to: &record)
        append(record, kind: .gap(first: first, count: count))
    }

    /// Classifies a record by its prefix; sequence numbers are read where the
    /// writer puts them (right after the prefix), else by parsing the record.
    package static func kind(of record: UnsafeRawBufferPointer) -> Kind {
        if LogLine.hasPrefix(record, LogLine.headerPrefix) { return .header }
        if LogLine.hasPrefix(record, LogLine.entryPrefix) {
            let isKeyframe = LogLine.hasPrefix(record, LogLine.keyframePrefix)
            let after = isKeyframe ? LogLine.keyframePrefix.count : LogLine.entryPrefix.count
            let sequence = integer(after: RecordField.sequence, at: after, in: record) ?? parsedMember(.sequence, of: record)
            guard let sequence else { return .other }
            return .entry(sequence: sequence, isKeyframe: isKeyframe)
        }
        if LogLine.hasPrefix(record, LogLine.gapPrefix) {
            let first = integer(after: .firstSequence, at: LogLine.gapPrefix.count, in: record) ?? parsedMember(.firstSequence, of: record)
            guard let first, let count = parsedMember(.dropped, of: record) else { return .other }
            return .gap(first: first, count: count)
        }
        return .other
    }

    /// The integer of member `field` when it is written at `offset`, where the writer puts it.
    private static func integer(after field: RecordField, at offset: Int, in record: UnsafeRawBufferPointer) -> Int64? {
        let markerBytes = field.memberPrefix
        guard record.count > offset + markerBytes.count,
              record[offset..<(offset + markerBytes.count)].elementsEqual(markerBytes) else { return nil }
        var value: Int64 = 0
        var index = offset + markerBytes.count
        let digitsStart = index
        while index < record.count, (48...57).contains(record[index]), index - digitsStart < 18 {
            value = value * 10 + Int64(record[index] - 48)
            index += 1
        }
        // Longer numbers (and a sign, a fraction, an exponent) are read by the parser, which knows what fits.
        guard index > digitsStart, index < record.count, record[index] == UInt8(ascii: ",") || record[index] == UInt8(ascii: "}") else { return nil }
        return value
    }

    private static func parsedMember(_ field: RecordField, of record: UnsafeRawBufferPointer) -> Int64? {
        let line = record.last == 0x0A ? UnsafeRawBufferPointer(rebasing: record.dropLast()) : record
        return (try? JSONParser.parse(line))?[field.name]?.int64Value
    }
}
