import Foundation

/// The writer thread's half of a recorder: encodes queued entries, diffs each
/// state against the previous one, and appends records to the log.
/// Used by one thread only.
final class LogWriter {
    private let appender: any RecordSink
    private let options: Recorder.Options
    private let clockBase: (wall: Double, nanoseconds: UInt64)
    private let keyframeInterval: Int

    private var headerWritten = false
    private var previousState: JSONValue?
    private var patchesSinceKeyframe = 0
    /// Size of the last keyframe's state, to skip measuring small patches against the state.
    private var keyframeBytes = 0
    private var forceKeyframe = true
    private var lastSync: UInt64 = 0
    private var buffer: [UInt8] = []

    /// Keyframes list at most this many changed paths; more are coarsened to their top-level ancestors.
    static let maximumChangedPaths = 64

    init(appender: any RecordSink, options: Recorder.Options) {
        self.appender = appender
        self.options = options
        keyframeInterval = max(1, options.keyframeInterval)
        clockBase = (options.clock.now(), options.clock.nanoseconds())
    }

    /// Encodes and writes one batch with one `write()` (or one per record when
    /// durability asks for it).
    func write(_ batch: [QueueItem]) throws(RecorderError) {
        buffer.removeAll(keepingCapacity: true)
        // A live stream that dropped entries resumes at a keyframe.
        if appender.takeKeyframeRequest() { forceKeyframe = true }
        for item in batch {
            switch item {
            case .entry(let entry):
                if !headerWritten { appendHeader(first: entry) }
                appendEntry(entry)
            case .gap(let first, let count):
                if !headerWritten { continue }
                appendGap(firstSequence: first, count: count)
            }
            if options.durability == .fsyncEachRecord {
                try appender.write(buffer)
                try appender.synchronize()
                buffer.removeAll(keepingCapacity: true)
            }
        }
        if !buffer.isEmpty { try appender.write(buffer) }
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

    // MARK: Records

    private func appendHeader(first entry: PendingEntry?) {
        var initialState: JSONValue?
        var replayable = false
        if let initial = entry?.initialState {
            let encoded = RecordedValue.encode(initial)
            initialState = redacted(encoded.value)
            replayable = encoded.replayable
            previousState = initialState
        } else if let state = entry?.state {
            replayable = RecordedValue.encode(state).replayable
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
            keyframeInterval: keyframeInterval,
            options: .object(optionsObject),
            metadata: options.metadata,
            initialState: initialState,
            isStateReplayable: replayable)
        let start = buffer.count
        buffer.append(contentsOf: LogLine.headerPrefix)
        for (key, value) in header.jsonObject.members {
            buffer.append(UInt8(ascii: ","))
            JSONWriter.appendString(key, to: &buffer)
            buffer.append(UInt8(ascii: ":"))
            JSONWriter.appendCompact(value, to: &buffer)
        }
        LogLine.seal(&buffer, recordStart: start)
        headerWritten = true
    }

    private func appendEntry(_ entry: PendingEntry) {
        let state = redacted(RecordedValue.encode(entry.state).value)
        let action = RecordedValue.encode(entry.action)
        let payload = redacted(action.value)

        let patch = previousState.map { JSONDiff.patch(from: $0, to: state) }
        var patchBytes: [UInt8]?
        var stateBytes: [UInt8]?
        var isKeyframe = forceKeyframe || patch == nil || patchesSinceKeyframe + 1 >= keyframeInterval
        if !isKeyframe, let patch {
            let bytes = JSONWriter.compact(patch.jsonValue)
            // Only measure the state when the patch might be the bigger one.
            if bytes.count * 2 > keyframeBytes {
                let whole = JSONWriter.compact(state)
                if bytes.count > whole.count {
                    isKeyframe = true
                    stateBytes = whole
                }
            }
            patchBytes = bytes
        }

        let start = buffer.count
        buffer.append(contentsOf: isKeyframe ? LogLine.keyframePrefix : LogLine.entryPrefix)
        buffer.append(contentsOf: #","seq":"#.utf8)
        JSONWriter.appendInteger(entry.sequence, to: &buffer)
        buffer.append(contentsOf: #","time":"#.utf8)
        let wall = clockBase.wall + Double(Int64(bitPattern: entry.endNanoseconds &- clockBase.nanoseconds)) / 1e9
        JSONWriter.appendDouble(LogTime.rounded(wall), to: &buffer)
        buffer.append(contentsOf: #","durationNs":"#.utf8)
        JSONWriter.appendInteger(entry.durationNanoseconds, to: &buffer)
        buffer.append(contentsOf: #","action":{"type":"#.utf8)
        JSONWriter.appendString(RecordedValue.actionName(entry.action), to: &buffer)
        buffer.append(contentsOf: #","payload":"#.utf8)
        JSONWriter.appendCompact(payload, to: &buffer)
        buffer.append(contentsOf: #","replayable":"#.utf8)
        buffer.append(contentsOf: (action.replayable ? "true" : "false").utf8)
        buffer.append(UInt8(ascii: "}"))
        if let origin = entry.effectOf {
            buffer.append(contentsOf: #","effectOf":"#.utf8)
            JSONWriter.appendInteger(origin, to: &buffer)
        }
        if isKeyframe {
            buffer.append(contentsOf: #","changed":"#.utf8)
            JSONWriter.appendCompact(.array(changedPaths(patch).map { .string($0.description) }), to: &buffer)
            buffer.append(contentsOf: #","state":"#.utf8)
            let whole = stateBytes ?? JSONWriter.compact(state)
            buffer.append(contentsOf: whole)
            keyframeBytes = whole.count
            patchesSinceKeyframe = 0
            forceKeyframe = false
        } else {
            buffer.append(contentsOf: #","patch":"#.utf8)
            buffer.append(contentsOf: patchBytes ?? [])
            patchesSinceKeyframe += 1
        }
        LogLine.seal(&buffer, recordStart: start)
        previousState = state
    }

    private func appendGap(firstSequence: Int64, count: Int) {
        let start = buffer.count
        buffer.append(contentsOf: LogLine.gapPrefix)
        buffer.append(contentsOf: #","firstSeq":"#.utf8)
        JSONWriter.appendInteger(firstSequence, to: &buffer)
        buffer.append(contentsOf: #","dropped":"#.utf8)
        JSONWriter.appendInteger(count, to: &buffer)
        buffer.append(contentsOf: #","reason":"queue full""#.utf8)
        LogLine.seal(&buffer, recordStart: start)
        // The next entry's patch would span the dropped ones: make it whole.
        forceKeyframe = true
    }

    /// The paths a keyframe lists as changed: the patch's, coarsened when there are many;
    /// the whole document ("") when there is no previous state.
    private func changedPaths(_ patch: JSONPatch?) -> [JSONPointer] {
        guard let patch else { return [JSONPointer()] }
        let paths = patch.operations.map(\.path)
        guard paths.count > LogWriter.maximumChangedPaths else { return paths }
        var seen = Set<String>()
        var coarse: [JSONPointer] = []
        for path in paths {
            let top = JSONPointer(tokens: Array(path.tokens.prefix(1)))
            if seen.insert(top.description).inserted { coarse.append(top) }
        }
        return coarse
    }

    private func redacted(_ value: JSONValue) -> JSONValue {
        guard let redaction = options.redaction else { return value }
        return redaction.redact(value)
    }
}
