import Foundation
import SampleDomains
import Testing
@testable import Inspector
@testable import Recorder

/// `reduce` and `render` do no I/O and no long work: saving a branch, replaying and
/// the compatibility report are effects the session's ``EffectRunner`` does, and
/// their outcomes come back as events. Keys that cannot work here are greyed and say why.
@Suite struct InspectorCoreTests {
    static func statusLine(_ model: InspectorModel) -> String { ReplayKeysTests.lines(model)[model.size.rows - 2] }

    // MARK: Saving a branch

    @Test func savingABranchIsAnEffectTheRunnerWritesAfterTheQuestionReduceWritesNothing() throws {
        var (model, log, runner) = try ReplayKeysTests.model()
        model.type("jja")
        _ = model.send(.enter)
        // An earlier save holds the first name: choosing the next one is the runner's (a file check), not reduce's.
        #expect(FileManager.default.createFile(atPath: log.directory + "/log-branch.jsonl", contents: Data("{}\n".utf8)))
        let ask = model.send(.character("s"))
        #expect(ask == [.chooseBranchFile(suggestedName: "log-branch.jsonl")])
        #expect(model.overlays.confirmation == nil)
        model.run(ask, with: runner)
        let saved = log.directory + "/log-branch-2.jsonl"
        #expect(ReplayKeysTests.lines(model).last == "Save the branch as \(saved)? (y/n)")

        let save = model.send(.character("y"))
        #expect(save == [.saveBranch(path: saved)])
        #expect(!FileManager.default.fileExists(atPath: saved), "reduce itself writes nothing")
        #expect(ReplayKeysTests.lines(model).last == "Saving the branch to \(saved)…")
        model.run(save, with: runner)
        #expect(model.overlays.message == "Saved the branch (4 entries) to \(saved)")
        #expect(try LogReader(path: saved).entryCount == 4)
    }

    @Test func aBranchFileThatAppearedAfterTheQuestionIsNotOverwritten() throws {
        var (model, log, runner) = try ReplayKeysTests.model()
        model.type("jja")
        _ = model.send(.enter)
        model.type("s", running: runner)
        let path = log.directory + "/log-branch.jsonl"
        #expect(model.overlays.confirmation == .saveBranch(path: path))
        #expect(FileManager.default.createFile(atPath: path, contents: Data("mine\n".utf8)))
        model.type("y", running: runner)
        #expect(model.overlays.message == "Cannot save the branch: \(path) already exists")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "mine\n")
    }

    // MARK: Replaying in the background

    /// A reducer that, on entry 10 (`setFilter(.done)`), says it got there and waits for the test to let it go on.
    static func gatedModel() throws -> (model: InspectorModel, runner: EffectRunner, reached: DispatchSemaphore, gate: DispatchSemaphore) {
        let reached = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        let (model, _, runner) = try ReplayKeysTests.model { state, action in
            TodoDomain.reduce(&state, action)
            if case .setFilter(.done) = action {
                reached.signal()
                gate.wait()
                state.filter = .active          // and the new code diverges there
            }
        }
        return (model, runner, reached, gate)
    }

    @Test func rReplaysInTheBackgroundWhileTheKeysKeepWorking() throws {
        var (model, runner, reached, gate) = try Self.gatedModel()
        let start = model.send(.character("r"))
        #expect(start == [.replay(from: 0, job: 1)])
        #expect(model.overlays.message == "Replaying from entry 1 in the background (Esc cancels)")
        for effect in start { #expect(runner.perform(effect).isEmpty) }
        reached.wait()                           // the replay is at entry 10, inside the reducer

        // Meanwhile the inspector answers: keys move, progress shows, nothing is marked yet.
        model.type("jj")
        #expect(model.timeline.selection == 2)
        // (Reduced without waiting for the runner: the replay is held at entry 10 on purpose.)
        for event in runner.takeEvents() { #expect(reduce(&model, event).isEmpty) }
        #expect(Self.statusLine(model).contains("│  replaying from 1… 75%"), "\(Self.statusLine(model))")
        #expect(model.replays.replayRun == nil)
        #expect(!ReplayKeysTests.lines(model)[10].hasPrefix("≠"))

        gate.signal()
        runner.waitUntilIdle()
        for event in runner.takeEvents() { model.run(reduce(&model, event), with: runner) }
        #expect(model.overlays.message == "Replayed 12 entries from 1: 1 diverge (first at 10)")
        #expect(model.timeline.selection == 9)
        #expect(ReplayKeysTests.lines(model)[10].hasPrefix("≠ 10 "))
        #expect(!Self.statusLine(model).contains("replaying"))
    }

    @Test func escCancelsABackgroundReplayAndItsResultIsDropped() throws {
        var (model, runner, reached, gate) = try Self.gatedModel()
        let start = model.send(.character("r"))
        for effect in start { _ = runner.perform(effect) }
        reached.wait()
        let cancel = model.send(.escape)
        #expect(cancel == [.cancelReplay(job: 1)])
        #expect(model.overlays.message == "Replay from entry 1 cancelled")
        for effect in cancel { _ = runner.perform(effect) }
        gate.signal()
        runner.waitUntilIdle()
        #expect(!runner.takeEvents().contains { if case .replayFinished = $0 { true } else { false } })
        #expect(model.replays.replayRun == nil && model.replays.replaying == nil)
        #expect(!Self.statusLine(model).contains("replaying"))
    }

    // MARK: The compatibility report

    /// A log whose background indexing the test moves on by hand: `indexed` entries are known.
    final class PartlyIndexedTimeline: TimelineSource {
        let base: LogTimeline
        var indexed: Int
        init(base: LogTimeline, indexed: Int) { self.base = base; self.indexed = indexed }
        var name: String { base.name }
        var count: Int { min(indexed, base.count) }
        var indexing: IndexingProgress { count < base.count ? .scanning(fraction: Double(count) / Double(base.count)) : .complete }
        var damage: [DamagedRecord] { [] }
        var tornTail: DamagedRecord? { nil }
        var initialState: JSONValue? { base.initialState }
        var recordedLog: LogReader? { base.recordedLog }
        func entry(at index: Int) -> TimelineEntry? { index < count ? base.entry(at: index) : nil }
        func state(at index: Int) throws -> JSONValue { try base.state(at: index) }
        func refresh() -> FollowNotice? { nil }
    }

    @Test func theCompatibilityReportIsCheckedInTheBackgroundAndRefreshedWhenIndexingCompletes() throws {
        let log = try ReplayLogs.todo()
        let timeline = try LogTimeline(path: log.path)
        let partial = PartlyIndexedTimeline(base: timeline, indexed: 5)
        let replay = ReplayTimeline(base: partial, engine: ReplayWorkbench(reader: timeline.reader, reducer: TodoDomain.reduce))
        let runner = EffectRunner(source: replay, directory: log.directory)
        var model = InspectorFixtures.model(replay, columns: 140, rows: 24)
        // The first frame is drawn before anything is checked.
        #expect(Self.statusLine(model).contains("│  replay: checking…  │"), "\(Self.statusLine(model))")

        // The five entries indexed so far hold three action types (add, tag, toggle).
        model.settle(with: runner)
        #expect(Self.statusLine(model).contains("│  replay: all 3 action types ok  │"), "\(Self.statusLine(model))")
        #expect(Self.statusLine(model).contains("indexing 41%"))

        // Indexing completes: the next tick extends the report over the new entries, in the background.
        partial.indexed = 12
        let effects = reduce(&model, .tick)
        #expect(effects.count == 1)
        guard case .checkCompatibility(let check, let end)? = effects.first else { Issue.record("\(effects)"); return }
        #expect(check.checkedEntries == 5 && end == 12)
        #expect(Self.statusLine(model).contains("│  replay: all 3 action types ok (checking 41%)"), "\(Self.statusLine(model))")
        model.run(effects, with: runner)
        #expect(Self.statusLine(model).hasSuffix("│  replay: all 6 action types ok"), "no indexing, no checking left: \(Self.statusLine(model))")
        #expect(model.replays.compatibility?.report == (try Replay(log: log.path).compatibility(state: TodoState.self, action: TodoAction.self)))
        #expect(reduce(&model, .tick).isEmpty, "nothing new to check")
    }

    // MARK: Unavailable keys

    @Test func withoutAReducerTheReplayKeysAreNotHintedHelpListsThemApartAndTheySayWhyOnce() throws {
        var model = InspectorFixtures.model(columns: 160, rows: 60)
        let hints = ReplayKeysTests.lines(model).last ?? ""
        #expect(!hints.contains("replay") && !hints.contains("edit") && !hints.contains("save") && !hints.contains("skip"))

        model.type("?")
        let lines = ReplayKeysTests.lines(model)
        let heading = try #require(lines.firstIndex { $0.contains("Only in a debug executable linked with your reducer (docs/REPLAY.md), not here:") })
        let row = try #require(lines.firstIndex { $0.contains("replay from here, mark divergences") })
        #expect(row > heading, "the replay keys come after the keys that work, under what they need")
        let help = render(model, size: model.size)
        let start = TerminalWidth.of(String(lines[row][..<lines[row].range(of: "replay from here")!.lowerBound]))
        #expect(help[row, start].style == .unavailable)
        let quitRow = try #require(lines.firstIndex { $0.contains("quit") && $0.contains("q ") })
        #expect(quitRow < heading && help[quitRow, start].style != .unavailable)
        model.type("\u{1b}")

        model.type("r")
        #expect(model.overlays.message == KeyRequirement.linkedReducer.reason)
        model.type("s")
        #expect(model.overlays.message == "s needs a linked reducer (see ? or docs/REPLAY.md)")
    }

    @Test func withAReducerNoKeyIsGreyed() throws {
        var (model, _, _) = try ReplayKeysTests.model()
        model.size = ScreenSize(columns: 160, rows: 60)
        model.type("?")
        #expect(!model.screenText.contains("needs a linked reducer"))
        model.type("\u{1b}")
        let hints = ReplayKeysTests.lines(model).last ?? ""
        let column = TerminalWidth.of(String(hints[..<hints.range(of: "r replay")!.lowerBound]))
        #expect(render(model, size: model.size)[59, column].style == .bold)
        #expect(!model.helpLines(width: 100).contains { $0.unavailable })
    }
}
