import Foundation
import Testing
@testable import Inspector
@testable import Recorder
import RewindStore

struct Tally: Codable, Equatable { var count = 0 }
private enum TallyAction: Codable, Equatable, Sendable { case add(Int), reset }

/// ReSwift-shaped actions (a protocol) and its init action, which is not Codable
/// (also what `testgen` is tried on: TestgenRecordingTests).
protocol ReSwiftAction {}
struct ReSwiftInit: ReSwiftAction {}
struct Add: ReSwiftAction, Codable { var amount: Int }

func reSwiftReducer(_ action: any ReSwiftAction, _ state: Tally?) -> Tally {
    var state = state ?? Tally()
    if let add = action as? Add { state.count += add.amount }
    return state
}

private func fixedClock() -> ActionRecorder.Options {
    var options = ActionRecorder.Options()
    options.clock = .fixed(start: 1_764_000_000, step: 0.5)
    return options
}

/// `rewind log --trace`, and `verify` on logs with entries restored from the log.
@Suite struct TraceAndRestoreCommandTests {
    private let scratch = TemporaryDirectory()
    private var directory: String { scratch.path }

    @Test func logWithTraceShowsWhereEachActionWasDispatched() async throws {
        let path = directory + "/tally.jsonl"
        let recorder = try ActionRecorder(file: path, options: fixedClock())
        let store = Store<Tally, TallyAction>(initialState: Tally(), recorder: recorder) { state, action in
            if case .add(let amount) = action { state.count += amount } else { state = Tally() }
            return .none
        }
        let line = #line + 1
        store.send(.add(2))
        var state = Tally()
        recorder.recording { (state: inout Tally, _: TallyAction) in state = Tally() }(&state, .reset)
        try recorder.close()

        var streams = CapturedStreams()
        #expect(RewindCommandLine.run(["log", path, "--trace"], streams: &streams) == 0)
        #expect(streams.standardError == "")
        #expect(streams.standardOutput == """
              1   +0.000s  add 2  changed /count
                 at InspectorTests/TraceAndRestoreCommandTests.swift:\(line)
              2   +0.500s  reset  changed /count
                 (no trace recorded)

            """)
        // Without --trace, the list is as before.
        var plain = CapturedStreams()
        #expect(RewindCommandLine.run(["log", path], streams: &plain) == 0)
        #expect(!plain.standardOutput.contains("TraceAndRestoreCommandTests.swift"))
        // The inspector's entry model carries the trace for the action pane.
        #expect(try LogTimeline(path: path).entry(at: 0)?.trace?.description == "InspectorTests/TraceAndRestoreCommandTests.swift:\(line)")
        // … and the action pane (`p`) shows it.
        var model = InspectorFixtures.model(try LogTimeline(path: path), columns: 200, rows: 24)
        model.type("p")
        #expect(model.screenText.contains("│ dispatched at InspectorTests/TraceAndRestoreCommandTests.swift:\(line)"))
        model.type("jp")
        #expect(!model.screenText.contains("dispatched at"), "an entry without a trace says nothing of one")
    }

    @Test func logWithTraceListsTheCallStackWhenItWasRecorded() throws {
        let path = directory + "/stack.jsonl"
        var options = fixedClock()
        options.trace = true
        let recorder = try ActionRecorder(file: path, options: options)
        var state = Tally()
        recorder.recording { (state: inout Tally, action: TallyAction) in state.count += 1 }(&state, .add(1))
        try recorder.close()
        var streams = CapturedStreams()
        #expect(RewindCommandLine.run(["log", "--trace", path], streams: &streams) == 0)
        let lines = streams.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == "  1   +0.000s  add 1  changed /count")
        #expect(lines.count > 2)
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("       ") }, "frames are indented under the entry")
        #expect(lines.contains { $0.contains("TraceAndRestoreCommandTests") }, "\(lines)")
    }

    @Test func logRejectsAnUnknownOptionWithItsUsage() {
        var streams = CapturedStreams()
        #expect(RewindCommandLine.run(["log", "--tracer", "x.jsonl"], streams: &streams) == 2)
        #expect(streams.standardError == "rewind log: unknown option '--tracer'\nusage: rewind log <log> [--from A] [--to B] [--width N] [--trace] [--full]\nSee 'rewind log --help'.\n")
    }

    /// A ReSwift store without a state dispatches ReSwiftInit first, through the middleware.
    private func reSwiftLog() throws -> String {
        let path = directory + "/reswift.jsonl"
        let recorder = try ActionRecorder(file: path, options: fixedClock())
        var current: Tally?
        let middleware: (@escaping (any ReSwiftAction) -> Void, @escaping () -> Tally?) -> (@escaping (any ReSwiftAction) -> Void) -> (any ReSwiftAction) -> Void = recorder.middleware()
        let dispatch = middleware({ _ in }, { current })({ action in current = reSwiftReducer(action, current) })
        dispatch(ReSwiftInit())
        for amount in 1...50 { dispatch(Add(amount: amount)) }
        try recorder.close()
        return path
    }

    @Test func verifySaysWhichEntriesWereRestoredFromTheLog() throws {
        let path = try reSwiftLog()
        var streams = CapturedStreams()
        let link = Inspector.link(ReSwiftReducer(reSwiftReducer, actions: [Add.self]))
        #expect(Inspector.run(["verify", path], replay: link, streams: &streams) == 0)
        #expect(streams.standardOutput.hasSuffix("""
            verify: ok, 50 replayed to the recorded states, 1 restored from the log
              entry 1: ReSwiftInit was recorded through reflection (not Codable), so its recorded state was used

            """))
        #expect(!streams.standardOutput.contains("all 51"))
    }

    @Test func aBranchOfALogWithTheInitActionIsSavedFromTheInspector() throws {
        let path = try reSwiftLog()
        let timeline = try LogTimeline(path: path)
        let engine = ReplayWorkbench(ReSwiftReducer(reSwiftReducer, actions: [Add.self]).session(reader: timeline.reader))
        _ = try engine.dispatch(actionJSON: #"{"amount":1000}"#, at: 5)
        let saved = directory + "/saved.jsonl"
        #expect(try engine.saveBranch(to: saved) == 7)
        // An existing file is refused with one plain message (no doubled prefix).
        #expect(throws: ReplayEditError("\(saved) already exists")) { try engine.saveBranch(to: saved) }
        #expect(try LogReader(path: saved).state(at: 6) == ["count": 1015])
    }

    @Test func theInspectorSavesSuchABranchWithItsPlainMessage() throws {
        let path = try reSwiftLog()
        let timeline = try LogTimeline(path: path)
        let replay = ReplayTimeline(base: timeline, engine: ReplayWorkbench(ReSwiftReducer(reSwiftReducer, actions: [Add.self]).session(reader: timeline.reader)))
        let runner = EffectRunner(source: replay, directory: directory)
        var model = InspectorFixtures.model(replay, columns: 100, rows: 24)
        model.type("jjja")
        let prefilled = #"{"amount":3}"#
        #expect(model.overlays.prompt == .editAction(prefilled))
        for _ in prefilled { _ = model.send(.backspace) }
        model.type(#"{"amount":7}"#)
        _ = model.send(.enter)
        #expect(model.overlays.prompt == nil)
        model.type("sy", running: runner)                // save, and answer yes
        // Entry 1 is ReSwiftInit, which cannot be decoded: it is copied as recorded.
        #expect(model.overlays.message == "Saved the branch (5 entries) to \(directory)/reswift-branch.jsonl")
        #expect(try LogReader(path: directory + "/reswift-branch.jsonl").entry(at: 0).action.name == "ReSwiftInit")
    }
}
