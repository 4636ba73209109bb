import Foundation
import Testing
import Recorder
import RewindTestSupport
@testable import Inspector

/// A state whose encoding waits at a gate the first time (`count == 1`), to hold the
/// writer still while the app goes on and the `.drop` queue overflows; `depth` nests
/// a chain too deep for a log record, so that entry is recorded as a gap.
struct GappedCounter: Encodable {
    static let writerArrived = DispatchSemaphore(value: 0)
    static let release = DispatchSemaphore(value: 0)
    indirect enum Chain: Encodable { case end, link(Chain) }
    var count = 0
    var chain = Chain.end

    func encode(to encoder: any Encoder) throws {
        if count == 1 {
            GappedCounter.writerArrived.signal()
            GappedCounter.release.wait()
        }
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(count, forKey: .count)
        if case .link = chain { try container.encode(chain, forKey: .chain) }
    }

    private enum Keys: String, CodingKey { case count, chain }
}

/// What was not recorded is shown where it would have been, in every command: a
/// format-2 log written by today's recorder, with a `.drop` queue that overflowed
/// (entries 3–5 lost) and a state too deep for a record (entry 7), opened again
/// for a second session.
@Suite(.serialized) struct GapVisibilityTests {
    /// inc ×2 (1, 2) · 3–5 dropped · inc (6) · deep (7, not recorded) · inc (8) · [new session] inc (9).
    static func gappedLog() throws -> String {
        let path = TemporaryDirectory.forThisProcess.subdirectory("gaps-\(UUID().uuidString)") + "/gapped.jsonl"
        var options = ActionRecorder.Options()
        options.queueCapacity = 1
        options.queuePolicy = .drop
        options.clock = .fixed(start: 1_764_000_000, step: 0.5)
        let recorder = try ActionRecorder(file: path, options: options)
        let reducer = recorder.recording { (state: inout GappedCounter, action: String) in
            state.count += 1
            state.chain = action == "deep" ? (0..<400).reduce(.end) { chain, _ in .link(chain) } : .end
        }
        var state = GappedCounter()
        reducer(&state, "inc")                        // entry 1: the writer stops in its encoding
        GappedCounter.writerArrived.wait()
        for _ in 0..<4 { reducer(&state, "inc") }    // entry 2 waits in the queue; 3, 4 and 5 are dropped
        GappedCounter.release.signal()
        try recorder.flush()
        for action in ["inc", "deep", "inc"] {       // 6, 7 (too deep: a gap), 8
            reducer(&state, action)
            try recorder.flush()
        }
        try recorder.close()

        var later = ActionRecorder.Options()
        later.clock = .fixed(start: 1_764_003_600, step: 0.5)
        let second = try ActionRecorder(file: path, options: later)
        var more = GappedCounter(count: 100)
        second.recording { (state: inout GappedCounter, _: String) in state.count += 1 }(&more, "inc")  // 9
        try second.close()
        return path
    }

    private func run(_ arguments: String...) -> (status: Int32, output: String, error: String) {
        var streams = CapturedStreams()
        let status = RewindCommandLine.run(arguments, streams: &streams)
        return (status, streams.standardOutput, streams.standardError)
    }

    @Test func logShowsEachGapAndSessionWhereItHappenedAndEntriesKeepTheirNumbers() throws {
        let log = try Self.gappedLog()
        let lines = run("log", log).output.split(separator: "\n").map(String.init)
        #expect(lines.count == 8, "\(lines)")
        #expect(lines[0].hasPrefix("  1  "))
        #expect(lines[1].hasPrefix("  2  "))
        #expect(lines[2] == "3–5  not recorded (3 entries): the recording queue was full (queue policy .drop)")
        #expect(lines[3].hasPrefix("  6  "))
        #expect(lines[4].hasPrefix("  7  not recorded: entry 7 (String) was not recorded: it is nested"), "\(lines[4])")
        #expect(lines[5].hasPrefix("  8  "))
        #expect(lines[6] == "     ── new recording session 2025-11-24T17:00:00Z, " + ProcessInfo.processInfo.processName)
        #expect(lines[7].hasPrefix("  9  "))
    }

    @Test func statsCountsTheGapsAndWhatTheyCover() throws {
        let log = try Self.gappedLog()
        let text = run("stats", log).output
        #expect(text.contains("entries:          5 (and 4 entries not recorded)\n"))
        #expect(text.contains("gaps:             2 (4 entries not recorded)\n  entries 3–5: the recording queue was full (queue policy .drop)\n  entry 7: entry 7 (String) was not recorded: it is nested"))
        #expect(text.contains("sessions:         2 (the log was opened again 1 time)\n"))

        let json = try JSONParser.parse(run("stats", log, "--format", "json").output)
        #expect(json["entries"] == 5)
        #expect(json["notRecorded"] == 4)
        #expect(json["sessions"] == 2)
        #expect(json["gaps"]?[0]?["firstEntry"] == 3)
        #expect(json["gaps"]?[0]?["lastEntry"] == 5)
        #expect(json["gaps"]?[1]?["firstEntry"] == 7)
    }

    @Test func tailPrintsAGapWhereTheEntriesWouldBe() throws {
        let log = try Self.gappedLog()
        let text = run("tail", log, "-n", "all").output
        #expect(text.contains("not recorded: entries 3–5: the recording queue was full (queue policy .drop)\nreceived action:"))
        #expect(text.contains("── new recording session 2025-11-24T17:00:00Z"))
        let json = run("tail", log, "-n", "all", "--format", "json").output.split(separator: "\n").map { try? JSONParser.parse(String($0)) }
        #expect(json.compactMap { $0?["entry"]?.int64Value } == [1, 2, 6, 8, 9])
        #expect(json.contains { $0?["kind"] == "gap" && $0?["firstEntry"] == 3 && $0?["lastEntry"] == 5 })
    }

    @Test func findAndBisectSayWhatTheGapsKeptFromThem() throws {
        let log = try Self.gappedLog()
        let found = run("find", log, "/count >= 6")
        #expect(found.output.split(separator: "\n").map { $0.prefix(3) } == ["  6", "  8", "  9"])
        #expect(found.error.contains("gapped.jsonl: 4 entries were not recorded (3–5, 7) and could not be searched"))
        let bisect = run("bisect", log, "/count < 6")
        #expect(bisect.output.hasPrefix("/count < 6 stops holding at entry 6 of gapped.jsonl (it held for entries 1–2); entries 3–5 before it were not recorded or damaged"), "\(bisect.output)")
        let holds = run("bisect", log, "/count > 0")
        #expect(holds.status == 3, "not every entry was checked: some were never recorded")
    }

    @Test func blameSaysAChangeMayLieInAGap() throws {
        let log = try Self.gappedLog()
        let text = run("blame", log, "/count").output
        #expect(text.contains("(across a gap: entries 3–5 not recorded)"), "\(text)")
        #expect(text.contains("note: entries 3–5, 7 were not recorded; a change to /count there is not listed"))
        // The second session started from count 100: its first entry changed 100 to 101, not 8 to 101.
        #expect(text.contains("  9    +1h00m  String \"inc\"  100 → 101  (a new recording session starts here)\n"), "\(text)")
    }

    @Test func aMarkdownReportSaysItsDiffSpansAGap() throws {
        let log = try Self.gappedLog()
        let report = run("export", log, "--from", "2", "--to", "6").output
        #expect(report.contains("- **Not recorded:** entries 3–5 not recorded: the recording queue was full"), "\(report)")
        #expect(report.contains("(entry 6)\n\n> **Not recorded before this entry:** entries 3–5"))
    }

    @Test func entryNumbersInOptionsAreTheRecordedOnes() throws {
        let log = try Self.gappedLog()
        #expect(run("show", log, "--at", "6", "--path", "/count").output == "6\n")
        let lost = run("show", log, "--at", "4")
        #expect(lost.status == 2)
        #expect(lost.error == "rewind show: entry 4 of gapped.jsonl was not recorded (entries 3–5 not recorded: the recording queue was full (queue policy .drop))\n")
        #expect(run("show", log, "--at", "10").error == "rewind show: no entry 10 (gapped.jsonl has entries 1–9)\n")
        // A range that starts in a gap starts after it.
        #expect(run("export", log, "--format", "jsonl", "--from", "4", "--to", "6").output.contains(#""seq":5"#))
    }

    /// The inspector as `rewind` opens it: a row for each gap and each later session.
    static func inspector(_ log: String) throws -> InspectorModel {
        InspectorFixtures.model(try LogTimeline(path: log, keepsDamagedRows: true), columns: 100, rows: 14)
    }

    @Test func theInspectorShowsEachGapAndSessionAsARowAndEntriesKeepTheirNumbers() throws {
        var model = try Self.inspector(try Self.gappedLog())
        model.type("jj")                                    // onto the gap's row
        #expect(model.screenText == """
             Timeline  9 entries                     ▇▇╌▇╌▇██ │ State  (entries 3–5 not recorded)
               1  +0.000s   String "inc"                   ±1 │ State unavailable: entries 3–5 were not
               2  +0.500s   String "inc"                   ±1 │ recorded: the recording queue was full (queue
             3–5 ⋯ not recorded (3 entries): the recording qu…│ policy .drop)
               6  +2.500s   String "inc"                   ±1 │
               7 ⋯ not recorded: entry 7 (String) was not rec…│
               8  +3.500s   String "inc"                   ±1 │ Diff
                 ── new recording session 2025-11-24T17:00:00…│ Nothing to diff: entries 3–5 were not recorded;
               9   +1h00m   String "inc"                   ±1 │ the next entry's diff starts from the last state
                                                              │ recorded before
                                                              │
                                                              │
             gapped.jsonl  │  entries 3–5/9 (not recorded)  │  timeline
            ? help  q quit  : jump  Tab pane  / search  f filter  m mark  d diff  e export  F follow  p action
            """)
        model.type(":4\n")                                  // a number the gap stands for: its row, and why
        #expect(model.selection == 2)
        #expect(model.screenText.hasSuffix("Entry 4 was not recorded (entries 3–5: the recording queue was full (queue policy .drop))"))
        model.type("p")                                     // the action view of a gap's row: no action, and why
        #expect(model.screenText.contains("│ Action 3–5  (p: back to the state)\n"))
        #expect(model.screenText.contains("│ No action: entries 3–5 were not recorded: the\n"))
        model.type("p")
        model.type(":8\n")
        #expect(model.view.state?["count"] == 8)
        #expect(model.screenText.contains(" gapped.jsonl  │  entry 8/9  │"))
    }

    @Test func aDiffAcrossAGapStartsFromTheLastRecordedStateAndSaysItSpansTheGap() throws {
        var model = try Self.inspector(try Self.gappedLog())
        model.type(":6\n")
        #expect(model.screenText == """
             Timeline  9 entries                     ▇▇╌▇╌▇██ │ State after 6
               1  +0.000s   String "inc"                   ±1 │●  count: 6
               2  +0.500s   String "inc"                   ±1 │
             3–5 ⋯ not recorded (3 entries): the recording qu…│
               6  +2.500s   String "inc"                   ±1 │
               7 ⋯ not recorded: entry 7 (String) was not rec…│
               8  +3.500s   String "inc"                   ±1 │ Diff  2 → 6  (across a gap: entries 3–5 not reco
                 ── new recording session 2025-11-24T17:00:00…│ @ /count
               9   +1h00m   String "inc"                   ±1 │ - 2
                                                              │ + 6
                                                              │
                                                              │
             gapped.jsonl  │  entry 6/9  │  timeline
            ? help  q quit  : jump  Tab pane  / search  f filter  m mark  d diff  e export  F follow  p action
            """)
        // Marking across the gap names the recorded numbers too.
        model.type(":2\nm:8\nd")
        #expect(model.screenText.contains("│ Diff  2 → 8\n"))
        #expect(model.screenText.hasSuffix("Diff: entry 2 → entry 8; d again for the action's own diff"))
    }

    @Test func aNewSessionsFirstDiffStartsFromTheStateTheSessionStartedFrom() throws {
        var model = try Self.inspector(try Self.gappedLog())
        model.type(":9\n")
        #expect(model.screenText.contains("│ Diff  session start → 9\n"))
        #expect(model.screenText.contains("│ - 100\n"), "the second session started from count 100, not the first session's 8")
        model.type("k")                                     // the session's own row
        #expect(model.screenText.contains("│ State at the start of a new session\n"))
        #expect(model.view.diffError == "A new recording session 2025-11-24T17:00:00Z, \(ProcessInfo.processInfo.processName) starts here: the log was opened again")
        #expect(model.screenText.contains(" gapped.jsonl  │  new session (before entry 9/9)  │"))
    }

    @Test func changedPathsAreUnambiguous() throws {
        let path = try LogFixture.write([
            .init(type: "load", payload: .null, state: ["x": 1]),
            .init(type: "name", payload: .null, state: ["x": 1, "a b": 2]),
            .init(type: "replace", payload: .null, state: [1]),             // the whole state replaced (ReSwiftInit's first entry)
        ], keyframeInterval: 100)
        let lines = run("log", path).output.split(separator: "\n")
        #expect(lines[1].hasSuffix(#"name  changed "/a b""#), "a path with a space is quoted: \(lines[1])")
        #expect(lines[2].hasSuffix("replace  changed (the whole state)"), "not a dangling 'changed ': \(lines[2])")
    }

    @Test func longActionSummariesAreCutToTheWidthUnlessFull() throws {
        let path = try LogFixture.write([.init(type: "note", payload: .string(String(repeating: "x", count: 5_000)), state: ["n": 1])])
        let cut = run("log", path).output
        #expect(cut.split(separator: "\n").allSatisfy { TerminalWidth.of($0) <= 120 })
        #expect(cut.contains("…"))
        #expect(run("log", path, "--full").output.contains(String(repeating: "x", count: 5_000)))
    }
}
