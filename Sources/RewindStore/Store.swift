import Foundation
import Recorder

/// A small reference store: read-only state, `send(_:)`, and effects that send
/// further actions now or later. Used by the demo, the tests and replay; it is
/// not meant to compete with real architectures. A library of its own
/// (`import RewindStore`) so its names never meet TCA's `Store` and `Effect`
/// in an app that links ActionRecorder.
///
/// With a recorder, every action is recorded, and an action sent by an effect
/// records which entry's effect sent it (`effectOf` in the log).
///
/// ```swift
/// let store = Store(initialState: SearchState(), recorder: recorder) { state, action in
///     .send(contentsOf: SearchDomain.reduce(&state, action))
/// }
/// store.send(.queryChanged("swift"))
/// await store.finishEffects()
/// ```
///
/// Thread-safe: actions may be sent from any thread; the reducer runs under a
/// lock, one action at a time.
public final class Store<State, Action: Sendable>: @unchecked Sendable {
    private let lock = NSRecursiveLock()
    private var current: State
    private let reducer: (inout State, Action) -> Effect<Action>
    private let recorder: ActionRecorder?
    private var sentFirst = false
    private var running: [Int: Task<Void, Never>] = [:]
    private var nextEffectID = 0

    /// A store at `initialState` that runs `reducer` for every action, recorded into
    /// `recorder` when one is given (nil: the store records nothing).
    public init(
        initialState: State, recorder: ActionRecorder? = nil,
        reducer: @escaping (inout State, Action) -> Effect<Action>
    ) {
        current = initialState
        self.recorder = recorder
        self.reducer = reducer
    }

    /// The current state.
    public var state: State { lock.withLock { current } }

    /// Runs the reducer with `action`, then its effect. With a recorder, the call
    /// site is recorded as the entry's trace (`rewind log --trace`).
    public func send(_ action: Action, fileID: StaticString = #fileID, line: UInt = #line) {
        send(action, effectOf: nil, fileID: fileID, line: line)
    }

    /// Returns when every effect started so far, and every effect those started, has finished.
    public func finishEffects() async {
        while let task = lock.withLock({ running.values.first }) {
            await task.value
        }
    }

    private func send(_ action: Action, effectOf origin: Int64?, fileID: StaticString, line: UInt) {
        lock.lock()
        let effect: Effect<Action>
        var sequence: Int64?
        if let recorder {
            let initialState = sentFirst ? nil : current
            sentFirst = true
            (effect, sequence) = recorder.recordReducerCall(
                action, state: &current, initialState: initialState, effectOf: origin, fileID: fileID, line: line
            ) { [reducer] state in reducer(&state, action) }
        } else {
            effect = reducer(&current, action)
        }
        lock.unlock()
        run(effect, origin: sequence)
    }

    private func run(_ effect: Effect<Action>, origin: Int64?) {
        switch effect.work {
        case .none:
            break
        case .send(let actions, let fileID, let line):
            for action in actions { send(action, effectOf: origin, fileID: fileID, line: line) }
        case .run(let operation):
            let send = Send<Action> { [weak self] action, fileID, line in self?.send(action, effectOf: origin, fileID: fileID, line: line) }
            lock.withLock {
                let id = nextEffectID
                nextEffectID += 1
                running[id] = Task { [weak self] in
                    await operation(send)
                    self?.lock.withLock { _ = self?.running.removeValue(forKey: id) }
                }
            }
        }
    }
}
