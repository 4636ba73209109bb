import Foundation
import Testing
import Recorder
@testable import Inspector

/// A state that takes long to read (a keyframe of a 30 MB state) is read on another
/// thread: the panes say so, the keys keep working, Esc stops waiting, and the state
/// shows once it is read. Here every state not cached counts as slow (`quickStateBytes` 0).
@Suite struct BackgroundStateTests {
    static func model() throws -> (InspectorModel, EffectRunner) {
        let log = try LogFixture.todoLog(keyframeInterval: 3)
        var model = InspectorFixtures.model(try LogTimeline(path: log))
        model.quickStateBytes = 0
        return (model, EffectRunner(source: model.source, directory: (log as NSString).deletingLastPathComponent))
    }

    @Test func theTimelineAnswersAtOnceAndTheStateFollows() throws {
        var (model, runner) = try Self.model()
        let effects = model.send(.character("j"))
        guard case .buildView(let request, let job)? = effects.first else { Issue.record("\(effects)"); return }
        #expect(request.selection == 1 && job == 1)
        #expect(model.screenText == """
             Timeline  6 entries             ▆▆▆███ │ State after 2
               1  +0.000s   app/launch            · │ Reading the state after entry 2 (508
               2  +0.500s   todo/add title: "Bu… ±1 │ B)… ⠋ Esc stops; the keys keep working
               3  +1.250s   todo/add title: "Wr… ±1 │
               4  +2.000s   todo/toggle index: 0 ±1 │
               5  +3.500s   filter/set filter: … ±1 │
               6  +4.125s ↳ sync/loaded count: 3 ±1 │
                                                    │
                                                    │
                                                    │
                                                    │
                                                    │ Diff  1 → 2
                                                    │ (reading the states…)
                                                    │
                                                    │
                                                    │
                                                    │
                                                    │
                                                    │
                                                    │
                                                    │
                                                    │
             todo.jsonl  │  entry 2/6  │  timeline
            ? help  q quit  : jump  Tab pane  / search  f filter  m mark  d diff  e export
            """)
        model.run(effects, with: runner)
        // (The sparkline drew states not cached at the size of their keyframes.)
        #expect(model.screenText.split(separator: "\n").prefix(4).joined(separator: "\n") == """
             Timeline  6 entries             ▆▆▆███ │ State after 2
               1  +0.000s   app/launch            · │●▾ todos [1]
               2  +0.500s   todo/add title: "Bu… ±1 │●  ▸ 0 {title, done}
               3  +1.250s   todo/add title: "Wr… ±1 │   filter: "all"
            """)
    }

    @Test func aNewerSelectionReplacesTheOneBeingReadAndAStaleResultIsDropped() throws {
        var (model, runner) = try Self.model()
        let first = model.send(.character("j"))
        let second = model.send(.character("j"))
        #expect(model.viewBuildJob == 2)
        // The first job's result comes in late: entry 2's state is not shown for entry 3.
        for effect in first { for event in runner.perform(effect) { reduce(&model, event) } }
        runner.waitUntilIdle()
        for event in runner.takeEvents() { reduce(&model, event) }
        #expect(model.view.loading != nil && model.timeline.selection == 2)
        model.run(second, with: runner)
        #expect(model.view.loading == nil)
        #expect(model.screenText.contains("│ State after 3"))
        #expect(model.view.state?.value["todos"]?.arrayValue?.count == 2)
    }

    @Test func escStopsWaitingAndEnterReadsTheStateAgain() throws {
        var (model, runner) = try Self.model()
        model.type("G")
        model.run(model.send(.escape), with: runner)
        #expect(model.screenText.split(separator: "\n")[1...3].map { $0.split(separator: "│").last.map(String.init) ?? "" } == [
            " Not read: Esc stopped reading the", " state after entry 6 (1.3 KB); Enter", " reads it",
        ])
        #expect(model.screenText.hasSuffix("Stopped reading the state after entry 6; Enter reads it"))
        model.run(model.send(.enter), with: runner)
        #expect(model.view.loading == nil)
        #expect(model.view.state?.value["todos"]?.arrayValue?.count == 3)
    }
}
