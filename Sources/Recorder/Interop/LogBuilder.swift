import Foundation

/// Writes a log (the current format) from JSON values rather than from a running reducer:
/// the `jsonl` slice export and `rewind import` build logs with it.
///
/// The first entry is always a keyframe (so a slice opens on its own), then a
/// keyframe every `keyframeInterval` entries with RFC 6902 patches between.
/// Records are framed and checksummed exactly as the recorder writes them.
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
        package var action: RecordedAction
        package var effectOf: Int64?
        /// The state after the action.
        package var state: JSONValue
        /// Extra members written into the record (readers ignore members they do not know).
        package var extra: [(String, JSONValue)]

        package init(
            sequence: Int64? = nil, time: Date, durationNanoseconds: Int64 = 0, action: RecordedAction,
            effectOf: Int64? = nil, state: JSONValue, extra: [(String, JSONValue)] = []
        ) {
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
    private let keyframeInterval: Int
    private var previousState: JSONValue?
    private var entriesSinceKeyframe = 0
    private var nextSequence: Int64 = 0
    private var entryCount = 0
    private var chain = LogChain()

    /// Starts a log with `header` (its `initialState`, if any, is the state before the first entry).
    package init(header: LogHeader) {
        keyframeInterval = max(1, header.keyframeInterval)
        previousState = header.initialState
        let start = bytes.count
        bytes.append(contentsOf: LogLine.headerPrefix)
        append(members: header.jsonObject.members)
        LogLine.seal(&bytes, recordStart: start, chain: &chain)
    }

    package mutating func append(_ entry: Entry) {
        let sequence = entry.sequence ?? nextSequence
        nextSequence = sequence + 1
        let patch = previousState.map { JSONDiff.patch(from: $0, to: entry.state) }
        let isKeyframe = entryCount == 0 || entriesSinceKeyframe + 1 >= keyframeInterval

        var members: [(String, JSONValue)] = [
            ("seq", .integer(sequence)),
            ("time", .double(LogTime.rounded(entry.time.timeIntervalSince1970))),
            ("durationNs", .integer(entry.durationNanoseconds)),
            ("action", .object(JSONObject([
                ("type", .string(entry.action.name)),
                ("payload", entry.action.payload),
                ("replayable", .bool(entry.action.isReplayable)),
            ]))),
        ]
        if let effectOf = entry.effectOf { members.append(("effectOf", .integer(effectOf))) }
        if isKeyframe {
            members.append(("state", entry.state))
            let changed = patch.map { $0.operations.map { JSONValue.string($0.path.description) } } ?? [""]
            members.append(("changed", .array(changed)))
            entriesSinceKeyframe = 0
        } else {
            members.append(("patch", patch?.jsonValue ?? []))
            entriesSinceKeyframe += 1
        }
        members += entry.extra

        entryCount += 1
        let start = bytes.count
        // Keyframes say so first, as the recorder writes them, so readers find them from the index.
        bytes.append(contentsOf: isKeyframe ? LogLine.keyframePrefix : LogLine.entryPrefix)
        append(members: members)
        LogLine.seal(&bytes, recordStart: start, chain: &chain)
        previousState = entry.state
    }


    private mutating func append(members: some Sequence<(String, JSONValue)>) {
        for (key, value) in members {
            bytes.append(UInt8(ascii: ","))
            JSONWriter.appendString(key, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            JSONWriter.appendCompact(value, to: &bytes)
        }
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

extension RecordedAction {
    /// An action read from another tool's file or an export, not from a Swift value.
    package init(type name: String, payload: JSONValue, replayable: Bool = false) {
        self.init(name: name, payload: payload, isReplayable: replayable)
    }
}
