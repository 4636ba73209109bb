import Testing
import Recorder
@testable import Inspector

/// `… (N unchanged)` in an array says which indexes it stands for, in the diff pane
/// (an action's diff and a mark diff) as in the engine's text.
@Suite struct UnchangedIndexesTests {
    /// An entry whose record says it replaced the whole array (as an imported log's coarse patch does).
    static func scoresTimeline() -> InMemoryTimeline {
        var replace = InMemoryTimeline.Step("scores/load", state: ["scores": [10, 99, 12, 13, 14, 15, 16, 77]], at: 1)
        replace.changedPaths = [JSONPointer(tokens: ["scores"])]
        return InMemoryTimeline(name: "scores.jsonl", steps: [
            .init("app/launch", state: ["scores": [10, 11, 12, 13, 14, 15, 16, 17]], at: 0),
            replace,
        ])
    }

    @Test func theEngineNamesTheRunsOfUnchangedIndexes() {
        #expect(JSONDiff.treeText(from: [1, 2, 3, 4, 5], to: [1, 2, 3, 4, 9]) == """
              [
                … (4 unchanged: 0–3)
            -   5
            +   9
              ]
            """)
        // After a removal, the indexes are the new array's.
        #expect(JSONDiff.treeText(from: [0, 1, 2, 3], to: [1, 2, 3]) == """
              [
            -   0
                … (3 unchanged: 0–2)
              ]
            """)
    }

    @Test func theDiffPaneNamesTheIndexesItLeavesOut() {
        var model = InspectorFixtures.model(Self.scoresTimeline())
        model.type("j")
        #expect(model.screenText == """
             Timeline  2 entries                 ██ │ State after 2
               1  +0.000s   app/launch            · │●▸ scores [8]
               2  +1.000s   scores/load          ±1 │
                                                    │
                                                    │
                                                    │
                                                    │
                                                    │
                                                    │
                                                    │
                                                    │
                                                    │ Diff  1 → 2
                                                    │ @ /scores
                                                    │   [
                                                    │     … (1 unchanged: 0)
                                                    │ -   11
                                                    │ +   99
                                                    │     … (5 unchanged: 2–6)
                                                    │ -   17
                                                    │ +   77
                                                    │   ]
                                                    │
             scores.jsonl  │  entry 2/2  │  timeline
            ? help  q quit  : jump  Tab pane  / search  f filter  m mark  d diff  e export
            """)
    }
}
