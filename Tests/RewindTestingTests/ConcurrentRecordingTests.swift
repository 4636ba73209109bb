import Dispatch
import Foundation
import Recorder
import RewindStore
import Testing

/// Stores driven from many tasks and threads, with effects answering from
/// other threads: the log holds every action, numbered in the order the
/// reducer ran them. Run under Thread Sanitizer by CI (`scripts/tsan`).
@Suite struct ConcurrentRecordingTests {
    let scratch = TemporaryDirectory()

    struct Ledger: Codable, Sendable { var ran: [Int] = [] }
    enum Work: Codable, Equatable, Sendable { case start(Int), answer(Int) }

    /// The reducer writes the order it ran in into the state itself.
    static func ledgerReducer(_ state: inout Ledger, _ action: Work) -> Effect<Work> {
        switch action {
        case .start(let n):
            state.ran.append(n)
            return .run { send in
                for k in 1...3 {
                    // Not a wait for a result: a random pause between answers is the
                    // behaviour under test (answers interleave differently on every run).
                    try? await Task.sleep(for: .microseconds(Int.random(in: 0...200)))
                    send(.answer(n * 10 + k))
                }
            }
        case .answer(let m):
            state.ran.append(m)
            return .none
        }
    }

    /// Checks that the log has `count` entries numbered 0..<count whose actions
    /// appear in exactly the order the reducer ran them.
    static func expectLogMatchesReducerOrder(path: String, ran: [Int], count: Int) throws {
        let reader = try LogReader(path: path)
        #expect(reader.entryCount == count)
        #expect(reader.gaps.isEmpty && reader.damage.isEmpty)
        var recordedOrder: [Int] = []
        for index in 0..<reader.entryCount {
            let entry = try reader.entry(at: index)
            #expect(entry.sequence == Int64(index))
            let payload = entry.action.payload
            let value = payload["start"]?["_0"] ?? payload["answer"]?["_0"]
            recordedOrder.append(Int(try #require(value?.int64Value)))
        }
        #expect(recordedOrder == ran)
        let last = try reader.state(at: reader.entryCount - 1)
        #expect(last["ran"] == .array(ran.map { .integer(Int64($0)) }))
    }

    @Test func tasksAndEffectsOnOtherThreadsAreRecordedInTheOrderTheReducerRan() async throws {
        let recorder = try ActionRecorder(file: scratch.file("recipe.jsonl"))
        let store = Store<Ledger, Work>(initialState: Ledger(), recorder: recorder, reducer: Self.ledgerReducer)
        await withTaskGroup(of: Void.self) { group in
            for n in 1...40 { group.addTask { store.send(.start(n)) } }
        }
        await store.finishEffects()
        try recorder.close()
        try Self.expectLogMatchesReducerOrder(path: recorder.path, ran: store.state.ran, count: 160)
    }

    @Test func effectAnswersPointAtTheEntryThatStartedThem() async throws {
        let recorder = try ActionRecorder(file: scratch.file("recipe.jsonl"))
        let store = Store<Ledger, Work>(initialState: Ledger(), recorder: recorder, reducer: Self.ledgerReducer)
        await withTaskGroup(of: Void.self) { group in
            for n in 1...10 { group.addTask { store.send(.start(n)) } }
        }
        await store.finishEffects()
        try recorder.close()

        let reader = try LogReader(path: recorder.path)
        var startSequence: [Int: Int64] = [:]
        for index in 0..<reader.entryCount {
            let entry = try reader.entry(at: index)
            if let n = entry.action.payload["start"]?["_0"]?.int64Value {
                startSequence[Int(n)] = entry.sequence
                #expect(entry.effectOf == nil)
            } else if let m = entry.action.payload["answer"]?["_0"]?.int64Value {
                #expect(entry.effectOf == startSequence[Int(m) / 10], "answer \(m) came from start \(m / 10)")
            }
        }
    }

    @Test func manyThreadsDispatchingThroughAWrappedReducerLoseNothing() throws {
        let recorder = try ActionRecorder(file: scratch.file("recipe.jsonl"))
        let reducer = recorder.recording { (state: inout Ledger, action: Work) in
            if case .start(let n) = action { state.ran.append(n) }
        }
        let store = LockingStore(Ledger(), reducer: reducer)
        DispatchQueue.concurrentPerform(iterations: 400) { n in store.dispatch(.start(n)) }
        try recorder.close()
        try Self.expectLogMatchesReducerOrder(path: recorder.path, ran: store.state.ran, count: 400)
    }
}

/// A class-based store that serialises its reducer with a lock, as stores do.
final class LockingStore<State, Action>: @unchecked Sendable {
    private let lock = NSLock()
    private var current: State
    private let reducer: (inout State, Action) -> Void

    init(_ state: State, reducer: @escaping (inout State, Action) -> Void) {
        current = state
        self.reducer = reducer
    }

    var state: State { lock.withLock { current } }

    func dispatch(_ action: Action) { lock.withLock { reducer(&current, action) } }
}
