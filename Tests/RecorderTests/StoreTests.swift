import Foundation
import SampleDomains
import Testing
@testable import Recorder
import RewindStore

@Suite struct StoreTests {
    let directory = TemporaryDirectory()

    enum Action: Codable, Sendable, Equatable { case start, tick(Int), loaded(String) }
    struct State: Codable, Equatable { var ticks: [Int] = []; var text = "" }

    /// `.start` sends two ticks at once; the second starts an effect that
    /// answers `.loaded` once `answer` opens (a request still in flight until the test says).
    static func reducer(answer: Gate) -> (inout State, Action) -> Effect<Action> {
        { state, action in
            switch action {
            case .start: return .send(.tick(1), .tick(2))
            case .tick(let value):
                state.ticks.append(value)
                return value == 2 ? .run { send in
                    await answer.passed()
                    send(.loaded("done"))
                } : .none
            case .loaded(let text):
                state.text = text
                return .none
            }
        }
    }

    @Test func runsEffectsAndRecordsWhichEntryStartedThem() async throws {
        let path = directory.file("store.jsonl")
        let recorder = try ActionRecorder(file: path, options: testOptions())
        let answer = Gate()
        let store = Store(initialState: State(), recorder: recorder, reducer: StoreTests.reducer(answer: answer))
        store.send(.start)
        #expect(store.state == State(ticks: [1, 2], text: ""), "send returns before its effect answers")
        answer.open()
        await store.finishEffects()
        #expect(store.state == State(ticks: [1, 2], text: "done"))
        try recorder.close()

        let reader = try LogReader(path: path)
        let entries = try (0..<reader.entryCount).map { try reader.entry(at: $0) }
        #expect(entries.map(\.action.name) == ["start", "tick", "tick", "loaded"])
        #expect(entries.map(\.effectOf) == [nil, 0, 0, 2])
        #expect(try reader.state(at: 3) == ["ticks": [1, 2], "text": "done"])
    }

    @Test func worksWithoutARecorder() async {
        let answer = Gate()
        let store = Store(initialState: State(), reducer: StoreTests.reducer(answer: answer))
        store.send(.start)
        answer.open()
        await store.finishEffects()
        #expect(store.state.text == "done")
    }

    @Test func recordsTheSearchScreenWithItsAsynchronousResults() async throws {
        let path = directory.file("search.jsonl")
        let recorder = try ActionRecorder(file: path, options: testOptions())
        let store = Store(initialState: SearchState(), recorder: recorder) { state, action in
            let followUps = SearchDomain.reduce(&state, action)
            return followUps.isEmpty ? .none : .run { send in followUps.forEach { send($0) } }
        }
        store.send(.queryChanged("swi"))
        #expect(store.state.isLoading)
        await store.finishEffects()
        #expect(!store.state.isLoading)
        #expect(store.state.results.map(\.id) == [1, 3, 4])
        try recorder.close()
        let reader = try LogReader(path: path)
        #expect(try reader.entry(at: 1).action.name == "resultsLoaded")
        #expect(try reader.entry(at: 1).effectOf == 0)
        #expect(try reader.state(at: 0)["isLoading"] == true)
        #expect(try reader.state(at: 1)["results"]?.arrayValue?.count == 3)
    }

    @Test func sendsFromManyThreadsAreRecordedInReducerOrder() throws {
        let path = directory.file("threads.jsonl")
        let recorder = try ActionRecorder(file: path, options: testOptions())
        let store = Store(initialState: 0, recorder: recorder) { (state: inout Int, _: Int) in
            state += 1
            return .none
        }
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for step in 0..<100 { store.send(thread * 1000 + step) }
        }
        try recorder.close()
        let reader = try LogReader(path: path)
        #expect(reader.entryCount == 400)
        for index in stride(from: 0, to: 400, by: 7) {
            #expect(try reader.state(at: index) == .integer(Int64(index + 1)))
        }
    }
}
