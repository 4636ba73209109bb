import Foundation
import Testing
@testable import Recorder
import RewindStore

// Stand-ins for the store shapes people attach to, compiled here so the
// attach recipes in docs/QUICKSTART.md keep working.

/// A reducer that returns an effect value (TCA's `Effect<Action>` shape).
enum CounterEffect: Equatable { case none, fetch(Int) }

/// A `Reducer<State, Action>` struct wrapping a closure.
struct ClosureReducer<State, Action> {
    let reduce: (inout State, Action) -> Void
}

/// TCA-shaped: a protocol with `reduce(into:action:)` and a `Reduce` wrapper.
protocol ReducerProtocol {
    associatedtype State
    associatedtype Action
    func reduce(into state: inout State, action: Action) -> CounterEffect
}

struct Reduce<State, Action>: ReducerProtocol {
    let run: (inout State, Action) -> CounterEffect
    init(_ run: @escaping (inout State, Action) -> CounterEffect) { self.run = run }
    func reduce(into state: inout State, action: Action) -> CounterEffect { run(&state, action) }
}

struct CounterFeature: ReducerProtocol {
    struct State: Codable, Equatable { var count = 0 }
    enum Action: Codable, Equatable { case increment, add(Int) }
    func reduce(into state: inout State, action: Action) -> CounterEffect {
        switch action {
        case .increment: state.count += 1; return .none
        case .add(let amount): state.count += amount; return .fetch(state.count)
        }
    }
}

/// ReSwift-shaped: `Action` is a protocol, reducers are `(Action, State?) -> State`,
/// middleware has ReSwift's exact signature.
protocol ReAction {}
typealias DispatchFunction = (any ReAction) -> Void
typealias Middleware<State> = (@escaping DispatchFunction, @escaping () -> State?) -> (@escaping DispatchFunction) -> DispatchFunction

final class ReStore<State> {
    private(set) var state: State?
    private let reducer: (any ReAction, State?) -> State
    private var dispatchFunction: DispatchFunction!

    init(reducer: @escaping (any ReAction, State?) -> State, state: State?, middleware: [Middleware<State>] = []) {
        self.reducer = reducer
        let base: DispatchFunction = { [unowned self] action in self.state = self.reducer(action, self.state) }
        dispatchFunction = middleware.reversed().reduce(base) { next, middleware in
            middleware({ [unowned self] in self.dispatch($0) }, { [unowned self] in self.state })(next)
        }
        // As ReSwift's Store: without a state, the reducer makes one from its init action.
        if let state { self.state = state } else { dispatch(ReSwiftInit()) }
    }

    func dispatch(_ action: any ReAction) { dispatchFunction(action) }
}

/// ReSwift's own, not Codable: recorded through reflection, restored from the log in replay.
struct ReSwiftInit: ReAction {}
struct Increment: ReAction, Codable { var by = 1 }
struct Rename: ReAction, Codable { var name: String }
struct ReState: Codable, Equatable { var count = 0; var name = "" }

func reStateReducer(_ action: any ReAction, _ state: ReState?) -> ReState {
    var state = state ?? ReState()
    switch action {
    case let increment as Increment: state.count += increment.by
    case let rename as Rename: state.name = rename.name
    default: break
    }
    return state
}

@Suite struct RecorderShapesTests {
    let directory = TemporaryDirectory()

    @Test func recordsAVoidClosureReducer() throws {
        let path = directory.file("void.jsonl")
        try recordTodos([.add(title: "a"), .toggle(id: 0)], to: path)
        let reader = try LogReader(path: path)
        #expect(reader.entryCount == 2)
        #expect(try reader.state(at: 1)["todos"]?[0]?["done"] == true)
    }

    @Test func recordsAReducerReturningAnEffectAndPassesTheEffectThrough() throws {
        let path = directory.file("effect.jsonl")
        let recorder = try ActionRecorder(file: path, options: testOptions())
        let reducer = recorder.recording(CounterFeature().reduce(into:action:))
        var state = CounterFeature.State()
        #expect(reducer(&state, .add(5)) == .fetch(5))
        #expect(reducer(&state, .increment) == CounterEffect.none)
        try recorder.close()
        let reader = try LogReader(path: path)
        #expect(try reader.entry(at: 0).action.name == "add")
        #expect(try reader.state(at: 1) == ["count": 6])
    }

    @Test func recordsAReducerReturningFollowUpActions() throws {
        let path = directory.file("actions.jsonl")
        let recorder = try ActionRecorder(file: path, options: testOptions())
        let reducer: (inout Int, String) -> [String] = recorder.recording { state, action in
            state += 1
            return action == "start" ? ["tick", "tick"] : []
        }
        var state = 0
        var pending = ["start"]
        while !pending.isEmpty { pending += reducer(&state, pending.removeFirst()) }
        try recorder.close()
        let reader = try LogReader(path: path)
        #expect(reader.entryCount == 3)
        #expect(try (0..<3).map { try reader.entry(at: $0).action.name } == ["String", "String", "String"])
        #expect(try (0..<3).map { try reader.entry(at: $0).action.payload } == ["start", "tick", "tick"])
        #expect(try reader.state(at: 2) == 3)
    }

    @Test func recordsAReducerStructWrappingAClosure() throws {
        let path = directory.file("struct.jsonl")
        let recorder = try ActionRecorder(file: path, options: testOptions())
        let plain = ClosureReducer(reduce: todoReducer)
        let recorded = ClosureReducer(reduce: recorder.recording(plain.reduce))
        var state = TodoState()
        recorded.reduce(&state, .add(title: "x"))
        try recorder.close()
        #expect(try LogReader(path: path).state(at: 0)["nextID"] == 1)
    }

    @Test func recordsATCAStyleReduce() throws {
        let path = directory.file("tca.jsonl")
        let recorder = try ActionRecorder(file: path, options: testOptions())
        let feature = Reduce(recorder.recording(CounterFeature().reduce(into:action:)))
        var state = CounterFeature.State()
        _ = feature.reduce(into: &state, action: .increment)
        _ = feature.reduce(into: &state, action: .add(2))
        try recorder.close()
        let reader = try LogReader(path: path)
        #expect(reader.header.actionTypeName == "RecorderTests.CounterFeature.Action")
        #expect(try reader.entry(at: 1).action.payload == ["add": ["_0": 2]])
        #expect(try reader.state(at: 1) == ["count": 3])
    }

    @Test func recordsThroughAReSwiftShapedMiddleware() throws {
        let path = directory.file("reswift.jsonl")
        let recorder = try ActionRecorder(file: path, options: testOptions())
        let store = ReStore(reducer: reStateReducer, state: ReState(), middleware: [recorder.middleware()])
        store.dispatch(Increment(by: 2))
        store.dispatch(Rename(name: "Ann"))
        store.dispatch(Increment())
        try recorder.close()
        let reader = try LogReader(path: path)
        #expect(reader.entryCount == 3)
        #expect(try (0..<3).map { try reader.entry(at: $0).action.name } == ["Increment", "Rename", "Increment"])
        #expect(try reader.entry(at: 1).action.payload == ["name": "Ann"])
        #expect(try reader.entry(at: 1).action.isReplayable)
        #expect(reader.header.initialState == ["count": 0, "name": ""])
        #expect(try reader.state(at: 2) == ["count": 3, "name": "Ann"])
    }

    @Test func namesNestedActionsByTheirCasePath() {
        enum EngineAction { case start, stop }
        enum CarAction { case engine(EngineAction), brakeTapped, honk(times: Int) }
        enum AppAction { case primary(CarAction), car(id: Int, action: CarAction), setFilter(TodoState.Filter), pair(EngineAction, EngineAction) }
        #expect(RecordedValue.actionName(AppAction.primary(.brakeTapped)) == "primary.brakeTapped")
        #expect(RecordedValue.actionName(AppAction.primary(.engine(.start))) == "primary.engine.start")
        #expect(RecordedValue.actionName(AppAction.primary(.honk(times: 2))) == "primary.honk")
        #expect(RecordedValue.actionName(AppAction.car(id: 1, action: .brakeTapped)) == "car.brakeTapped")
        #expect(RecordedValue.actionName(AppAction.pair(.start, .stop)) == "pair")
        #expect(RecordedValue.actionName(AppAction.setFilter(.done)) == "setFilter")
        #expect(RecordedValue.actionName(Increment()) == "Increment")
        #expect(RecordedValue.actionName(Optional(AppAction.primary(.brakeTapped)) as Any) == "primary.brakeTapped")
    }
}
