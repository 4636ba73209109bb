import Foundation
import Recorder

/// Writes small logs in format v1 (header, keyframes every `keyframeInterval`
/// entries, RFC 6902 patches between them, CRC-32 per line) for command tests.
/// Each log goes into its own directory inside `TemporaryDirectory.forThisProcess`.
public struct LogFixture {
    /// One entry: the action and the state after it.
    public struct Step {
        public var type: String
        public var payload: JSONValue
        public var state: JSONValue
        public var fromEffect = false

        public init(type: String, payload: JSONValue, state: JSONValue, fromEffect: Bool = false) {
            self.type = type
            self.payload = payload
            self.state = state
            self.fromEffect = fromEffect
        }
    }

    /// The header's `created` time; entry `i` is at `start + times[i]` (or `start + i`).
    public static let start = 1_764_400_000.0

    /// A gap record, as a recorder writes it where entries were not recorded.
    public struct Gap {
        public var dropped: Int
        public var reason: String?

        public init(dropped: Int, reason: String?) {
            self.dropped = dropped
            self.reason = reason
        }
    }

    /// Writes `steps` as a log named `name` in a fresh directory and returns its path.
    /// `damageLine` (1-based) gets one byte flipped; `tornTail` adds half a record without its newline;
    /// `gaps[i]` is a gap record before step `i` (the sequence numbers skip what it stands for).
    public static func write(_ steps: [Step], times: [Double]? = nil, keyframeInterval: Int = 3, initialState: JSONValue? = nil,
                      damageLine: Int? = nil, tornTail: Bool = false, name: String = "todo.jsonl",
                      datePaths: [String]? = nil, gaps: [Int: Gap] = [:]) throws -> String {
        let directory = TemporaryDirectory.forThisProcess.subdirectory("log-\(UUID().uuidString)")
        var bytes: [UInt8] = []
        var header = JSONObject()
        header["kind"] = "header"
        header["format"] = "rewind"
        header["version"] = 1
        header["created"] = .double(start)
        header["process"] = "fixture"
        header["stateType"] = "AppState"
        header["actionType"] = "AppAction"
        header["keyframeInterval"] = .integer(Int64(keyframeInterval))
        header["options"] = [:]
        header["metadata"] = [:]
        header["stateReplayable"] = true
        if let initialState { header["initialState"] = initialState }
        if let datePaths { header["datePaths"] = .array(datePaths.map(JSONValue.string)) }
        append(header, to: &bytes)
        var previous: JSONValue?
        var sequence: Int64 = 0
        var previousSequence: Int64 = -1
        for (index, step) in steps.enumerated() {
            if let gap = gaps[index] {
                var record = JSONObject()
                record["kind"] = "gap"
                record["firstSeq"] = .integer(sequence)
                record["dropped"] = .integer(Int64(gap.dropped))
                if let reason = gap.reason { record["reason"] = .string(reason) }
                append(record, to: &bytes)
                sequence += Int64(gap.dropped)
            }
            var entry = JSONObject()
            // The entry after a gap is a keyframe, as the recorder writes it.
            let isKeyframe = previous == nil || index % keyframeInterval == 0 || gaps[index] != nil
            entry["kind"] = "entry"
            if isKeyframe { entry["keyframe"] = true }   // right after kind: the reader indexes it from the line's start
            entry["seq"] = .integer(sequence)
            entry["time"] = .double(start + (times?[index] ?? Double(index)))
            entry["durationNs"] = 1000
            entry["action"] = ["type": .string(step.type), "payload": step.payload, "replayable": true]
            if step.fromEffect { entry["effectOf"] = .integer(previousSequence) }
            if let previous, !isKeyframe {
                entry["patch"] = JSONDiff.patch(from: previous, to: step.state).jsonValue
            } else {
                entry["state"] = step.state
                let changed = previous.map { JSONDiff.patch(from: $0, to: step.state).operations.map { JSONValue.string($0.path.description) } } ?? []
                entry["changed"] = .array(changed)
            }
            previous = step.state
            previousSequence = sequence
            sequence += 1
            append(entry, to: &bytes)
        }
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
        if let damageLine {
            // Flip one byte inside the record: its checksum no longer matches.
            let position = lines[damageLine - 1].count / 2
            lines[damageLine - 1][position] = lines[damageLine - 1][position] == UInt8(ascii: "a") ? UInt8(ascii: "b") : UInt8(ascii: "a")
        }
        var output = Array(lines.joined(separator: [UInt8(ascii: "\n")]))
        if tornTail {
            var extra = JSONObject()
            extra["kind"] = "entry"
            extra["seq"] = .integer(Int64(steps.count))
            output += Array(JSONWriter.compactString(.object(extra)).utf8.prefix(20))
        }
        let path = directory + "/" + name
        try Data(output).write(to: URL(fileURLWithPath: path))
        return path
    }

    private static func append(_ record: JSONObject, to bytes: inout [UInt8]) {
        let start = bytes.count
        bytes += JSONWriter.compact(.object(record)).dropLast()   // reopened: seal adds the checksum and `}`
        LogLine.seal(&bytes, recordStart: start)
    }
}
