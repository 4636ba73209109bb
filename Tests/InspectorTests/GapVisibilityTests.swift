import Foundation
import Testing
import Recorder
import RewindTestSupport
@testable import Inspector

/// What was not recorded is shown where it would have been, in every command: a
/// format-2 log written by today's recorder, with a `.drop` queue that overflowed
/// (entries 3–5 lost) and a state too deep for a record (entry 7), opened again
/// for a second session.
@Suite struct GapVisibilityTests {
    /// inc ×2 (1, 2) · 3–5 dropped · inc (6) · deep (7, not recorded) · inc (8) · [new session] inc (9).
    static func gappedLog() throws -> String { try GappedCounter.writeLog() }

    private func run(_ arguments: String...) -> (status: Int32, output: String, error: String) {
        var streams = CapturedStreams()
        let status = RewindCommandLine.run(arguments, streams: &streams)
        return (status, streams.standardOutput, streams.standardError)
    }

    @Test func logShowsEachGapAndSessionWhereItHappenedAndEntriesKeepTheirNumbers() throws {
        let log = try Self.gappedLog()
        let lines = run("log", log).output.split(separator: "\n").map(String.init)
        #expect(lines.count == 9, "\(lines)")
        #expect(lines[0].hasPrefix("  1  "))
        #expect(lines[1].hasPrefix("  2  "))
        #expect(lines[2] == "3–5  not recorded (3 entries): the recording queue was full (queue policy .drop)")
        #expect(lines[3].hasPrefix("  6  "))
        // Said once: the numbers in their column, then why (not "7  not recorded: entry 7 (String) was not recorded: it is …").
        #expect(lines[4] == "  7  not recorded: the state after deep is nested 803 levels deep; a log record holds at most 509")
        #expect(lines[5].hasPrefix("  8  "))
        #expect(lines[6] == "     ── new recording session 2025-11-24T17:00:00Z, " + ProcessInfo.processInfo.processName)
        #expect(lines[7].hasPrefix("  9  "))
        #expect(lines[8].hasPrefix(" 10  "))
    }

    @Test func statsCountsTheGapsAndWhatTheyCover() throws {
        let log = try Self.gappedLog()
        let text = run("stats", log).output
        #expect(text.contains("entries:          6 (and 4 entries not recorded)\n"))
        #expect(text.contains("gaps:             2 (4 entries not recorded)\n  entries 3–5: the recording queue was full (queue policy .drop)\n  entry 7: the state after deep is nested 803 levels deep; a log record holds at most 509\n"))
        #expect(text.contains("sessions:         2 (the log was opened again 1 time)\n"))

        let json = try JSONParser.parse(run("stats", log, "--format", "json").output)
        #expect(json["entries"] == 6)
        #expect(json["notRecorded"] == 4)
        #expect(json["sessions"] == 2)
        #expect(json["gaps"]?[0]?["firstEntry"] == 3)
        #expect(json["gaps"]?[0]?["lastEntry"] == 5)
        #expect(json["gaps"]?[1]?["firstEntry"] == 7)
    }

    @Test func tailPrintsAGapWhereTheEntriesWouldBeAndANewSessionFromTheStateItStartedWith() throws {
        let log = try Self.gappedLog()
        let text = run("tail", log, "-n", "all").output
        #expect(text.contains("\nentries 3–5 were not recorded: the recording queue was full (queue policy .drop)\nreceived action:"))
        #expect(text.contains("\nentry 7 was not recorded: the state after deep is nested 803 levels deep; a log record holds at most 509\nreceived action:"))
        #expect(text.contains("── new recording session 2025-11-24T17:00:00Z"))
        let json = run("tail", log, "-n", "all", "--format", "json").output.split(separator: "\n").map { try? JSONParser.parse(String($0)) }
        #expect(json.compactMap { $0?["entry"]?.int64Value } == [1, 2, 6, 8, 9, 10])
        #expect(json.contains { $0?["kind"] == "gap" && $0?["firstEntry"] == 3 && $0?["lastEntry"] == 5 })
        // A new session's first entry changed the state that session started with (count 100), not the last one before it.
        #expect(text.contains("── new recording session 2025-11-24T17:00:00Z, \(ProcessInfo.processInfo.processName)\nreceived action:\n  inc\n"
                              + "  {\n-   \"count\": 100\n+   \"count\": 101\n    … (1 unchanged)\n  }\n"), "\(text)")
        #expect(json.first { $0?["entry"] == 9 }??["patch"] == [["op": "replace", "path": "/count", "value": 101]])
    }

    @Test func findAndBisectSayWhatTheGapsKeptFromThem() throws {
        let log = try Self.gappedLog()
        let found = run("find", log, "/count >= 6")
        #expect(found.output.split(separator: "\n").map { $0.prefix(3) } == ["  6", "  8", "  9"])
        #expect(found.error.contains("gapped.jsonl: 4 entries were not recorded (3–5, 7) and could not be searched"))
        let bisect = run("bisect", log, "/count < 6")
        #expect(bisect.output.hasPrefix("/count < 6 stops holding at entry 6 of gapped.jsonl (it held for entries 1–2); entries 3–5 before it were not recorded or damaged"), "\(bisect.output)")
        let holds = run("bisect", log, "/count >= 0")
        #expect(holds.status == 3, "not every entry was checked: some were never recorded")
    }

    @Test func blameSaysAChangeMayLieInAGap() throws {
        let log = try Self.gappedLog()
        let text = run("blame", log, "/count").output
        #expect(text.contains("(across a gap: entries 3–5 not recorded)"), "\(text)")
        #expect(text.contains("note: entries 3–5, 7 were not recorded; a change to /count there is not listed"))
        // The second session started from count 100: its first entry changed 100 to 101, not 8 to 101.
        #expect(text.contains("  9    +1h00m  inc  100 → 101  (a new recording session starts here)\n"), "\(text)")
    }

    @Test func aMarkdownReportSaysWhereItsDiffsSpanAGapOrStartANewSession() throws {
        let log = try Self.gappedLog()
        let report = run("export", log, "--from", "2", "--to", "8").output
        #expect(report.contains("- **Not recorded:** entries 3–5: the recording queue was full (queue policy .drop); "
                                + "entry 7: the state after deep is nested 803 levels deep; a log record holds at most 509\n"), "\(report)")
        #expect(report.contains("(entry 6)\n\n> **Not recorded before this entry:** entries 3–5: the recording queue was full (queue policy .drop). "
                                + "The changes below span them.\n"))
        #expect(report.contains("(entry 8)\n\n> **Not recorded before this entry:** entry 7: the state after deep is nested 803 levels deep; "
                                + "a log record holds at most 509. The changes below span it.\n"))
        // A new session's first entry: from the state that session started with.
        let reopened = run("export", log, "--from", "8", "--to", "10").output
        #expect(reopened.contains("""
            ### 2. `inc` (entry 9)

            > **A new recording session starts here:** the log was opened again; the changes below are from the state it started with.

            Payload: `{"inc":{}}`

            ```diff
              {
            -   "count": 100
            +   "count": 101
                … (1 unchanged)
              }
            ```
            """), "\(reopened)")
    }

    @Test func entryNumbersInOptionsAreTheRecordedOnes() throws {
        let log = try Self.gappedLog()
        #expect(run("show", log, "--at", "6", "--path", "/count").output == "6\n")
        let lost = run("show", log, "--at", "4")
        #expect(lost.status == 2)
        #expect(lost.error == "rewind show: entries 3–5 of gapped.jsonl were not recorded: the recording queue was full (queue policy .drop)\n")
        #expect(run("show", log, "--at", "7").error
                == "rewind show: entry 7 of gapped.jsonl was not recorded: the state after deep is nested 803 levels deep; a log record holds at most 509\n")
        #expect(run("show", log, "--at", "11").error == "rewind show: no entry 11 (gapped.jsonl has entries 1–10)\n")
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
             Timeline  10 entries                   ▂▂╌▂╌▂███ │ State  (entries 3–5 not recorded)
               1  +0.000s   inc                            ±1 │ State unavailable: entries 3–5 were not
               2  +0.500s   inc                            ±1 │ recorded: the recording queue was full (queue
             3–5 ⋯ not recorded (3 entries): the recording qu…│ policy .drop)
               6  +2.500s   inc                            ±1 │
               7 ⋯ not recorded: the state after deep is nest…│
               8  +3.500s   inc                            ±1 │ Diff
                 ── new recording session 2025-11-24T17:00:00…│ Nothing to diff: entries 3–5 were not recorded;
               9   +1h00m   inc                            ±1 │ the next entry's diff starts from the last state
              10   +1h00m   reset                          ±1 │ recorded before
                                                              │
                                                              │
             gapped.jsonl  │  entries 3–5/10 (not recorded)  │  timeline
            ? help  q quit  : jump  Tab pane  / search  f filter  m mark  d diff  e export  F follow  p action
            """)
        model.type(":4\n")                                  // a number the gap stands for: its row, and why
        #expect(model.timeline.selection == 2)
        #expect(model.screenText.hasSuffix("Entries 3–5 were not recorded: the recording queue was full (queue policy .drop)"))
        model.type("p")                                     // the action view of a gap's row: no action, and why
        #expect(model.screenText.contains("│ Action 3–5  (p: back to the state)\n"))
        #expect(model.screenText.contains("│ No action: entries 3–5 were not recorded: the\n"))
        model.type("p")
        model.type(":8\n")
        #expect(model.view.state?.value["count"] == 8)
        #expect(model.screenText.contains(" gapped.jsonl  │  entry 8/10  │"))
    }

    @Test func anEntryOverALimitSaysWhyOnceInItsRowItsStateAndTheMessage() throws {
        var model = try Self.inspector(try Self.gappedLog())
        model.type(":7\n")
        #expect(model.screenText == """
             Timeline  10 entries                   ▂▂╌▂╌▂███ │ State  (entry 7 not recorded)
               1  +0.000s   inc                            ±1 │ State unavailable: entry 7 was not recorded: the
               2  +0.500s   inc                            ±1 │ state after deep is nested 803 levels deep; a
             3–5 ⋯ not recorded (3 entries): the recording qu…│ log record holds at most 509
               6  +2.500s   inc                            ±1 │
               7 ⋯ not recorded: the state after deep is nest…│
               8  +3.500s   inc                            ±1 │ Diff
                 ── new recording session 2025-11-24T17:00:00…│ Nothing to diff: entry 7 was not recorded; the
               9   +1h00m   inc                            ±1 │ next entry's diff starts from the last state
              10   +1h00m   reset                          ±1 │ recorded before
                                                              │
                                                              │
            Entry 7 was not recorded: the state after deep is nested 803 levels deep; a log record holds at
            most 509
            """)
    }

    @Test func aDiffAcrossAGapStartsFromTheLastRecordedStateAndSaysItSpansTheGap() throws {
        var model = try Self.inspector(try Self.gappedLog())
        model.type(":6\n")
        #expect(model.screenText == """
             Timeline  10 entries                   ▂▂╌▂╌▂███ │ State after 6
               1  +0.000s   inc                            ±1 │●  count: 6
               2  +0.500s   inc                            ±1 │
             3–5 ⋯ not recorded (3 entries): the recording qu…│
               6  +2.500s   inc                            ±1 │
               7 ⋯ not recorded: the state after deep is nest…│
               8  +3.500s   inc                            ±1 │ Diff  2 → 6  (across a gap: entries 3–5 not reco
                 ── new recording session 2025-11-24T17:00:00…│ @ /count
               9   +1h00m   inc                            ±1 │ - 2
              10   +1h00m   reset                          ±1 │ + 6
                                                              │
                                                              │
             gapped.jsonl  │  entry 6/10  │  timeline
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
        #expect(model.screenText.contains(" gapped.jsonl  │  new session (before entry 9/10)  │"))
    }

    @Test func bisectInTheInspectorNamesTheEntryByItsRecordedNumber() throws {
        let timeline = try LogTimeline(path: try Self.gappedLog(), keepsDamagedRows: true)
        var model = InspectorFixtures.model(timeline, columns: 100, rows: 14)
        let runner = EffectRunner(source: timeline, directory: TemporaryDirectory().path)
        model.type(":bisect /count < 7\n", running: runner)
        #expect(model.screenText.contains("│ State after 8\n"))    // the message is long: it takes the status row too
        #expect(model.overlays.message == "/count < 7 stops holding at entry 8 (inc); entries 3–5 and 7 could not be checked (no state), so it may stop holding earlier")
        model.type(":bisect /count >= 0\n", running: runner)
        #expect(model.overlays.message == "/count >= 0 holds at every entry that could be checked; entries 3–5 and 7 could not be (no state)")
    }

    @Test func replayEditsNameEntriesByTheirRecordedNumbers() throws {
        let log = try Self.gappedLog()
        // Entry 9 (the second session's keyframe) damaged: the state of entry 10, a patch to it, cannot be had.
        var lines = readLines(log)
        lines[8] = lines[8].replacingOccurrences(of: #""count":101"#, with: #""count":102"#)
        writeBytes(Array(lines.joined(separator: "\n").utf8), to: log)
        let workbench = ReplayWorkbench(reader: try LogReader(path: log), reducer: GappedCounter.reduce)
        do {
            _ = try workbench.dispatch(actionJSON: #"{"inc":{}}"#, at: 4)
            Issue.record("dispatched on a state that cannot be had")
        } catch {
            #expect(error.description.hasPrefix("the state at entry 10 cannot be restored: "), "\(error)")
        }
        // Skipping the first entry of a log that holds no state before it (its first two entries were not recorded).
        struct Counted: Codable { var n: Int }
        let late = ReplayWorkbench(reader: try LogReader(path: LogFixture.write([.init(type: "load", payload: .null, state: ["n": 1])],
                                                                              gaps: [0: .init(dropped: 2, reason: nil)])),
                                   reducer: { (_: inout Counted, _: GappedAction) in })
        late.toggleSkip(0)
        do {
            _ = try late.effectiveState(at: 0)
            Issue.record("recomputed from a state the log does not have")
        } catch {
            #expect("\(error)" == "cannot recompute: the log has no state before entry 3")
        }
        // The damaged record's own row, read as a state, is named by its number too.
        let timeline = try LogTimeline(path: log, keepsDamagedRows: true)
        timeline.waitUntilIndexed()
        #expect(timeline.damagedRecord(at: 7) != nil && timeline.entryNumber(at: 7) == 9)
        do {
            _ = try timeline.state(at: 7)
            Issue.record("a damaged record's row has no state")
        } catch {
            #expect("\(error)".hasPrefix("entry 9's record is damaged (line 9: "), "\(error)")
        }
    }

    @Test func olderRecordersReasonsReadAsTodaysDo() throws {
        // Reasons as recorders before today's wrote them: "queue full", and an entry over a limit
        // named with a number of its own (from 0 before format 2: entry 3 is the fourth).
        let step = { (n: Int) in LogFixture.Step(type: "load", payload: .null, state: ["n": .integer(Int64(n))]) }
        let log = try LogFixture.write((1...5).map(step), gaps: [
            1: .init(dropped: 2, reason: "queue full"),
            2: .init(dropped: 1, reason: "entry 3 (load) was not recorded: it is 70 MB encoded; a log record holds at most 64 MB"),
            3: .init(dropped: 1, reason: "entry 5 (load) was not recorded: its action is nested 600 levels deep; a log record holds at most 509"),
            4: .init(dropped: 1, reason: "entry 7 (load) was not recorded: its action and state are 65 MB encoded; a log record holds at most 64 MB"),
        ])
        let lines = run("log", log).output.split(separator: "\n").map(String.init)
        #expect(lines == [
            "  1   +0.000s  load",
            "2–3  not recorded (2 entries): the recording queue was full (queue policy .drop)",
            "  4   +1.000s  load  changed /n",
            "  5  not recorded: the state after load is 70 MB encoded; a log record holds at most 64 MB",
            "  6   +2.000s  load  changed /n",
            "  7  not recorded: the action load is nested 600 levels deep; a log record holds at most 509",
            "  8   +3.000s  load  changed /n",
            "  9  not recorded: the action load and the state after it are 65 MB encoded; a log record holds at most 64 MB",
            " 10   +4.000s  load  changed /n",
        ])
        // Read alike where a program reads them.
        let stats = try JSONParser.parse(run("stats", log, "--format", "json").output)
        #expect(stats["gaps"]?[1]?["reason"] == "the state after load is 70 MB encoded; a log record holds at most 64 MB")
        let tail = run("tail", log, "-n", "all", "--format", "json").output.split(separator: "\n").compactMap { try? JSONParser.parse(String($0)) }
        #expect(tail.filter { $0["kind"] == "gap" }.map { $0["reason"] } == [
            "the recording queue was full (queue policy .drop)",
            "the state after load is 70 MB encoded; a log record holds at most 64 MB",
            "the action load is nested 600 levels deep; a log record holds at most 509",
            "the action load and the state after it are 65 MB encoded; a log record holds at most 64 MB",
        ])
        let rows = run("export", log, "--format", "states").output.split(separator: "\n").compactMap { try? JSONParser.parse(String($0)) }
        #expect(rows.filter { $0["kind"] == "gap" }.first?["reason"] == "not recorded: the recording queue was full (queue policy .drop)")
    }

    @Test func theListenerSaysAnOlderAppsReasonAsTodaysIsSaid() {
        let gap = LiveListener.Event.gap(peer: "127.0.0.1:5000", path: "app.jsonl", firstEntry: 7, count: 1,
                                         reason: "entry 6 (load) was not recorded: it is 70 MB encoded; a log record holds at most 64 MB")
        #expect(gap.description == "gap in app.jsonl (127.0.0.1:5000): entry 7 not recorded: the state after load is 70 MB encoded; a log record holds at most 64 MB")
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
