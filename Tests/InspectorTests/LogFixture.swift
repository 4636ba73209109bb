import Foundation
@testable import Recorder
@testable import Inspector

/// Writes small logs in format v1 (header, keyframes every `keyframeInterval`
/// entries, RFC 6902 patches between them, CRC-32 per line) for command tests.
struct LogFixture {
    struct Step {
        var type: String
        var payload: JSONValue
        var state: JSONValue
        var fromEffect = false
    }

    static let start = 1_764_400_000.0

    /// The todo recording from `InspectorFixtures`, as a file in a fresh temporary directory.
    static func todoLog(keyframeInterval: Int = 3, damageLine: Int? = nil, tornTail: Bool = false) throws -> String {
        let timeline = InspectorFixtures.todoTimeline()
        let steps = timeline.steps.map { Step(type: $0.actionType, payload: $0.payload, state: $0.state, fromEffect: $0.fromEffect) }
        let times = timeline.steps.map(\.timeOffset)
        return try write(steps, times: times, keyframeInterval: keyframeInterval, damageLine: damageLine, tornTail: tornTail)
    }

    static func write(_ steps: [Step], times: [Double]? = nil, keyframeInterval: Int = 3, initialState: JSONValue? = nil,
                      damageLine: Int? = nil, tornTail: Bool = false, name: String = "todo.jsonl",
                      datePaths: [String]? = nil) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-inspector-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
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
        for (index, step) in steps.enumerated() {
            var entry = JSONObject()
            let isKeyframe = previous == nil || index % keyframeInterval == 0
            entry["kind"] = "entry"
            if isKeyframe { entry["keyframe"] = true }   // right after kind: the reader indexes it from the line's start
            entry["seq"] = .integer(Int64(index))
            entry["time"] = .double(start + (times?[index] ?? Double(index)))
            entry["durationNs"] = 1000
            entry["action"] = ["type": .string(step.type), "payload": step.payload, "replayable": true]
            if step.fromEffect { entry["effectOf"] = .integer(Int64(index - 1)) }
            if let previous, !isKeyframe {
                entry["patch"] = JSONDiff.patch(from: previous, to: step.state).jsonValue
            } else {
                entry["state"] = step.state
                let changed = previous.map { JSONDiff.patch(from: $0, to: step.state).operations.map { JSONValue.string($0.path.description) } } ?? []
                entry["changed"] = .array(changed)
            }
            previous = step.state
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
        let path = directory.appendingPathComponent(name).path
        try Data(output).write(to: URL(fileURLWithPath: path))
        return path
    }

    private static func append(_ record: JSONObject, to bytes: inout [UInt8]) {
        let start = bytes.count
        bytes += JSONWriter.compact(.object(record)).dropLast()   // reopened: seal adds the checksum and `}`
        LogLine.seal(&bytes, recordStart: start)
    }
}
