import Foundation

/// Writes a log (the current format) from JSON values rather than from a running reducer:
/// the `jsonl` slice export and `rewind import` build logs with it.
///
/// The first entry is always a keyframe (so a slice opens on its own), then
/// keyframes as the recorder places them (``KeyframePolicy``: by read-back cost,
/// at most the header's `keyframeInterval` apart) with RFC 6902 patches between.
/// Records are written by the recorder's own ``RecordEncoder``, framed and
/// checksummed exactly as the recorder writes them.
///
/// ```swift
/// var builder = LogBuilder(header: header)
/// builder.append(LogBuilder.Entry(action: action, state: state, time: Date()))
/// try Data(builder.bytes).write(to: url)
/// ```
package struct LogBuilder {
    /// One entry to write.
    package struct Entry {
        package var sequence: Int64?
        package var time: Date
        package var durationNanoseconds: Int64
        package var action: LogEntry.Action
        package var effectOf: Int64?
        /// The state after the action.
        package var state: JSONValue
        /// The outside values the reducer read (`values`) and where the action was dispatched (`trace`).
        package var values: JSONValue?
        package var trace: JSONValue?
        /// Members only some logs have (an import's `skipped`, `reducerError`), written last.
        package var extra: [(RecordField, JSONValue)]

        package init(
            sequence: Int64? = nil, time: Date, durationNanoseconds: Int64 = 0, action: LogEntry.Action,
            effectOf: Int64? = nil, state: JSONValue, values: JSONValue? = nil, trace: JSONValue? = nil,
            extra: [(RecordField, JSONValue)] = []
        ) {
            self.values = values
            self.trace = trace
            self.sequence = sequence
            self.time = time
            self.durationNanoseconds = durationNanoseconds
            self.action = action
            self.effectOf = effectOf
            self.state = state
            self.extra = extra
        }
    }

    /// The log so far: the header line, then one line per appended entry.
    package private(set) var bytes: [UInt8] = []
    private let keyframePolicy: KeyframePolicy
    private var keyframeCost = KeyframePolicy.Cost()
    /// The size of the last keyframe's state: the policy's measure of the state
    /// (encoding every state only to learn its size would double an export's work).
    private var keyframeStateBytes = 0
    private var previousState: JSONValue?
    private var nextSequence: Int64 = 0
    private var entryCount = 0
    private var chain = LogChain()
    private let records = RecordEncoder()

    /// Starts a log with `header` (its `initialState`, if any, is the state before the first entry).
    package init(header: LogHeader) {
        keyframePolicy = KeyframePolicy(maximumInterval: max(1, header.keyframeInterval))
        previousState = header.initialState
        let start = records.appendHeaderMembers(header, to: &bytes)
        LogLine.seal(&bytes, recordStart: start, chain: &chain)
    }

    package mutating func append(_ entry: Entry) {
        let sequence = entry.sequence ?? nextSequence
        nextSequence = sequence.addingSaturating(1)
        let patch = previousState.map { JSONDiff.patch(from: $0, to: entry.state) }
        let patchBytes = patch.map { JSONWriter.compact($0.jsonValue) } ?? []
        let isKeyframe = entryCount == 0 || patch == nil
            || keyframePolicy.wantsKeyframe(after: keyframeCost, patchBytes: patchBytes.count, stateBytes: keyframeStateBytes)
        let stateBytes = isKeyframe ? JSONWriter.compact(entry.state) : []
        // Changed paths as the recorder writes them: JSON string contents, `""` for a first state.
        let changed: [ArraySlice<UInt8>] = isKeyframe
            ? patch.map { $0.operations.map { JSONWriter.compact(.string($0.path.description)).dropFirst().dropLast() } } ?? [[]]
            : []
        let payload = JSONWriter.compact(entry.action.payload)
        let start = payload.withUnsafeBufferPointer { payload in
            stateBytes.withUnsafeBufferPointer { state in
                patchBytes.withUnsafeBufferPointer { patch in
                    var content = EntryRecordContent(
                        sequence: sequence, time: entry.time.timeIntervalSince1970,
                        durationNanoseconds: UInt64(max(0, entry.durationNanoseconds)), actionType: entry.action.name,
                        payload: payload, isReplayable: entry.action.isReplayable, effectOf: entry.effectOf,
                        values: entry.values, trace: entry.trace,
                        body: isKeyframe ? .keyframe(state: state, changed: changed) : .patch(patch))
                    content.extra = entry.extra
                    content.payloadDatePaths = entry.action.datePaths
                    return records.appendEntryMembers(content, to: &bytes)
                }
            }
        }
        LogLine.seal(&bytes, recordStart: start, chain: &chain)
        if isKeyframe {
            keyframeCost = KeyframePolicy.Cost()
            keyframeStateBytes = stateBytes.count
        } else {
            keyframeCost.add(patchBytes: patchBytes.count)
        }
        entryCount += 1
        previousState = entry.state
    }
}

extension LogHeader {
    /// A header for a log built from JSON values (an export slice or an import).
    package init(
        created: Date, processName: String, stateTypeName: String? = nil, actionTypeName: String? = nil,
        keyframeInterval: Int = 32, options: JSONValue = [:], metadata: [String: String] = [:],
        initialState: JSONValue? = nil, isStateReplayable: Bool = false
    ) {
        self.init(
            version: LogLine.formatVersion, created: created, processName: processName,
            stateTypeName: stateTypeName, actionTypeName: actionTypeName, keyframeInterval: keyframeInterval,
            options: options, metadata: metadata, initialState: initialState, isStateReplayable: isStateReplayable)
    }
}

extension LogEntry.Action {
    /// An action read from another tool's file or an export, not from a Swift value.
    package init(type name: String, payload: JSONValue, replayable: Bool = false) {
        self.init(name: name, payload: payload, isReplayable: replayable)
    }
}
