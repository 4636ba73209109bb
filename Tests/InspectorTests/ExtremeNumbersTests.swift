import Foundation
import Testing
import Recorder
@testable import Inspector

/// Every number a log holds comes from elsewhere: a hostile log may put ±2⁶³, 1e300, 1e400
/// (infinity once read), -0, a fraction or the string "NaN" in any of them. No command, no
/// inspector screen and no listener may trap on one (issue 37); each says what it can.
@Suite struct ExtremeNumbersTests {
    static let extremes = [
        "9223372036854775807", "-9223372036854775808", "9223372036854775808", "-9223372036854775809",
        "18446744073709551615", "1e300", "-1e300", "1e400", "-1e400", "-0", "-0.0", "0.5", "1e-300", #""NaN""#, #""-Infinity""#,
    ]

    /// Logs with `value` in each number of each kind of record: entries (sequence number, time,
    /// duration, cause, trace line, recorded values, state and payload), the header (created,
    /// keyframe interval, version), gaps, date paths and a later session's header.
    static func logs(with value: String) throws -> [String] {
        typealias Log = HandMadeLog
        let entryNumbers = #","effectOf":\#(value),"values":{"now":\#(value)},"trace":{"file":"a.swift","line":\#(value),"function":"f","stack":["0 f"]}"#
        return try [
            Log.write([Log.header(),
                       Log.keyframe(seq: "0", time: value, durationNs: value, payload: #"{"add":{"x":\#(value)}}"#,
                                    state: #"{"a":\#(value),"b":[\#(value)],"d":\#(value)}"#, extra: entryNumbers),
                       Log.patch(seq: "1", type: "add", payload: #"{"add":{"x":\#(value)}}"#, patch: #"[{"op":"replace","path":"/a","value":\#(value)}]"#),
                       Log.patch(seq: "2", time: value, payload: #"{"set":{}}"#, patch: #"[{"op":"replace","path":"/a","value":1}]"#)]),
            Log.write([Log.header(),
                       Log.keyframe(seq: value, state: #"{"a":1}"#),
                       Log.patch(seq: "1", patch: #"[{"op":"replace","path":"/a","value":2}]"#),
                       Log.patch(seq: value, patch: #"[{"op":"replace","path":"/a","value":3}]"#)]),
            Log.write([Log.header(created: value, keyframeInterval: value, extra: #","datePaths":["/a"]"#),
                       Log.keyframe(seq: "0", state: #"{"a":\#(value)}"#),
                       Log.patch(seq: "1", patch: #"[{"op":"replace","path":"/a","value":\#(value)}]"#)]),
            Log.write([Log.header(version: value), Log.keyframe(seq: "0", state: #"{"a":1}"#)]),
            Log.write([Log.header(),
                       Log.keyframe(seq: "0", state: #"{"a":1}"#),
                       Log.gap(firstSeq: value, dropped: value),
                       Log.keyframe(seq: "5", state: #"{"a":2}"#),
                       Log.gap(firstSeq: "6", dropped: value),
                       Log.keyframe(seq: "7", state: #"{"a":3}"#),
                       Log.header(created: value),
                       Log.keyframe(seq: value, state: #"{"a":4}"#)]),
        ]
    }

    static func commands(on path: String) -> [[String]] {
        let directory = (path as NSString).deletingLastPathComponent
        return [
            ["open", path], ["ls", directory], ["ls", directory, "--verify"], ["ls", directory, "--format", "json"],
            ["show", path], ["show", path, "--at", "1"], ["show", path, "--at", "0"], ["log", path], ["log", path, "--trace"],
            ["stats", path], ["stats", path, "--format", "json"], ["blame", path, "/a"],
            ["export", path], ["export", path, "--format", "patch", "--per-entry"], ["export", path, "--format", "unified"],
            ["export", path, "--format", "jsonl"], ["export", path, "--format", "redux-devtools"],
            ["find", path, "/a > 0"], ["find", path, "--changes", "/a == -0"], ["find", directory, "exists /a"],
            ["bisect", path, "/a < 2"], ["tail", path], ["tail", path, "--format", "json"],
            ["testgen", path, "-o", directory + "/GeneratedTests.swift"],
        ]
    }

    private func run(_ arguments: [String]) -> (status: Int32, output: String, error: String) { RewindCommandLine.captured(arguments) }

    @Test(arguments: extremes)
    func everyCommandReadsExtremeNumbersWithoutTrapping(_ value: String) throws {
        for log in try Self.logs(with: value) {
            for arguments in Self.commands(on: log) {
                let result = run(arguments)
                // 0 done, 1 nothing found / differs, 2 cannot, 3 bisect could not decide.
                #expect((0...3).contains(result.status), "\(arguments) with \(value)")
                #expect(!result.error.contains("Fatal"), "\(arguments) with \(value): \(result.error)")
            }
            // A slice the export wrote opens again.
            let slice = (log as NSString).deletingLastPathComponent + "/slice.jsonl"
            if run(["export", log, "--format", "jsonl", "-o", slice]).status == 0 {
                #expect(run(["log", slice]).status == 0, "the slice of a log with \(value) opens")
            }
        }
    }

    @Test(arguments: extremes)
    func importAndDiffTakeExtremeNumbers(_ value: String) throws {
        let directory = TemporaryDirectory()
        let id = value.hasPrefix("\"") ? value : "\"\(value)\""
        try directory.write([
            "devtools.json": #"""
                {"payload":"{\"actionsById\":{\"0\":{\"type\":\"PERFORM_ACTION\",\"action\":{\"type\":\"@@INIT\"},\"timestamp\":\#(value)},\#(id):{\"type\":\"PERFORM_ACTION\",\"action\":{\"type\":\"add\",\"x\":\#(value)},\"timestamp\":\#(value)}},\"stagedActionIds\":[0,\#(value)],\"skippedActionIds\":[\#(value)],\"currentStateIndex\":\#(value),\"computedStates\":[{\"state\":{\"a\":\#(value)}},{\"state\":{\"a\":\#(value)}}]}","preloadedState":"{\"a\":\#(value)}"}
                """#,
            "a.json": #"{"a":\#(value),"b":[\#(value),1]}"#,
            "b.json": #"{"a":-0,"b":[1,\#(value)]}"#,
        ])
        var streams = CapturedStreams()
        let imported = RewindCommandLine.run(["import", directory.file("devtools.json"), "-o", directory.file("imported.jsonl")], streams: &streams)
        #expect(imported == 0 || imported == 2, "\(streams.standardError)")
        if imported == 0 { #expect(RewindCommandLine.run(["log", directory.file("imported.jsonl")], streams: &streams) == 0) }
        for format in ["tree", "patch", "unified"] {
            #expect((1...2).contains(RewindCommandLine.run(["diff", directory.file("a.json"), directory.file("b.json"), "--format", format], streams: &streams)))
        }
    }

    /// What the hand-made logs hold, for the replay commands.
    struct Numbers: Codable, Equatable {
        var a: Double?
        var b: [Double]?
        var d: Double?
    }

    enum NumberAction: Codable {
        case add(x: Double)
        case set
    }

    static func reduce(_ state: inout Numbers, _ action: NumberAction) {
        if case .add(let x) = action { state.a = x } else { state.a = 1 }
    }

    @Test(arguments: extremes)
    func replayingExtremeNumbersTrapsNothing(_ value: String) throws {
        var saved = 0
        for log in try Self.logs(with: value) {
            var streams = CapturedStreams()
            let status = Inspector.run(["verify", log], replay: Inspector.link(Self.reduce), streams: &streams)
            #expect((0...2).contains(status), "verify with \(value): \(streams.standardError)")
            // A branch saved from it keeps the recorded times and durations.
            guard let reader = try? LogReader(path: log), reader.entryCount > 0 else { continue }
            let session = ReplayWorkbench(reader: reader, reducer: Self.reduce)
            let branch = (log as NSString).deletingLastPathComponent + "/branch.jsonl"
            guard (try? session.dispatch(actionJSON: #"{"set":{}}"#, at: reader.entryCount - 1)) != nil else { continue }
            if (try? session.saveBranch(to: branch)) != nil {
                saved += 1
                #expect(try LogReader(path: branch).entryCount == reader.entryCount + 1)
            }
        }
        // The log of entry numbers decodes for every number a Double holds.
        if Double(value)?.isFinite == true { #expect(saved > 0, "no branch of a log with \(value) was saved") }
    }

    @Test(arguments: extremes)
    func theInspectorShowsExtremeNumbersWithoutTrapping(_ value: String) throws {
        for log in try Self.logs(with: value) {
            guard let timeline = try? LogTimeline(path: log, keepsDamagedRows: true) else { continue }
            var model = InspectorFixtures.model(timeline, columns: 120, rows: 30)
            // Every entry, its action view (duration, cause, values, trace), a diff across the log, the damage list.
            for keys in ["", "j", "p", "j", "j", "p", "gmGd", "\u{1b}D", "\u{1b}:0\n", "\t\t"] {
                model.type(keys)
                #expect(!model.screenText.isEmpty)
            }
        }
    }
}
