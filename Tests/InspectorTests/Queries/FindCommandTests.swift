import Foundation
import Testing
import Recorder
import RewindQuery
@testable import Inspector

/// `rewind find` over the todo recording (LogFixture.todoLog):
///   1 app/launch · 2 todo/add "Buy milk" · 3 todo/add "Write tests" · 4 todo/toggle index 0
///   5 filter/set "active" · 6 sync/loaded (3 todos).
@Suite struct FindCommandTests {
    func find(_ arguments: [String]) -> (status: Int32, output: String, error: String) {
        var streams = CapturedStreams()
        let status = RewindCommandLine.run(["find"] + arguments, streams: &streams)
        return (status, streams.standardOutput, streams.standardError)
    }

    /// Entry numbers at the start of each output line.
    func numbers(_ output: String) -> [Int] {
        output.split(separator: "\n").compactMap { Int($0.split(separator: " ").first ?? "") }
    }

    @Test func listsTheEntriesWhoseStateMatches() throws {
        let log = try LogFixture.todoLog()
        let result = find([log, "/todos length >= 2"])
        #expect(result.status == 0)
        #expect(result.output == """
              3   +1.250s  todo/add title: "Write tests"
              4   +2.000s  todo/toggle index: 0
              5   +3.500s  filter/set filter: "active"
              6   +4.125s  sync/loaded count: 3

            """)
        #expect(numbers(find([log, #"action == todo/* and /todos/0/title contains "milk""#]).output) == [2, 3, 4])
        #expect(numbers(find([log, "changed /filter"]).output) == [5])
    }

    @Test func firstChangesAndCount() throws {
        let log = try LogFixture.todoLog()
        #expect(numbers(find([log, "/todos/0/done == true", "--first"]).output) == [4])
        let changes = find([log, #"/filter == "active" or /todos length == 1"#, "--changes"])
        #expect(changes.output == """
              2   +0.500s  todo/add title: "Buy milk"  → true
              3   +1.250s  todo/add title: "Write tests"  → false
              5   +3.500s  filter/set filter: "active"  → true

            """)
        #expect(find([log, "exists /user", "--count"]).output == "6\n")
    }

    @Test func nothingMatchingExitsOne() throws {
        let log = try LogFixture.todoLog()
        let result = find([log, "/todos length > 10"])
        #expect(result.status == 1)
        #expect(result.output == "No entry of todo.jsonl matches /todos length > 10\n")
        let count = find([log, "/todos length > 10", "--count"])
        #expect(count.status == 1)
        #expect(count.output == "0\n")
    }

    @Test func badInputExitsTwoWithOneLineOrTheUsageError() throws {
        let log = try LogFixture.todoLog()
        let usage = "usage: rewind find <log|dir> '<query>' [--first] [--changes] [--count]\nSee 'rewind find --help'.\n"
        let cases: [([String], String)] = [
            ([log, "/todos length >"], "rewind find: bad query at column 16: found the end of the query where a path or a value should be\n"),
            ([log], "rewind find: missing '<query>'\n" + usage),
            ([log, "exists /a", "--last"], "rewind find: unknown option '--last'\n" + usage),
            ([log, "exists /a", "--first", "--changes"], "rewind find: --first and --changes cannot be combined\n" + usage),
            (["/no/such.jsonl", "exists /a"], "rewind: /no/such.jsonl: no such file\n"),
        ]
        for (arguments, message) in cases {
            let result = find(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.error == message)
            #expect(result.output.isEmpty)
        }
        #expect(find(["--help"]).output.hasPrefix("usage: rewind find <log|dir> '<query>'"))
    }

    /// A query as deep or as long as the language allows is searched like any
    /// other (compiled for the scan, on worker threads); one past a limit is a
    /// bad query, where it used to overflow the stack (docs/QUERIES.md, "Limits").
    @Test func queriesAtTheLimitsAreSearchedAndPastThemAreBadQueries() throws {
        let log = try LogFixture.todoLog()
        let condition = "/todos length >= 2"
        for text in [QueriesAtTheLimits.parenthesized(condition, levels: 256), QueriesAtTheLimits.negated(condition, times: 256),
                     QueriesAtTheLimits.orChain(endingWith: condition, count: 1_000), QueriesAtTheLimits.deepest(condition)] {
            let result = find([log, text])
            #expect(result.status == 0)
            #expect(numbers(result.output) == [3, 4, 5, 6])
            #expect(find([URL(fileURLWithPath: log).deletingLastPathComponent().path, text, "--count"]).output.hasSuffix("todo.jsonl: 4\n"))
        }
        let refused: [(String, String)] = [
            (QueriesAtTheLimits.parenthesized(condition, levels: 4_000), "column 257: \(QueriesAtTheLimits.tooDeep)"),
            (QueriesAtTheLimits.negated(condition, times: 257), "column 1025: \(QueriesAtTheLimits.tooDeep)"),
            (QueriesAtTheLimits.orChain(endingWith: condition, count: 3_000), "column \(QueriesAtTheLimits.firstConditionTooMany): \(QueriesAtTheLimits.tooMany)"),
            (QueriesAtTheLimits.orChain(endingWith: condition, count: 100_000), "column 65537: \(QueriesAtTheLimits.tooLong)"),
        ]
        for (text, message) in refused {
            let result = find([log, text])
            #expect(result.status == 2)
            #expect(result.error == "rewind find: bad query at \(message)\n")
            #expect(result.output.isEmpty)
        }
    }

    /// A path as long as a query may hold (16,000 tokens, 32 KB) is read in time and
    /// memory in proportion to its length: it took 44 s and 2 GB when every ancestor
    /// of a watched path kept a pointer of its own.
    @Test func aPathOfSixteenThousandTokensIsSearched() throws {
        let tokens = Array(repeating: "a", count: 16_000)
        var deep: JSONValue = 7
        for token in tokens.dropFirst(16_000 - 400).reversed() { deep = .object(JSONObject([(token, deep)])) }
        let log = try LogFixture.write([LogFixture.Step(type: "set", payload: .null, state: ["a": 1]),
                                        LogFixture.Step(type: "deep", payload: .null, state: deep)], initialState: ["a": 0])
        let longest = "/" + tokens.joined(separator: "/")
        #expect(longest.utf8.count == 32_000)
        let result = find([log, "exists \(longest) or /a == 1"])
        #expect(result.status == 0 && result.error.isEmpty, "\(result.error)")
        #expect(numbers(result.output) == [1])
        // As deep as a state may nest: found.
        let reachable = "/" + Array(repeating: "a", count: 400).joined(separator: "/")
        #expect(numbers(find([log, "\(reachable) == 7"]).output) == [2])
    }

    /// A misspelt path matches nothing: find says the path is in neither the first nor the
    /// last state and suggests the closest one there.
    @Test func aPathInNoStateIsNamedWithTheClosestPathThere() throws {
        let log = try LogFixture.todoLog()
        let result = find([log, #"/todos/0/titel == "Buy milk""#])
        #expect(result.status == 1)
        #expect(result.output == """
            No entry of todo.jsonl matches /todos/0/titel == "Buy milk"
            note: /todos/0/titel is in neither the first nor the last state (did you mean /todos/0/title?)

            """)
    }

    /// A 32 KB path that matches nothing gets two readable lines, not 64 KB of text and a
    /// suggestion search costing its length times every path of the state.
    @Test func aLongPathInNoStateIsShownCutAndGetsNoSuggestion() throws {
        let log = try LogFixture.todoLog()
        let longest = "/" + Array(repeating: "a", count: 16_000).joined(separator: "/")
        let result = find([log, "\(longest) == 1"])
        #expect(result.status == 1)
        let lines = result.output.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { $0.count < 260 && $0.contains("…") })
        #expect(lines.last?.hasSuffix("is in neither the first nor the last state") == true)
    }

    /// Chunks scanned on several threads (each starting from a rebuilt state)
    /// find exactly what reading every state with `state(at:)` finds, damage included.
    @Test func parallelChunksAgreeWithStateAtEveryEntry() throws {
        var steps: [LogFixture.Step] = []
        var state: JSONValue = ["count": 0, "items": []]
        for index in 0..<300 {
            var items = state["items"]!.arrayValue!
            if index % 7 == 3, !items.isEmpty { items.removeFirst() } else { items.append(.integer(Int64(index))) }
            state = ["count": .integer(Int64(index * 37 % 101)), "items": .array(items)]
            steps.append(LogFixture.Step(type: index % 5 == 0 ? "tick/big" : "tick/small", payload: .null, state: state))
        }
        let log = try LogFixture.write(steps, keyframeInterval: 16, initialState: ["count": 0, "items": []], damageLine: 120, name: "counts.jsonl")
        let reader = try LogReader(path: log)
        for text in ["/count > 50 and /items length < 30", "changed /count and action == tick/big", "/items/0 == 12 or not exists /items/3"] {
            let query = try Query(parsing: text)
            var expected: [Int] = []
            var unavailable = 0
            for index in 0..<reader.entryCount {
                guard let after = try? reader.state(at: index) else { unavailable += 1; continue }
                let before = index == 0 ? reader.header.initialState : try? reader.state(at: index - 1)
                let input = QueryInput(state: after, previousState: before, actionType: try reader.entry(at: index).action.name)
                if query.matches(input) { expected.append(index) }
            }
            #expect(unavailable > 0, "the damaged line makes some states unavailable")
            for (chunk, workers) in [(7, 3), (64, 2), (100_000, 1)] {
                var scan = QueryScan(reader: reader, query: query, mode: .matches)
                scan.chunkEntries = chunk
                scan.workers = workers
                var found: [Int] = []
                var skipped = 0
                scan.run { report in
                    found += report.hits.map(\.index)
                    skipped += report.unavailable
                    return true
                }
                #expect(found == expected, "\(text), chunks of \(chunk)")
                #expect(skipped == unavailable)
            }
        }
    }

    /// On random logs with damage, gaps and patches of every kind, `--count` and the
    /// listing print what the engine finds (held to every rebuilt state by
    /// `QueryScanAgreementTests`), and `find DIR` (one pass per recording) lists the log's own lines.
    @Test func theCommandPrintsWhatTheEngineFinds() throws {
        var matched = 0
        for (log, text) in try RandomLog.queries(seed: 4242, logs: 4, entries: 150, queriesPerLog: 6) {
            var found: [Int] = []
            QueryScan(reader: try LogReader(path: log), query: try Query(parsing: text), mode: .matches).run { report in
                found += report.hits.map(\.index)
                return true
            }
            let counted = find([log, text, "--count"])
            #expect(counted.output == "\(found.count)\n", "\(text)")
            #expect(counted.status == (found.isEmpty ? 1 : 0))
            guard !found.isEmpty else { continue }
            matched += found.count
            let single = find([log, text]).output
            // Numbered as recorded: the numbers gaps stand for are skipped.
            let timeline = try LogTimeline(path: log)
            #expect(numbers(single) == found.map(timeline.entryNumber(at:)), "\(text)")
            let inDirectory = find([(log as NSString).deletingLastPathComponent, text]).output
            #expect(inDirectory == single.split(separator: "\n").map { log + "  " + $0 + "\n" }.joined(), "\(text): find DIR")
        }
        #expect(matched > 20, "the conditions are not all false")
    }

    @Test func changesAreStitchedAcrossChunks() throws {
        let steps = (0..<40).map { index in
            LogFixture.Step(type: "set", payload: .null, state: ["on": .bool((index / 5) % 2 == 1)])
        }
        let log = try LogFixture.write(steps, keyframeInterval: 4, initialState: ["on": false])
        let reader = try LogReader(path: log)
        var scan = QueryScan(reader: reader, query: try Query(parsing: "/on == true"), mode: .changes)
        scan.chunkEntries = 3
        scan.workers = 2
        var flips: [QueryScan.Hit] = []
        scan.run { flips += $0.hits; return true }
        let expected = stride(from: 5, to: 40, by: 5).map { QueryScan.Hit(index: $0, truth: ($0 / 5) % 2 == 1) }
        #expect(flips == expected)
    }

    @Test func searchesEveryRecordingUnderADirectory() throws {
        let first = try LogFixture.todoLog()
        let directory = (first as NSString).deletingLastPathComponent
        let nested = (directory as NSString).appendingPathComponent("ci/run-2")
        try FileManager.default.createDirectory(atPath: nested, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: first, toPath: (nested as NSString).appendingPathComponent("again.jsonl"))
        try Data("not a log\n".utf8).write(to: URL(fileURLWithPath: (directory as NSString).appendingPathComponent("notes.txt")))
        try Data(#"{"kind":"header","format":"rewind"}"#.utf8).write(to: URL(fileURLWithPath: (directory as NSString).appendingPathComponent("broken.jsonl")))
        // Hidden files and folders (a tool's own) are not searched; a link to a log is, as `rewind ls` lists it.
        let hidden = (directory as NSString).appendingPathComponent(".cache")
        try FileManager.default.createDirectory(atPath: hidden, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: first, toPath: (hidden as NSString).appendingPathComponent("kept.jsonl"))
        try FileManager.default.copyItem(atPath: first, toPath: (directory as NSString).appendingPathComponent(".again.jsonl"))
        try FileManager.default.createSymbolicLink(atPath: (directory as NSString).appendingPathComponent("link.jsonl"), withDestinationPath: first)

        let result = find([directory, "/todos/0/done == true", "--first"])
        #expect(result.status == 0)
        #expect(result.output == """
            \(directory)/ci/run-2/again.jsonl    4   +2.000s  todo/toggle index: 0
            \(directory)/link.jsonl    4   +2.000s  todo/toggle index: 0
            \(directory)/todo.jsonl    4   +2.000s  todo/toggle index: 0

            """)
        #expect(result.error.hasPrefix("rewind find: \(directory)/broken.jsonl: "))
        #expect(result.error.split(separator: "\n").count == 1, "the file that is not a log is skipped quietly")
        #expect(find([directory, "exists /todos/1", "--count"]).output == "\(directory)/ci/run-2/again.jsonl: 4\n\(directory)/link.jsonl: 4\n\(directory)/todo.jsonl: 4\n")
        let none = find([directory, "exists /nothing"])
        #expect(none.status == 1)
        #expect(none.output == "No entry in the 4 recordings under \(directory) matches exists /nothing\n")
        let emptyFolder = TemporaryDirectory()
        let empty = emptyFolder.path
        let nothing = find([empty, "exists /a"])
        #expect(nothing.status == 2)
        #expect(nothing.error == "rewind find: \(empty): no Rewind recordings in this directory\n")
        // Files, none of them a recording (one empty): the same, once each was looked at.
        try Data("not a log\n".utf8).write(to: URL(fileURLWithPath: emptyFolder.file("notes.txt")))
        try Data().write(to: URL(fileURLWithPath: emptyFolder.file("empty.jsonl")))
        let noLogs = find([empty, "exists /a", "--count"])
        #expect(noLogs.status == 2)
        #expect(noLogs.output.isEmpty)
        #expect(noLogs.error == "rewind find: \(empty): no Rewind recordings in this directory\n")
    }
}
