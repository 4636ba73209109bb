import Foundation
import Recorder
import RewindStore
import RewindTesting
import SampleDomains
import Testing

/// Example tests for the sample domains, written the way an app's tests would
/// use Rewind: record the store, assert on behaviour, and keep the committed
/// sample recordings replaying on the current reducers.
@Suite struct SampleDomainRecordingTests {
    static let sampleLogs = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("sample-logs").path

    @Test(.recorded) func completingAndClearingTodosKeepsTheStatsRight() throws {
        let recorder = try #require(TestRecording.current).recorder
        let store = Store<TodoState, TodoAction>(initialState: TodoState(), recorder: recorder) { state, action in
            TodoDomain.reduce(&state, action)
            return .none
        }
        store.send(.add(title: "Buy milk"))
        store.send(.add(title: "Call the bank"))
        store.send(.toggle(id: 1))
        #expect(store.state.stats.total == 2 && store.state.stats.done == 1)
        store.send(.clearCompleted)
        #expect(store.state.todos.map(\.title) == ["Call the bank"])
        #expect(store.state.stats.total == 1 && store.state.stats.done == 0)
    }

    @Test(.recorded) func searchShowsOnlyTheAnswerToTheLatestQuery() async throws {
        let recorder = try #require(TestRecording.current).recorder
        // The search service answers only once both queries were typed, so the
        // answer to "sw" is certain to arrive late.
        let service = Gate()
        let store = Store<SearchState, SearchAction>(initialState: SearchState(), recorder: recorder) { state, action in
            let followUps = SearchDomain.reduce(&state, action)
            return followUps.isEmpty ? .none : .run { send in
                await service.passed()
                for action in followUps { send(action) }
            }
        }
        store.send(.queryChanged("sw"))
        store.send(.queryChanged("swift"))
        service.open()
        await store.finishEffects()
        #expect(store.state.isLoading == false)
        #expect(store.state.results.map(\.title) == ["Swift Concurrency", "SwiftUI layout"])
    }

    @Test(.recorded) func theSecondCarIsRoutedByItsNamespace() throws {
        let recorder = try #require(TestRecording.current).recorder
        var garage = GarageState()
        let reducer = recorder.recording(GarageDomain.reduce)
        reducer(&garage, .car(.secondary, .engine(.start)))
        reducer(&garage, .car(.secondary, .accelerate(by: 20)))
        #expect(garage.secondary.speed == 20)
        #expect(garage.primary.speed == 0)
    }

    @Test func theCommittedSampleRecordingsStillReplay() {
        expectReplays(log: Self.sampleLogs + "/todos.jsonl", reducer: TodoDomain.reduce)
        expectReplays(log: Self.sampleLogs + "/garage.jsonl", reducer: GarageDomain.reduce)
        expectReplays(log: Self.sampleLogs + "/search.jsonl", reducer: SearchDomain.reduce)
    }

    @Test func aChangedReducerFailsTheReplayAssertionWithTheDiff() throws {
        let brokenReducer: (inout TodoState, TodoAction) -> Void = { state, action in
            TodoDomain.reduce(&state, action)
            if case .toggle = action { state.stats.done = 0 }  // the bug
        }
        let failure = try #require(replayFailureMessage(log: Self.sampleLogs + "/todos.jsonl", reducer: brokenReducer))
        #expect(failure.contains("no longer replays: entry 5 of"))
        #expect(failure.contains("toggle"))
        #expect(failure.contains("\"done\": 1") && failure.contains("\"done\": 0"))
    }
}

/// What `expectReplays` would report, captured instead of recorded as an issue.
func replayFailureMessage<State: Codable, Action: Decodable, Result>(log: String, reducer: (inout State, Action) -> Result) -> String? {
    do {
        try Replay(log: log).verify(reducer: reducer)
        return nil
    } catch {
        return "\(log) no longer replays: \(error)"
    }
}
