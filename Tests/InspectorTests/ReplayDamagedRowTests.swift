import Foundation
import SampleDomains
import Testing
@testable import Inspector
@testable import Recorder

/// The inspector of a debug executable over a log with a damaged record: the record
/// keeps its row as it does without a reducer, the replay keys act on the entry of the
/// row they are pressed on after the damage, and on the damaged row they say why they cannot.
@Suite struct ReplayDamagedRowTests {
    /// The recorded todo log with entry 3's line (line 4, `add "Call the bank"`) damaged,
    /// opened as `debug <log>` opens it, linked with `reducer`; the compatibility check has run.
    /// Keyframes are entries 1, 2, 6, 10 and 11 (every fourth entry, and where a patch would be larger
    /// than the state), so the states of entries 4 and 5 are unavailable and entry 6's is back.
    static func model(
        reducer: @escaping (inout SampleDomains.TodoState, SampleDomains.TodoAction) -> Void = TodoDomain.reduce
    ) throws -> (model: InspectorModel, log: ReplayLogs.Log, runner: EffectRunner) {
        try ReplayKeysTests.model(damagedLine: 4, reducer: reducer)
    }

    static func lines(_ model: InspectorModel) -> [String] { ReplayKeysTests.lines(model) }

    /// The todo state after the script's actions at `indices` (0-based), in order.
    static func state(after indices: some Sequence<Int>) throws -> JSONValue {
        var state = SampleDomains.TodoState()
        for index in indices { TodoDomain.reduce(&state, TodoDomain.script[index]) }
        return try JSONEncoding.value(of: state)
    }

    @Test func theDamagedRecordKeepsItsPlaceholderRowInReplayMode() throws {
        var (model, _, _) = try Self.model()
        model.type("jj")                                    // onto the damaged record's row
        #expect(model.screenText == """
             Timeline  12 entries                ▄▅╌╌╌▇██▇▇▄▄ │ State after 3
               1  +0.000s   add title: "Buy milk"          ±3 │ State unavailable: entry 3's record is damaged
               2  +0.250s   add title: "Write replay docs" ±3 │ (line 4: checksum mismatch or not a complete
               3 ⚠ damaged: line 4, checksum mismatch or not …│ record); the states after it are back from the
               4  +0.750s   tag id: 2, tag: "work"         ±1 │ next keyframe
               5  +1.000s   toggle id: 1                   ±2 │
               6  +1.250s   setFilter "active"             ±1 │
               7  +1.500s   add title: "Fix the bike"      ±3 │
               8  +1.750s   toggle id: 3                   ±2 │
               9  +2.000s   delete id: 4                   ±2 │
              10  +2.250s   setFilter "done"               ±1 │
              11  +2.500s   clearCompleted                 ±4 │ Diff  2 → 3
              12  +2.750s   setFilter "all"                ±1 │ Entry 3 cannot be read: its record (line 4) is
                                                              │ damaged
                                                              │
                                                              │
                                                              │
                                                              │
                                                              │
                                                              │
                                                              │
                                                              │
             log.jsonl  │  entry 3/12  │  timeline  │  replay: all 6 action types ok  ⚠ 1 damaged (D lists)
            ? help  q quit  : jump  Tab pane  / search  f filter  m mark  d diff  e export  F follow  p action
            """)
        model.type("j")                                     // entry 4: its patch applies to the damaged record's state
        #expect(model.view.stateError == "it cannot be rebuilt: it depends on line 4, which is damaged; states are available again from the next keyframe")
        model.type("j")                                     // entry 5: a patch on entry 4's
        #expect(model.view.stateError == "it cannot be rebuilt: it depends on line 4, which is damaged; states are available again from the next keyframe")
        model.type("j")                                     // entry 6, a keyframe: states are back
        #expect(model.view.state?.value == (try Self.state(after: 0..<6)))
    }

    @Test func xAfterTheDamageSkipsTheSelectedEntry() throws {
        var (model, _, _) = try Self.model()
        model.type(":7\n")                                  // add "Fix the bike", the reader's 6th entry
        #expect(model.view.entry?.payload == ["add": ["title": "Fix the bike"]])
        model.type("x")
        #expect(model.overlays.message == "Skipped entry 7: states after it are recomputed without it (x again unskips)")
        #expect(Self.lines(model)[7].hasPrefix("-  7 "), "\(Self.lines(model)[7])")
        model.type("G")
        // Everything but "Fix the bike": the recomputation starts from the recorded state of entry 6.
        #expect(model.view.state?.value == (try Self.state(after: (0..<12).filter { $0 != 6 })))
    }

    @Test func aAfterTheDamageBranchesFromTheSelectedEntrysState() throws {
        var (model, _, _) = try Self.model()
        model.type(":7\na")
        #expect(model.overlays.prompt == .editAction(#"{"add":{"title":"Fix the bike"}}"#))
        _ = model.send(.enter)                              // dispatched again, as is
        #expect(model.overlays.message == "Dispatched as branch entry 13; the log's entries are kept (s saves the branch as a new log)")
        #expect(model.timeline.count == 13 && model.timeline.selection == 12)
        #expect(Self.lines(model)[13].hasPrefix("⎇ 13 "), "\(Self.lines(model)[13])")
        #expect(Self.lines(model)[7].hasPrefix("┬  7 "), "\(Self.lines(model)[7])")
        #expect(model.screenText.contains("│ Diff  7 → 13  (the branch forks after entry 7)"), "\(model.screenText)")
        #expect(model.view.state?.value == (try Self.state(after: Array(0..<7) + [6])))
    }

    @Test func rAfterTheDamageMarksAndNumbersTheDivergentRowsEntry() throws {
        // The new version of the reducer turns the "done" filter (entry 10) into "active".
        var (model, _, runner) = try Self.model { state, action in
            TodoDomain.reduce(&state, action)
            if case .setFilter(.done) = action { state.filter = .active }
        }
        model.type("r", running: runner)
        #expect(model.overlays.message == "Replayed 11 entries from 1: 1 diverge (first at 10)")
        #expect(model.timeline.selection == 9)
        #expect(Self.lines(model)[10].hasPrefix("≠ 10 "), "\(Self.lines(model)[10])")
        #expect(Self.lines(model)[9].hasPrefix("   9 "), "\(Self.lines(model)[9])")
        #expect(model.screenText.contains("Diff  entry 10: recorded (-) → recomputed (+)"))

        model.type("j")
        model.type("r", running: runner)                    // from entry 11: all match again
        #expect(model.overlays.message == "Replayed 2 entries from 11: all match the recording")
    }

    @Test func theReplayKeysOnTheDamagedRowSayWhyTheyCannot() throws {
        var (model, _, runner) = try Self.model()
        model.type(":3\n")
        model.type("r", running: runner)
        #expect(model.overlays.message == "Cannot replay from entry 3: its record (line 4) is damaged")
        #expect(model.replays.replaying == nil && model.replays.replayRun == nil)
        model.type("x")
        #expect(model.overlays.message == "Cannot skip entry 3: its record (line 4) is damaged")
        #expect(model.replay?.engine.skipped == [])
        model.type("a")
        #expect(model.overlays.message == "Cannot edit entry 3: its record (line 4) is damaged")
        #expect(model.overlays.prompt == nil)
        #expect(Self.lines(model).last?.hasPrefix("Cannot edit entry 3: its record (line 4) is damaged") == true)
    }
}
