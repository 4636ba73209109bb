import Foundation
import Testing
import Recorder
@testable import Inspector

/// A log of 2.5 KB whose patches copy a value into itself, doubling the state each time:
/// 2⁴⁰ values out of nothing. Every command, the inspector and the reader bound what a
/// patch may build (a log record's 64 MB, its nesting) and say the entry is damaged,
/// instead of growing to gigabytes (issue 37).
@Suite struct PatchBombTests {
    /// `/a` appended to itself 40 times in one patch (entry 2), or once per entry (entries 2–41).
    static func bomb(onePatch: Bool) throws -> String {
        let copy = #"{"op":"copy","from":"/a","path":"/a/-"}"#
        var records = [HandMadeLog.header(), HandMadeLog.keyframe(seq: "0", state: #"{"a":["0123456789abcdef"],"n":0}"#)]
        if onePatch {
            records.append(HandMadeLog.patch(seq: "1", patch: "[" + Array(repeating: copy, count: 40).joined(separator: ",") + "]"))
        } else {
            records += (1...40).map { HandMadeLog.patch(seq: "\($0)", patch: "[\(copy)]") }
        }
        records.append(HandMadeLog.patch(seq: onePatch ? "2" : "41", patch: #"[{"op":"replace","path":"/n","value":1}]"#))
        return try HandMadeLog.write(records)
    }

    private func run(_ arguments: [String]) -> (status: Int32, output: String, error: String) { RewindCommandLine.captured(arguments) }

    @Test func theReaderSaysTheEntryIsDamaged() throws {
        let log = try Self.bomb(onePatch: true)
        #expect(fileBytes(log).count < 2600)
        let reader = try LogReader(path: log)
        #expect(reader.entryCount == 3)
        #expect(throws: LogReadError.self) { try reader.state(at: 1) }
        do {
            _ = try reader.state(at: 1)
        } catch {
            #expect(error.description.hasPrefix("\(log): line 3 is damaged: its patch does not apply: operation "))
            #expect(error.description.hasSuffix(" (copy /a/-): it copies more than 64 MB since the last whole state, more than a log record holds"))
        }
        var states = 0
        reader.scanStates(0..<reader.entryCount, keepingPrevious: false) { step in
            if step.state != nil { states += 1 }
            return true
        }
        #expect(states == 1, "only the keyframe's state: the bomb and what follows it cannot be rebuilt")
    }

    @Test(arguments: [true, false])
    func everyCommandFinishesAndSaysWhy(onePatch: Bool) throws {
        let log = try Self.bomb(onePatch: onePatch)
        let last = onePatch ? "3" : "42"
        let directory = (log as NSString).deletingLastPathComponent
        for arguments in [["show", log], ["show", log, "--at", "2"], ["log", log], ["stats", log], ["blame", log, "/n"], ["tail", log, "-n", "3"],
                          ["tail", log, "-n", "3", "--format", "json"], ["export", log], ["export", log, "--format", "jsonl"],
                          ["export", log, "--format", "patch"], ["export", log, "--format", "redux-devtools"], ["find", log, "/n == 1"],
                          ["find", log, "/a length > 100"], ["find", directory, "exists /a/3"], ["bisect", log, "/a length < 100"],
                          ["testgen", log, "-o", directory + "/BombTests.swift"]] {
            let result = run(arguments)
            #expect(result.status <= 3, "\(arguments): \(result.error)")
            #expect(result.output.utf8.count < 1 << 20, "\(arguments) printed \(result.output.utf8.count) bytes")
        }
        #expect(run(["show", log]).error.contains("the state after entry \(last) of app.jsonl cannot be rebuilt"))
        #expect(run(["find", log, "/n == 1"]).error.contains("entries skipped: their state cannot be rebuilt"))
    }

    @Test func theInspectorShowsTheEntryAsUnavailable() throws {
        let timeline = try LogTimeline(path: try Self.bomb(onePatch: true), keepsDamagedRows: true)
        var model = InspectorFixtures.model(timeline, columns: 100, rows: 24)
        model.type("jj")
        #expect(model.screenText.contains("cannot be rebuilt") || model.screenText.contains("unavailable"), "\(model.screenText)")
    }

    @Test func aValueNestedPastTheLimitOneLevelAtATimeIsRefused() throws {
        // Each entry adds one level under the last: 600 entries, never a value of more than one level.
        var records = [HandMadeLog.header(), HandMadeLog.keyframe(seq: "0", state: #"{"d":{}}"#)]
        var path = "/d"
        for index in 1...600 {
            path += "/d"
            records.append(HandMadeLog.patch(seq: "\(index)", patch: #"[{"op":"add","path":"\#(path)","value":{}}]"#))
        }
        let reader = try LogReader(path: try HandMadeLog.write(records))
        #expect(throws: Never.self) { try reader.state(at: 500) }
        do {
            _ = try reader.state(at: 600)
            Issue.record("a state nested 600 levels deep was built")
        } catch {
            #expect(error.description.hasSuffix(": it nests values more than \(JSONParser.maximumDepth - 3) levels deep, more than a log record holds"))
        }
    }
}
