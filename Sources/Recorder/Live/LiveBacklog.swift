/// Records waiting to be sent to the listener, at most `capacity` bytes, kept
/// so that the listener's copy always reads like a log file: when records must
/// be dropped (the queue is full, or a connection was lost with records in
/// flight), entries are dropped until the next keyframe, and a gap record
/// saying which sequence numbers are missing goes before that keyframe.
///
/// It also counts what the listener's log will lack: the entries its gap records
/// stand for, those dropped while waiting for a keyframe, and (``undeliveredEntries``)
/// those queued or sent but not yet confirmed, so the app's count and the gap records agree.
///
/// Pure bookkeeping, no I/O: `LiveSink` guards it with a lock.
package struct LiveBacklog {
    /// The kinds of record the backlog tells apart (see LogLine's prefixes).
    package enum Kind: Equatable {
        case header
        case entry(sequence: Int64, isKeyframe: Bool)
        case gap(first: Int64, count: Int64)
        case other

        /// The last sequence number the record holds: an entry's, or a gap's last.
        var lastSequence: Int64? {
            switch self {
            case .entry(let sequence, _): sequence
            case .gap(let first, let count): first &+ count &- 1
            case .header, .other: nil
            }
        }
    }

    let capacity: Int
    /// Queued records, back to back.
    private(set) var bytes: [UInt8] = []
    /// Each queued record: its kind, where it ends in `bytes`, how many entries the listener's
    /// log lacks if it never arrives (an entry 1, the writer's own gap its count, a gap this
    /// backlog wrote 0: its entries are counted in `entriesInGaps` already), and whether it is
    /// such a gap.
    private var kinds: [(kind: Kind, end: Int, entries: Int, isOwnGap: Bool)] = []
    /// Records handed to a connection and not yet confirmed: the last sequence number each
    /// holds, the entries it stands for (as in `kinds`), and for a gap this backlog wrote, its count.
    private var unconfirmed: [(last: Int64, entries: Int, ownGapEntries: Int)] = []
    /// The last sequence number the writer produced (an entry's, or the last of its gap); -1 before the first.
    private var writerEnd: Int64 = -1
    /// Entries the gap records this backlog wrote stand for.
    private var entriesInGaps = 0
    /// The session's header: sent first on every connection.
    private(set) var header: [UInt8]?
    /// The last sequence number the listener will hold once everything queued
    /// arrives (as an entry or inside a gap); -1 before the first.
    private(set) var streamEnd: Int64 = -1
    /// Set when an entry was dropped: only a keyframe may follow.
    private(set) var needsKeyframe = false
    /// Entries the listener's log lacks so far: those its gap records (written here) stand
    /// for, and those dropped since, which the gap before the next keyframe will name.
    var droppedEntries: Int { entriesInGaps + (needsKeyframe ? Int(clamping: max(0, writerEnd &- streamEnd)) : 0) }

    /// Entries the listener's log lacks if nothing more arrives: ``droppedEntries`` and the entries
    /// still queued or sent without the listener confirming them (what `close` reports).
    var undeliveredEntries: Int {
        droppedEntries + kinds.reduce(0) { $0 + $1.entries } + unconfirmed.reduce(0) { $0 + $1.entries }
    }

    /// Whether records were sent that the listener has not confirmed yet.
    var awaitsConfirmation: Bool { !unconfirmed.isEmpty }
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
        // What was sent and not confirmed arrived up to `lastSequence`; the rest is lost, and the gap
        // written before the next keyframe names it: a gap of this backlog's among it is counted there again.
        for record in unconfirmed where record.last > streamEnd { entriesInGaps -= record.ownGapEntries }
        unconfirmed.removeAll()
        if let header { append(header, kind: .header) }
        var dropped = false
        var start = 0
        old.withUnsafeBytes { all in
            for queued in oldKinds {
                defer { start = queued.end }
                if queued.kind == .header { continue }
                let record = UnsafeRawBufferPointer(rebasing: all[start..<queued.end])
                if queued.isOwnGap, case .gap(let first, let count) = queued.kind {
                    // Kept while it continues the stream; otherwise the next gap covers its entries again.
                    if first == streamEnd + 1 && !needsKeyframe {
                        append(record, kind: queued.kind, isOwnGap: true)
                        streamEnd = first + count - 1
                    } else {
                        entriesInGaps -= Int(clamping: count)
                        needsKeyframe = true
                        dropped = true
                    }
                    continue
                }
                // Already admitted once: the capacity was checked then.
                if !admit(record, kind: queued.kind, reason: LiveBacklog.connectionLostReason, limited: false) { dropped = true }
            }
        }
        // Records sent on the lost connection never arrived: the next entry must be a keyframe.
        if streamEnd < sentUpTo {
            needsKeyframe = true
            dropped = true
        }
        return dropped
    }

    /// Everything queued, for sending; unconfirmed until ``confirm(upTo:)`` (or ``confirmSent()``).
    /// If it does not arrive, `resume` finds out from the listener.
    mutating func takeAll() -> [UInt8] {
        defer {
            bytes = []
            kinds.removeAll(keepingCapacity: true)
        }
        for record in kinds where record.entries > 0 || record.isOwnGap {
            guard let last = record.kind.lastSequence else { continue }
            let ownGapEntries = if case .gap(_, let count) = record.kind, record.isOwnGap { Int(clamping: count) } else { 0 }
            unconfirmed.append((last, record.entries, ownGapEntries))
        }
        return bytes
    }

    /// The listener says its log holds the session up to `lastSequence`.
    mutating func confirm(upTo lastSequence: Int64) {
        unconfirmed.removeAll { $0.last <= lastSequence }
    }

    /// A listener that does not acknowledge: what was sent on a connection that took it counts as arrived.
    mutating func confirmSent() { unconfirmed.removeAll() }

    private mutating func admit(_ record: UnsafeRawBufferPointer, kind: Kind, reason: String, limited: Bool) -> Bool {
        let room = !limited || bytes.count + record.count <= capacity || kinds.isEmpty
        switch kind {
        case .header:
            header = Array(record)
            streamEnd = -1
            writerEnd = -1
            needsKeyframe = false
            append(record, kind: kind)
        case .entry(let sequence, let isKeyframe):
            if sequence <= streamEnd { return true }  // the listener has it already
            writerEnd = max(writerEnd, sequence)
            let continues = sequence == streamEnd + 1 && !needsKeyframe
            guard room, continues || isKeyframe else {
                needsKeyframe = true
                return false
            }
            if sequence > streamEnd + 1 { appendGap(first: streamEnd + 1, count: sequence - streamEnd - 1, reason: reason) }
            append(record, kind: kind, entries: 1)
            streamEnd = sequence
            needsKeyframe = false
        case .gap(let first, let count):
            writerEnd = max(writerEnd, first &+ count &- 1)
            // The writer's own gap (its queue was full): passed on when it continues the
            // stream, otherwise the gap written before the next keyframe covers it.
            guard room, first == streamEnd + 1, !needsKeyframe else {
                needsKeyframe = true
                return true
            }
            append(record, kind: kind, entries: Int(clamping: count))
            streamEnd = first + count - 1
        case .other:
            if room { append(record, kind: kind) }
        }
        return true
    }

    private mutating func append(_ record: some Collection<UInt8>, kind: Kind, entries: Int = 0, isOwnGap: Bool = false) {
        bytes.append(contentsOf: record)
        kinds.append((kind, bytes.count, entries, isOwnGap))
    }

    private mutating func appendGap(first: Int64, count: Int64, reason: String) {
        var record: [UInt8] = []
        RecordEncoder.appendSealedGap(firstSequence: first, count: count, reason: reason, to: &record)
        append(record, kind: .gap(first: first, count: count), isOwnGap: true)
        entriesInGaps += Int(clamping: count)
    }

    /// Classifies a record by its prefix; sequence numbers are read where the
    /// writer puts them (right after the prefix), else by parsing the record.
    package static func kind(of record: UnsafeRawBufferPointer) -> Kind {
        if LogLine.hasPrefix(record, LogLine.headerPrefix) { return .header }
        if LogLine.hasPrefix(record, LogLine.patchEntryPrefix) {
            // An entry holding a patch opens with its `seq` (format 3).
            let sequence = integer(after: LogLine.patchEntryPrefix, at: 0, in: record) ?? parsedMember(.sequence, of: record)
            guard let sequence else { return .other }
            return .entry(sequence: sequence, isKeyframe: false)
        }
        if LogLine.hasPrefix(record, LogLine.entryPrefix) {
            let isKeyframe = LogLine.hasPrefix(record, LogLine.keyframePrefix)
            let after = isKeyframe ? LogLine.keyframePrefix.count : LogLine.entryPrefix.count
            let sequence = integer(after: RecordField.sequence.memberPrefix, at: after, in: record) ?? parsedMember(.sequence, of: record)
            guard let sequence else { return .other }
            return .entry(sequence: sequence, isKeyframe: isKeyframe)
        }
        if LogLine.hasPrefix(record, LogLine.gapPrefix) {
            let first = integer(after: RecordField.firstSequence.memberPrefix, at: LogLine.gapPrefix.count, in: record) ?? parsedMember(.firstSequence, of: record)
            guard let first, let count = parsedMember(.dropped, of: record) else { return .other }
            return .gap(first: first, count: count)
        }
        return .other
    }

    /// The integer after `markerBytes` (a member's `,"key":`) when they are at `offset`, where the writer puts them.
    private static func integer(after markerBytes: [UInt8], at offset: Int, in record: UnsafeRawBufferPointer) -> Int64? {
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
