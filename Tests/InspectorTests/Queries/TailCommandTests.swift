import Foundation
import Testing
import Recorder
@testable import Inspector

@Suite struct TailCommandTests {
    func tail(_ arguments: [String], terminal: Bool = false, environment: [String: String] = [:],
              waitForMore: () -> Bool = { false }) -> (status: Int32, output: String, error: String) {
        var streams = CapturedStreams()
        let status = TailCommand.run(arguments, streams: &streams, environment: environment, stdoutIsTerminal: terminal, waitForMore: waitForMore)
        return (status, streams.standardOutput, streams.standardError)
    }

    @Test func printsTheLastEntriesAsPrintChangesDoes() throws {
        let log = try LogFixture.todoLog()
        let result = tail([log, "-n", "2"])
        #expect(result.status == 0)
        #expect(result.output == """
            received action:
              filter/set filter: "active"
              {
                … (1 unchanged)
            -   "filter": "all"
            +   "filter": "active"
                … (1 unchanged)
              }
            received action:
              sync/loaded count: 3
              {
                "todos": [
                  … (2 unchanged: 0–1)
            +     {"title":"Sync done","done":false}
                ]
                … (2 unchanged)
              }

            """)
        #expect(tail([log]).output.components(separatedBy: "received action:").count == 7, "fewer than 10 entries: all of them")
    }

    @Test func anActionThatChangedNothingSaysSo() throws {
        let steps = [LogFixture.Step(type: "noop", payload: .null, state: ["a": 1])]
        let log = try LogFixture.write(steps, initialState: ["a": 1])
        #expect(tail([log]).output == "received action:\n  noop\n  (No state changes)\n")
    }

    @Test func coloursOnlyOnATerminalWithoutNoColor() throws {
        let log = try LogFixture.todoLog()
        let coloured = tail([log, "-n", "1"], terminal: true).output
        #expect(coloured.hasPrefix("\u{1b}[1mreceived action:\u{1b}[0m\n"))
        #expect(coloured.contains("\u{1b}[32m+     {\"title\":\"Sync done\",\"done\":false}\u{1b}[0m"))
        #expect(!tail([log, "-n", "1"], terminal: false).output.contains("\u{1b}["))
        #expect(!tail([log, "-n", "1"], terminal: true, environment: ["NO_COLOR": "1"]).output.contains("\u{1b}["))
        #expect(!tail([log, "-n", "1", "--format", "json"], terminal: true).output.contains("\u{1b}["))
    }

    @Test func jsonIsOneObjectPerEntry() throws {
        let log = try LogFixture.todoLog()
        let lines = tail([log, "-n", "all", "--format", "json"]).output.split(separator: "\n")
        #expect(lines.count == 6)
        let fifth = try JSONParser.parse(String(lines[4]))
        #expect(fifth["entry"] == 5)
        #expect(fifth["action"] == ["type": "filter/set", "payload": ["filter": "active"]])
        #expect(fifth["changed"] == ["/filter"])
        #expect(fifth["patch"] == [["op": "replace", "path": "/filter", "value": "active"]])
        // The first entry (a keyframe without a state before it): its patch adds everything.
        let first = try JSONParser.parse(String(lines[0]))
        #expect(first["patch"]?.arrayValue?.count == 3)
    }

    @Test func followPrintsNewEntriesAndAReplacedFile() throws {
        // The long log's first lines are the short log's, byte for byte: appending the rest is what a recorder does.
        let all = InspectorFixtures.todoTimeline().steps.map { LogFixture.Step(type: $0.actionType, payload: $0.payload, state: $0.state) }
        let short = try LogFixture.write(Array(all.prefix(4)))
        let long = try Data(contentsOf: URL(fileURLWithPath: try LogFixture.write(all)))
        let shortBytes = try Data(contentsOf: URL(fileURLWithPath: short))
        #expect(long.prefix(shortBytes.count) == shortBytes)
        let replacement = try LogFixture.write([LogFixture.Step(type: "fresh/start", payload: .null, state: ["new": true])])

        var round = 0
        let result = tail([short, "-n", "1", "-f", "--format", "json"]) {
            round += 1
            switch round {
            case 1:
                guard let handle = FileHandle(forWritingAtPath: short) else { Issue.record("cannot append"); return false }
                handle.seekToEndOfFile()
                handle.write(long.dropFirst(shortBytes.count))
                handle.closeFile()
                return true
            case 2:
                return true   // nothing new: nothing printed
            case 3:
                // A new file at the path (rotation): rename(2) over it.
                guard rename(replacement, short) == 0 else { Issue.record("cannot replace the log"); return false }
                return true
            default:
                return false
            }
        }
        #expect(result.status == 0)
        let printed = result.output.split(separator: "\n").map { line in
            let object = try? JSONParser.parse(String(line))
            return "\(object?["entry"]?.int64Value ?? 0) \(object?["action"]?["type"]?.stringValue ?? "?")"
        }
        #expect(printed == ["4 todo/toggle", "5 filter/set", "6 sync/loaded", "1 fresh/start"])
        #expect(result.error == "rewind tail: todo.jsonl was rotated or replaced: reading the new file from the start\n")
    }

    @Test func badInputExitsTwoWithOneLineOrTheUsageError() throws {
        let log = try LogFixture.todoLog()
        let usage = "usage: rewind tail <log> [-n N|all] [-f] [-F] [--full] [--format text|json]\nSee 'rewind tail --help'.\n"
        let cases: [([String], String)] = [
            ([log, "-n", "many"], "rewind tail: -n takes a number of entries or 'all', not 'many'\n"),
            ([log, "--format", "xml"], "rewind tail: unknown format 'xml' (expected one of: text, json)\n" + usage),
            ([log, "-n"], "rewind tail: option '-n' needs a value\n" + usage),
            ([], "rewind tail: missing <log>\n" + usage),
            (["/no/such.jsonl"], "rewind: /no/such.jsonl: no such file\n"),
        ]
        for (arguments, message) in cases {
            let result = tail(arguments)
            #expect(result.status == 2)
            #expect(result.error == message)
        }
        #expect(tail(["--help"]).output.hasPrefix("usage: rewind tail <log> [-n N|all]"))
    }
}
