import Foundation

/// The writer thread's half of a recorder: encodes queued entries, diffs each
/// state against the previous one by their bytes, and appends records to the log.
/// Used by one thread only.
///
/// Each state is encoded once, by the byte encoder, into one of two encoders
/// that take turns: one holds the previous state's bytes and structural index
/// while the other writes the new state, so the diff (``_ByteDiff``) compares
/// the two without copying or parsing either.
final class LogWriter {
    private let appender: any RecordSink
    /// Told each entry's encoded size as soon as the entry is let go of (its memory bound).
    private let queue: RecordingQueue
    private let options: ActionRecorder.Options
    private let clockBase: (wall: Double, nanoseconds: UInt64)
    private let keyframePolicy: KeyframePolicy

    private var headerWritten = false
    /// The encoder holding the previous entry's state (nil before the first, and after a skipped one).
    private var previous: _StreamingEncoder?
    /// The encoder the next state is written into.
    private var spare = _StreamingEncoder()
    private var keyframeCost = KeyframePolicy.Cost()
    private var forceKeyframe = true
    private var lastSync: UInt64 = 0
    private var buffer: [UInt8] = []
    /// Numbers this session's records and binds them to its header (see ``LogChain``).
    private var chain = LogChain()
    /// Writes the records' members (the one definition every writer uses).
    private let records = RecordEncoder()
    /// Whether a value over a log limit has been reported through `onError` (once).
    private var reportedSkippedEntry = false

    /// Keyframes list at most this many changed paths; more are coarsened to their top-level ancestors.
    static let maximumChangedPaths = 64

    init(appender: any RecordSink, queue: RecordingQueue, options: ActionRecorder.Options) {
        self.appender = appender
        self.queue = queue
        self.options = options
        keyframePolicy = KeyframePolicy(maximumInterval: max(1, options.keyframeInterval), byCost: options.keyframesByCost)
        clockBase = (options.clock.now(), options.clock.nanoseconds())
        prepare(spare)
    }

    /// Whether states reuse the bytes of the parts unchanged since the previous one
    /// (redaction rewrites each state from a tree, so there is nothing to reuse then).
    private var reusesUnchangedValues: Bool {
        options.reusesUnchangedValues && (options.redaction?.isEmpty ?? true)
    }

    private func prepare(_ encoder: _StreamingEncoder) {
        encoder.indexing = true
        encoder.keepsValueCopies = reusesUnchangedValues
    }

    /// Encodes and writes one batch with one `write()` (or one per record when
    /// durability asks for it).
    func write(_ batch: consuming [QueueItem]) throws(RecorderError) {
        buffer.removeAll(keepingCapacity: true)
        // A live stream that dropped entries resumes at a keyframe.
        if appender.takeKeyframeRequest() { forceKeyframe = true }
        // Each entry is let go of as soon as it is encoded, not with the whole batch: the
        // copies it holds are what the queue's memory bound counts.
        var batch = batch
        batch.reverse()
        while let item = batch.popLast() {
            switch item {
            case .entry(let entry):
                if !headerWritten { appendHeader(first: entry) }
                let stateBytes = appendEntry(entry)
                queue.entryEncoded(stateBytes: stateBytes)
            case .gap(let first, let count, let cause):
                if !headerWritten { continue }
                appendGap(firstSequence: first, count: count, reason: queueGapReason(cause))
            }
            if options.durability == .fsyncEachRecord {
                try appender.write(buffer)
                try appender.synchronize()
                buffer.removeAll(keepingCapacity: true)
            }
        }
        if !buffer.isEmpty { try appender.write(buffer) }
        // A listener that refused the stream stops recording (a file checks itself as it writes).
        try appender.checkStillLinked()
        if case .fsync(let interval) = options.durability {
            let now = options.clock.nanoseconds()
            if Double(now &- lastSync) / 1e9 >= interval {
                try appender.synchronize()
                lastSync = now
            }
        }
        if buffer.capacity > 1 << 24 { buffer = [] }
    }

    /// At close: a log that recorded nothing still gets its header; durable modes sync.
    func finish() throws(RecorderError) {
        if !headerWritten {
            buffer.removeAll()
            appendHeader(first: nil)
            try appender.write(buffer)
        }
        if options.durability != .write { try appender.synchronize() }
    }

    /// Closes the log file (and releases its lock); nothing is written after this.
    func closeFile() { appender.closeFile() }

    // MARK: States

    /// Encodes a state (or takes the one the caller's thread encoded) into
    /// `encoder`, redacted; returns whether it decodes back, or why it cannot be recorded
    /// (what follows the state's name: `is 70 MB encoded; …`).
    private func encodeState(_ value: Any, preEncoded: EncodedDocument?, into encoder: _StreamingEncoder) -> (replayable: Bool, problem: String?) {
        var outcome: (replayable: Bool, problem: String?)
        if encoder.count > 0 || !encoder.nodes.isEmpty { encoder.prepareForNextDocument(keepingCapacityUpTo: 64 << 20) }
        if let preEncoded {
            preEncoded.bytes.withUnsafeBufferPointer { encoder.append($0) }
            encoder.nodes.removeAll()
            for node in preEncoded.nodes { encoder.nodes.push(node) }
            encoder.deepestNesting = preEncoded.deepestNesting
            outcome = (preEncoded.replayable, preEncoded.problem)
        } else {
            if reusesUnchangedValues { encoder.reusingUnchangedValues(from: previous) }
            outcome = RecordedValue.encodeIndexed(value, into: encoder)
        }
        if outcome.problem == nil, let redaction = options.redaction, !redaction.isEmpty,
            let tree = try? JSONParser.parse(UnsafeBufferPointer(start: encoder.base, count: encoder.count))
        {
            encoder.resetAfterFailure()
            RecordedValue.writeIndexed(redaction.redact(tree), into: encoder)
        }
        if outcome.problem == nil { outcome.problem = LogLimits.problem(bytes: encoder.count, nesting: encoder.deepestNesting) }
        return outcome
    }

    /// Where a state holds `Date`s, for the header (one extra encode per session; values
    /// that reach class instances are encoded on the caller's thread and not looked at).
    private func datePaths(in state: Any) -> [String] {
        guard let encodable = state as? any Encodable else { return [] }
        let encoder = _StreamingEncoder()
        encoder.collectsDatePaths = true
        func encode<T: Encodable>(_ value: T) { try? encoder.encodeTopLevel(value) }
        encode(encodable)
        return encoder.datePaths.sorted()
    }

    // MARK: Records

    private func appendHeader(first entry: PendingEntry?) {
        var replayable = false
        var initialState: _StreamingEncoder?
        var initialStateProblem: String?
        var datePaths: [String] = []
        if let entry, entry.encodedState == nil {
            datePaths = self.datePaths(in: entry.initialState ?? entry.state)
        }
        if let entry, let initialValue = entry.initialState {
            let encoder = spare
            let outcome = encodeState(initialValue, preEncoded: entry.encodedInitialState, into: encoder)
            // The queue's memory bound has an estimate before the first entry is encoded.
            queue.noteEncodedState(bytes: encoder.count)
            replayable = outcome.replayable
            if let problem = outcome.problem {
                initialStateProblem = "the initial state " + problem
                report(RecorderError(.entryNotRecorded, path: appender.path, reason: "the initial state was not recorded: it \(problem) (recording goes on)"))
            } else {
                initialState = encoder
            }
        } else if let entry {
            replayable = entry.encodedState?.replayable ?? (type(of: entry.state) is any Encodable.Type && type(of: entry.state) is any Decodable.Type)
        }
        var optionsObject = JSONObject()
        optionsObject["queuePolicy"] = .string(options.queuePolicy.rawValue)
        optionsObject["queueCapacity"] = .integer(Int64(options.queueCapacity))
        optionsObject["durability"] = options.durability.jsonValue
        if let redaction = options.redaction, !redaction.isEmpty {
            optionsObject["redactionRules"] = .array(redaction.rules.map(JSONValue.string))
        }
        let header = LogHeader(
            version: LogLine.formatVersion,
            created: Date(timeIntervalSince1970: clockBase.wall),
            processName: ProcessInfo.processInfo.processName,
            stateTypeName: entry.map { String(reflecting: $0.stateType) },
            actionTypeName: entry.map { String(reflecting: $0.actionType) },
            keyframeInterval: keyframePolicy.maximumInterval,
            options: .object(optionsObject),
            metadata: options.metadata,
            initialState: nil,
            isStateReplayable: replayable,
            sessionID: options.sessionID ?? LogHeader.randomSessionID(),
            datePaths: datePaths)
        let start = records.appendHeaderMembers(
            header, initialState: initialState.map { UnsafeBufferPointer(start: $0.base, count: $0.count) },
            omittedBecause: initialStateProblem, to: &buffer)
        if let initialState {
            // The first entry is still a keyframe (readers need one per session); its `changed` comes from this state.
            (previous, spare) = (initialState, previous ?? _StreamingEncoder())
            prepare(spare)
        }
        LogLine.seal(&buffer, recordStart: start, chain: &chain)
        headerWritten = true
    }

    /// Appends the entry's record (or a gap saying why it could not be recorded); returns its state's encoded size.
    private func appendEntry(_ entry: PendingEntry) -> Int {
        let current = spare
        let state = encodeState(entry.state, preEncoded: entry.encodedState, into: current)
        var payload = entry.encodedPayload ?? RecordedValue.encodePayload(entry.action)
        if let redaction = options.redaction, !redaction.isEmpty, let tree = try? JSONParser.parse(payload.bytes) {
            payload.bytes = JSONWriter.compact(redaction.redact(tree))
        }
        let actionName = RecordedValue.actionName(entry.action, payload: payload.bytes)
        if let problem = state.problem.map({ GapReason.overLimit(.state(after: actionName), $0) })
            ?? LogLimits.payloadProblem(payload.bytes, stateBytes: current.count, actionName: actionName) {
            let stateBytes = current.count
            skip(entry, because: problem)
            return stateBytes
        }

        let stateBytes = current.count
        let diff = previous.map { _ByteDiff.patch(from: $0.indexedDocument, to: current.indexedDocument) }
        let isKeyframe = forceKeyframe || diff == nil
            || keyframePolicy.wantsKeyframe(after: keyframeCost, patchBytes: diff!.patch.count, stateBytes: stateBytes)

        let wall = clockBase.wall + Double(Int64(bitPattern: entry.endNanoseconds &- clockBase.nanoseconds)) / 1e9
        let extras = EntryExtras.values(of: entry, redaction: options.redaction)
        let start = payload.bytes.withUnsafeBufferPointer { payloadBytes in
            (diff?.patch ?? []).withUnsafeBufferPointer { patch in
                let body: EntryRecordContent.Body = isKeyframe
                    ? .keyframe(state: UnsafeBufferPointer(start: current.base, count: stateBytes), changed: changedPaths(diff))
                    : .patch(patch)
                var content = EntryRecordContent(
                    sequence: entry.sequence, time: wall, durationNanoseconds: entry.durationNanoseconds,
                    actionType: actionName, payload: payloadBytes, isReplayable: payload.replayable,
                    effectOf: entry.effectOf, values: extras.values, trace: extras.trace, body: body)
                content.payloadDatePaths = payload.datePaths
                return records.appendEntryMembers(content, to: &buffer)
            }
        }
        if isKeyframe {
            keyframeCost = KeyframePolicy.Cost()
            forceKeyframe = false
        } else {
            keyframeCost.add(patchBytes: diff!.patch.count)
        }
        LogLine.seal(&buffer, recordStart: start, chain: &chain)
        // The new state becomes the previous one; the old previous encoder is written into next.
        spare = previous ?? _StreamingEncoder()
        prepare(spare)
        previous = current
        return stateBytes
    }

    /// Why a `.drop` queue dropped a run of entries, for its gap record.
    private func queueGapReason(_ cause: QueueLimit) -> String {
        let limit = options.queueBytes >= 1 << 20 ? LogLimits.megabytes(options.queueBytes) : "\(options.queueBytes) bytes"
        let memory = "its memory limit (\(limit) of states not yet written)"
        switch cause {
        case .memory: return "the recording queue was at \(memory) (queue policy .drop)"
        case .count: return GapReason.queueFull
        default: return "the recording queue was full, and at \(memory) (queue policy .drop)"
        }
    }

    /// A state or payload over a log limit: recorded as a one-entry gap that
    /// says why (the gap record holds the entry's number; its reason names the
    /// action), reported once; the next entry is a keyframe.
    private func skip(_ entry: PendingEntry, because reason: String) {
        appendGap(firstSequence: entry.sequence, count: 1, reason: reason)
        report(RecorderError(.entryNotRecorded, path: appender.path, reason: "entry \(entry.sequence &+ 1) was not recorded: \(reason) (recording goes on)"))
        spare.resetAfterFailure()
    }

    private func report(_ error: RecorderError) {
        guard !reportedSkippedEntry else { return }
        reportedSkippedEntry = true
        options.onError?(error)
    }

    private func appendGap(firstSequence: Int64, count: Int, reason: String) {
        let start = records.appendGapMembers(firstSequence: firstSequence, count: Int64(count), reason: reason, to: &buffer)
        LogLine.seal(&buffer, recordStart: start, chain: &chain)
        // The next entry's patch would span the missing ones: make it whole.
        forceKeyframe = true
    }

    /// The paths a keyframe lists as changed: the patch's, coarsened to their
    /// top-level members when there are many; the whole document (`""`) when
    /// there is no previous state.
    private func changedPaths(_ diff: _ByteDiff?) -> [ArraySlice<UInt8>] {
        guard let diff else { return [[]] }
        var paths = diff.paths()
        if paths.count > Self.maximumChangedPaths {
            var seen = Set<ArraySlice<UInt8>>()
            paths = paths.compactMap { path in
                // "/todos/3/done" → "/todos"
                let end = path.dropFirst().firstIndex(of: UInt8(ascii: "/")) ?? path.endIndex
                let top = path[path.startIndex..<end]
                return seen.insert(top).inserted ? top : nil
            }
        }
        return paths
    }
}
