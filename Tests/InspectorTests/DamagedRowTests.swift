import Testing
import Recorder
@testable import Inspector

/// A damaged record keeps its row in the timeline: the entries after it keep the
/// numbers they have in the file, and stepping and diffing over it say what is wrong.
@Suite struct DamagedRowTests {
    /// The todo recording with its third entry's line (line 4) damaged; a keyframe every 3 entries (entries 1 and 4).
    static func damagedLog() throws -> InspectorModel {
        let log = try LogTimeline(path: try LogFixture.todoLog(keyframeInterval: 3, damageLine: 4), keepsDamagedRows: true)
        return InspectorFixtures.model(log)
    }

    @Test func theDamagedRecordKeepsAPlaceholderRowAndTheNumbersOfTheFile() throws {
        var model = try Self.damagedLog()
        model.type("jj")                                    // onto the damaged record's row
        #expect(model.screenText == """
             Timeline  6 entries             ▄▅╌▇▇█ │ State after 3
               1  +0.000s   app/launch            · │ State unavailable: entry 3's record is
               2  +0.500s   todo/add title: "Bu… ±1 │ damaged (line 4: checksum mismatch or
               3 ⚠ damaged: line 4, checksum mismat…│ not a complete record); the states
               4  +2.000s   todo/toggle index: 0 ±1 │ after it are back from the next
               5  +3.500s   filter/set filter: … ±1 │ keyframe
               6  +4.125s ↳ sync/loaded count: 3 ±1 │
                                                    │
                                                    │
                                                    │
                                                    │
                                                    │ Diff  2 → 3
                                                    │ Entry 3 cannot be read: its record
                                                    │ (line 4) is damaged
                                                    │
                                                    │
                                                    │
                                                    │
                                                    │
                                                    │
                                                    │
                                                    │
             todo.jsonl  │  entry 3/6  │  timeline  ⚠ 1 damaged (D lists)
            ? help  q quit  : jump  Tab pane  / search  f filter  m mark  d diff  e export
            """)
        model.type("j")                                     // stepping over it: entry 4, a keyframe, reads again
        #expect(model.timeline.selection == 3)
        #expect(model.screenText.contains("│ State after 4"))
        #expect(model.screenText.contains("│●      done: true"))
        model.type(":6\n")                                  // numbers are the file's: entry 6 is sync/loaded
        #expect(model.view.entry?.actionType == "sync/loaded")
        #expect(model.screenText.contains("entry 6/6"))
    }

    @Test func aDiffAcrossTheDamageRebuildsFromTheNextKeyframeAndADiffWithItSaysItCannot() throws {
        var model = try Self.damagedLog()
        model.type("jm:5\nd")                               // mark 2, diff against 5: both states rebuild
        #expect(model.screenText.contains("│ Diff  2 → 5"))
        #expect(model.screenText.contains("│ @ /todos/0/done"))
        #expect(model.screenText.contains("│ @ /filter"))
        model.type("d:3\nm:5\nd")                          // the damaged entry itself against 5
        #expect(model.screenText.contains("│ Diff  3 → 5"))
        #expect(model.screenText.contains("│ The diff cannot be rebuilt: entry 3's"))
        #expect(model.view.diffError == "The diff cannot be rebuilt: entry 3's record is damaged (line 4: checksum mismatch or not a complete record)")
    }

    @Test func theDiffAfterTheDamageSaysTheStateBeforeItCannotBeRebuiltRatherThanShowAdditions() throws {
        var model = try Self.damagedLog()
        model.type("jjj")                                   // entry 4, a keyframe: its state reads, the one before does not
        #expect(model.screenText == """
             Timeline  6 entries             ▄▅╌▇▇█ │ State after 4
               1  +0.000s   app/launch            · │●▾ todos [2]
               2  +0.500s   todo/add title: "Bu… ±1 │●  ▾ 0 {2}
               3 ⚠ damaged: line 4, checksum mismat…│       title: "Buy milk"
               4  +2.000s   todo/toggle index: 0 ±1 │●      done: true
               5  +3.500s   filter/set filter: … ±1 │   ▸ 1 {title, done}
               6  +4.125s ↳ sync/loaded count: 3 ±1 │   filter: "all"
                                                    │ ▸ user {name, email}
                                                    │
                                                    │
                                                    │
                                                    │ Diff  3 → 4
                                                    │ The diff cannot be shown: the state
                                                    │ before it, after entry 3, cannot be
                                                    │ rebuilt: its record is damaged (line
                                                    │ 4: checksum mismatch or not a complete
                                                    │ record)
                                                    │
                                                    │
                                                    │
                                                    │
                                                    │
             todo.jsonl  │  entry 4/6  │  timeline  ⚠ 1 damaged (D lists)
            ? help  q quit  : jump  Tab pane  / search  f filter  m mark  d diff  e export
            """)
        let effects = model.send(.character("e"))           // and `e` writes no invented diff
        #expect(effects.isEmpty)
        #expect(model.overlays.message == "Nothing to export: the diff on screen cannot be shown")
    }

    @Test func theDiffOfAnEntryWhoseStateCannotBeRebuiltSaysSoRatherThanShowBarePaths() throws {
        let log = try LogTimeline(path: try LogFixture.todoLog(keyframeInterval: 100, damageLine: 4), keepsDamagedRows: true)
        var model = InspectorFixtures.model(log)
        model.type("jjj")                                   // entry 4: no keyframe after the damage
        #expect(model.screenText == """
             Timeline  6 entries             ▆█╌╌╌╌ │ State after 4
               1  +0.000s   app/launch            · │ State unavailable: it cannot be
               2  +0.500s   todo/add title: "Bu… ±1 │ rebuilt: it depends on line 4, which
               3 ⚠ damaged: line 4, checksum mismat…│ is damaged; states are available again
               4  +2.000s   todo/toggle index: 0 ±1 │ from the next keyframe
               5  +3.500s   filter/set filter: … ±1 │
               6  +4.125s ↳ sync/loaded count: 3 ±1 │
                                                    │
                                                    │
                                                    │
                                                    │
                                                    │ Diff  3 → 4
                                                    │ The diff cannot be shown: the state
                                                    │ after entry 4 cannot be rebuilt: it
                                                    │ depends on line 4, which is damaged;
                                                    │ states are available again from the
                                                    │ next keyframe
                                                    │
                                                    │
                                                    │
                                                    │
                                                    │
             todo.jsonl  │  entry 4/6  │  timeline  ⚠ 1 damaged (D lists)
            ? help  q quit  : jump  Tab pane  / search  f filter  m mark  d diff  e export
            """)
    }

    @Test func anExportAfterTheDamageGivesEachEntryItsOwnRecordedAction() throws {
        let log = try LogTimeline(path: try LogFixture.todoLog(keyframeInterval: 3, damageLine: 4), keepsDamagedRows: true)
        var request = ExportRequest(format: .markdown)
        request.firstEntry = 5      // after entry 4, a keyframe: the state before 5 rebuilds
        request.lastEntry = 6
        let report = String(decoding: try LogExporter.export(from: log, request), as: UTF8.self)
        #expect(report.contains("""
            1. `filter/set` `{"filter":"active"}` — entry 5, +3.500 s
            2. `sync/loaded` `{"count":3}` — entry 6, +4.125 s, from an effect

            """), "\(report)")
    }
}
