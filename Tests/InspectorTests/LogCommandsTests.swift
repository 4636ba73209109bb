import Foundation
import Testing
import Recorder
@testable import Inspector

@Suite struct LogCommandsTests {
    private func run(_ arguments: [String]) -> (status: Int32, output: String, error: String) {
        var streams = CapturedStreams()
        let status = RewindCommandLine.run(arguments, streams: &streams)
        return (status, streams.standardOutput, streams.standardError)
    }

    @Test func logListsOneLinePerEntry() throws {
        let path = try LogFixture.todoLog()
        let result = run(["log", path])
        #expect(result.status == 0)
        #expect(result.error == "")
        #expect(result.output == """
              1   +0.000s  app/launch
              2   +0.500s  todo/add title: "Buy milk"  changed /todos/-
              3   +1.250s  todo/add title: "Write tests"  changed /todos/-
              4   +2.000s  todo/toggle index: 0  changed /todos/0/done
              5   +3.500s  filter/set filter: "active"  changed /filter
              6   +4.125s  sync/loaded count: 3  [effect]  changed /todos/-

            """)
    }

    @Test func bareLogPathPrintsTheEntryListWhenNotATerminal() throws {
        let path = try LogFixture.todoLog()
        let bare = run([path])
        #expect(bare.status == 0)
        #expect(bare.output == run(["log", path]).output)
        #expect(run(["open", path]).output == bare.output)
    }

    @Test func showPrintsTheStateAtAnEntryOrOnePath() throws {
        let path = try LogFixture.todoLog()
        let last = run(["show", path])
        #expect(last.status == 0)
        #expect(last.output == """
            {
              "todos": [
                {
                  "title": "Buy milk",
                  "done": true
                },
                {
                  "title": "Write tests",
                  "done": false
                },
                {
                  "title": "Sync done",
                  "done": false
                }
              ],
              "filter": "active",
              "user": {
                "name": "Ada",
                "email": "ada@example.com"
              }
            }

            """)
        #expect(run(["show", path, "--at", "3", "--path", "/todos/1/title"]).output == "\"Write tests\"\n")
        #expect(run(["show", path, "--at=4", "--path=/filter"]).output == "\"all\"\n")
        #expect(run(["show", path, "--at", "2", "--path", "/todos"]).output == "[\n  {\n    \"title\": \"Buy milk\",\n    \"done\": false\n  }\n]\n")
    }

    @Test func showRejectsBadEntriesPathsAndOptionsWithOneLine() throws {
        let path = try LogFixture.todoLog()
        let outOfRange = run(["show", path, "--at", "7"])
        #expect(outOfRange.status == 2)
        #expect(outOfRange.error == "rewind show: no entry 7 (todo.jsonl has entries 1–6)\n")
        let missingPath = run(["show", path, "--path", "/nope"])
        #expect(missingPath.status == 2)
        #expect(missingPath.error == "rewind show: /nope does not exist in the state after entry 6\n")
        let badPointer = run(["show", path, "--path", "nope"])
        #expect(badPointer.status == 2)
        #expect(badPointer.error == "rewind show: invalid JSON Pointer \"nope\": a JSON Pointer must be empty or start with '/'\n")
        let unknown = run(["show", path, "--frobnicate", "1"])
        #expect(unknown.status == 2)
        #expect(unknown.error.hasPrefix("rewind show: unknown option '--frobnicate'\nusage: rewind show <log>"))
        let noInitial = run(["show", path, "--at", "0"])
        #expect(noInitial.status == 2)
        #expect(noInitial.error == "rewind show: todo.jsonl has no initial state (entries are 1–6)\n")
    }

    @Test func showOfAStateLostToDamageNamesTheCommandTheEntryAndWhyOnce() throws {
        // Line 3 (the second entry) is damaged: the states after it are unavailable until the next keyframe.
        let path = try LogFixture.todoLog(keyframeInterval: 5, damageLine: 3)
        let damaged = run(["show", path, "--at", "2"])
        #expect(damaged.status == 2)
        #expect(damaged.error == "rewind show: entry 2 of todo.jsonl is a damaged record (line 3: checksum mismatch or not a complete record)\n")
        let result = run(["show", path, "--at", "3"])
        #expect(result.status == 2)
        #expect(result.error == "rewind show: the state after entry 3 of todo.jsonl cannot be rebuilt: "
            + "it depends on line 3, which is damaged; states are available again from the next keyframe\n")
    }

    @Test func aLogWithOnlyItsHeaderHasNoEntriesToShowOrBlame() throws {
        let path = try LogFixture.write([])
        let show = run(["show", path, "--at", "1"])
        #expect(show.status == 2)
        #expect(show.error == "rewind show: no entry 1 (todo.jsonl has no entries)\n")
        let blame = run(["blame", path, "/todos"])
        #expect(blame.status == 0)
        #expect(blame.output == "No entry in todo.jsonl changed /todos\n")
        #expect(blame.error == "")
    }

    @Test func showAtZeroIsTheInitialStateWhenRecorded() throws {
        let path = try LogFixture.write([.init(type: "inc", payload: .null, state: ["count": 1])], initialState: ["count": 0])
        #expect(run(["show", path, "--at", "0"]).output == "{\n  \"count\": 0\n}\n")
        #expect(run(["show", path, "--at", "1"]).output == "{\n  \"count\": 1\n}\n")
    }

    @Test func statsCountsEntriesKeyframesDamageAndActionTypes() throws {
        let path = try LogFixture.todoLog(keyframeInterval: 3)
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
        let result = run(["stats", path])
        #expect(result.status == 0)
        #expect(result.output == """
            file:             \(path)
            size:             \(StatsCommand.formatBytes(Int64(size)))
            entries:          6
            keyframes:        2
            from effects:     1
            time span:        4.125s
            damaged records:  0
            gaps:             0
            actions by type:
              todo/add           2
              app/launch         1
              filter/set         1
              sync/loaded        1
              todo/toggle        1

            """)
    }

    @Test func statsAlignsWideActionNamesByColumnsAndLogEscapesControlCharacters() throws {
        let path = try LogFixture.write([
            .init(type: "日本語/set", payload: ["text": "bell\u{7}del\u{7f}"], state: ["n": 1]),
            .init(type: "a/b", payload: .null, state: ["n": 2]),
            .init(type: "a/b", payload: .null, state: ["n": 3]),
        ])
        let stats = run(["stats", path]).output
        #expect(stats.hasSuffix("""
            actions by type:
              a/b               2
              日本語/set        1

            """), "\(stats)")
        let log = run(["log", path]).output
        #expect(!log.unicodeScalars.contains { $0.value == 0x7F || $0.value == 0x07 })
        #expect(log.contains(#"日本語/set text: "bell\u0007del\u007f""#), "\(log)")
    }

    @Test func blameListsEntriesThatChangedAPathWithOldAndNewValues() throws {
        let path = try LogFixture.todoLog()
        let done = run(["blame", path, "/todos/0/done"])
        #expect(done.status == 0)
        #expect(done.output == """
              2   +0.500s  todo/add title: "Buy milk"  (absent) → false
              4   +2.000s  todo/toggle index: 0  false → true

            """)
        let filter = run(["blame", path, "/filter"])
        #expect(filter.output == "  5   +3.500s  filter/set filter: \"active\"  \"all\" → \"active\"\n")
        #expect(run(["blame", path, "/user"]).output == "No entry in todo.jsonl changed /user\n")
        let bad = run(["blame", path, "user"])
        #expect(bad.status == 2)
        #expect(bad.error == "rewind blame: invalid JSON Pointer \"user\": a JSON Pointer must be empty or start with '/'\n")
    }

    @Test func missingUnreadableAndNonLogFilesAreOneLineWithStatus2() throws {
        let directory = TemporaryDirectory()
        let notALog = directory.file("notes.txt")
        try Data("hello\n".utf8).write(to: URL(fileURLWithPath: notALog))
        let missing = directory.file("missing.jsonl")
        for command in [["show"], ["log"], ["stats"], ["open"], []] {
            for (path, reason) in [(missing, "no such file"), (notALog, "not a Rewind log (the first line is not a Rewind header)"),
                                   (directory.path, "is a directory, not a log file")] {
                // `rewind DIR` lists the recordings under it (RecordingListTests).
                if command == [] && path == directory.path { continue }
                let result = run(command + [path] + (command == [] ? [] : []))
                #expect(result.status == 2, "\(command) \(path)")
                #expect(result.error == "rewind: \(path): \(reason)\n", "\(command) \(path)")
                #expect(result.output == "")
            }
        }
        #expect(run(["blame", missing, "/a"]).error == "rewind: \(missing): no such file\n")
        #expect(run(["log"]).status == 2)
        #expect(run(["log"]).error == "rewind log: missing <log>\nusage: rewind log <log> [--from A] [--to B] [--width N] [--trace] [--full]\nSee 'rewind log --help'.\n")
        #expect(run(["stats", "a", "b"]).status == 2)
    }

    @Test func damagedAndTornLogsStillList() throws {
        let path = try LogFixture.todoLog(keyframeInterval: 3, damageLine: 4, tornTail: true)
        let result = run(["log", path])
        #expect(result.status == 0)
        // Line 4 holds entry 3; it is skipped and reported, the rest list.
        #expect(result.output.split(separator: "\n").count == 5)
        #expect(result.error.contains("line 4 is damaged"))
        #expect(result.error.contains("line 8 is cut off"))
        let stats = run(["stats", path]).output
        #expect(stats.contains("damaged records:  1 (and a torn last line)"))
    }
}
