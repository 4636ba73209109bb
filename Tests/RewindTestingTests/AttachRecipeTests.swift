import Foundation
import Recorder
import RewindStore
import RewindTesting
import Testing

// The attach recipes from the README, "Recording in tests", each compiled and
// exercised against the store shape it is for.

/// Opens what a recipe wrote: the action names in order and the last state.
func readBack(_ path: String) throws -> (actions: [String], finalState: JSONValue) {
    let reader = try LogReader(path: path)
    let actions = try (0..<reader.entryCount).map { try reader.entry(at: $0).action.name }
    return (actions, try reader.state(at: reader.entryCount - 1))
}


// MARK: ReSwift-shaped store (a local stand-in with ReSwift's signatures)

protocol Action {}
/// ReSwift's own init action (not Codable), dispatched by a store created without a state.
struct ReSwiftInit: Action {}
typealias DispatchFunction = (Action) -> Void
typealias Middleware<State> = (@escaping DispatchFunction, @escaping () -> State?) -> (@escaping DispatchFunction) -> DispatchFunction
typealias Reducer<State> = (Action, State?) -> State

final class ReSwiftStore<State> {
    private(set) var state: State!
    private var dispatchFunction: DispatchFunction!

    init(reducer: @escaping Reducer<State>, state: State?, middleware: [Middleware<State>]) {
        let base: DispatchFunction = { [unowned self] action in self.state = reducer(action, self.state) }
        dispatchFunction = middleware.reversed().reduce(base) { next, middleware in
            middleware({ [unowned self] in self.dispatch($0) }, { [unowned self] in self.state })(next)
        }
        if let state { self.state = state } else { dispatch(ReSwiftInit()) }
    }

    func dispatch(_ action: Action) { dispatchFunction(action) }
}

struct Increment: Action, Codable {}
struct AddAmount: Action, Codable { var amount: Int }

func reSwiftCounterReducer(action: Action, state: Counter?) -> Counter {
    var state = state ?? Counter()
    switch action {
    case is Increment: state.count += 1
    case let add as AddAmount: state.count += add.amount; state.history.append(add.amount)
    default: break
    }
    return state
}

// MARK: TCA-shaped reducer (a local stand-in for Reduce and Effect)

enum TCAEffect<Action> { case none, send(Action) }

struct Reduce<State, Action> {
    let reduce: (inout State, Action) -> TCAEffect<Action>
    init(_ reduce: @escaping (inout State, Action) -> TCAEffect<Action>) { self.reduce = reduce }
}

// MARK: A class-based store with dispatch

final class CounterStore {
    private(set) var state = Counter()
    private let reducer: (inout Counter, CounterAction) -> Void

    init(reducer: @escaping (inout Counter, CounterAction) -> Void) { self.reducer = reducer }

    func dispatch(_ action: CounterAction) { reducer(&state, action) }
}

@Suite struct AttachRecipeTests {
    let scratch = TemporaryDirectory()

    @Test func aPlainClosureReducer() throws {
        let recorder = try ActionRecorder(file: scratch.file("recipe.jsonl"))
        let reducer = recorder.recording(counterReducer)
        var state = Counter()
        reducer(&state, .increment)
        reducer(&state, .add(4))
        try recorder.close()

        let log = try readBack(recorder.path)
        #expect(log.actions == ["increment", "add"])
        #expect(log.finalState == ["count": 5, "history": [4]])
    }

    @Test func theReferenceStore() async throws {
        let recorder = try ActionRecorder(file: scratch.file("recipe.jsonl"))
        let store = Store<Counter, CounterAction>(initialState: Counter(), recorder: recorder) { state, action in
            counterReducer(&state, action)
            return action == .reset ? .none : .send(contentsOf: action == .increment ? [.add(10)] : [])
        }
        store.send(.increment)
        store.send(.reset)
        await store.finishEffects()
        try recorder.close()

        let log = try readBack(recorder.path)
        #expect(log.actions == ["increment", "add", "reset"])
        #expect(log.finalState == ["count": 0, "history": []])
        #expect(try LogReader(path: recorder.path).entry(at: 1).effectOf == 0, "the add came from the increment's effect")
    }

    @Test func aReSwiftStoreThroughItsMiddleware() throws {
        let recorder = try ActionRecorder(file: scratch.file("recipe.jsonl"))
        let store = ReSwiftStore<Counter>(
            reducer: reSwiftCounterReducer, state: nil, middleware: [recorder.middleware()])
        store.dispatch(Increment())
        store.dispatch(AddAmount(amount: 2))
        try recorder.close()

        let log = try readBack(recorder.path)
        #expect(log.actions == ["ReSwiftInit", "Increment", "AddAmount"])
        #expect(log.finalState == ["count": 3, "history": [2]])
        // And it replays, with the init action restored from the log.
        expectReplays(log: recorder.path, reducer: ReSwiftReducer(reSwiftCounterReducer, actions: [Increment.self, AddAmount.self]))
    }

    @Test func aTCAStyleReduceReturningAnEffect() throws {
        let recorder = try ActionRecorder(file: scratch.file("recipe.jsonl"))
        // As in the README: the closure spells out its types, as TCA's Reduce infers them from the body.
        let feature = Reduce(recorder.recording { (state: inout Counter, action: CounterAction) -> TCAEffect<CounterAction> in
            counterReducer(&state, action)
            return state.count > 3 ? .send(.reset) : .none
        })
        var state = Counter()
        _ = feature.reduce(&state, .add(2))
        let effect = feature.reduce(&state, .add(3))
        try recorder.close()

        guard case .send(.reset) = effect else { Issue.record("the wrapped reducer must return the effect unchanged"); return }
        let log = try readBack(recorder.path)
        #expect(log.actions == ["add", "add"])
        #expect(log.finalState == ["count": 5, "history": [2, 3]])
    }

    @Test func aClassBasedStoreWithDispatch() throws {
        let recorder = try ActionRecorder(file: scratch.file("recipe.jsonl"))
        let store = CounterStore(reducer: recorder.recording(counterReducer))
        store.dispatch(.add(7))
        store.dispatch(.increment)
        try recorder.close()

        #expect(store.state.count == 8)
        let log = try readBack(recorder.path)
        #expect(log.actions == ["add", "increment"])
        #expect(log.finalState == ["count": 8, "history": [7]])
    }
}
