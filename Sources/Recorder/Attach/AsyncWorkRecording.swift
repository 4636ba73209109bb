/// Records a unit of asynchronous work — ReactiveSwift's or RxSwift's `Action`, a
/// loader — as a small store: each start (`apply`), value, error, completion and
/// interruption is an action, and the state is whether it runs, its last value and its
/// last error. The events of a run are linked to the `apply` that started it (`effectOf`).
///
/// A short extension wires it to ReactiveSwift's `Action`, without Rewind importing it:
///
/// ```swift
/// extension Action {
///     convenience init(recording recorder: ActionRecorder, execute: @escaping (Input) -> SignalProducer<Output, Error>) {
///         let work = AsyncWorkRecording<Input, Output>(recorder: recorder)
///         self.init { input in
///             work.applied(input)
///             return execute(input).on(failed: { work.failed($0) }, completed: { work.completed() },
///                                      interrupted: { work.interrupted() }, value: { work.value($0) })
///         }
///     }
/// }
/// ```
///
/// Use one recorder per piece of work (its log's state is this work's state). Events may
/// arrive on any thread; they are recorded in the order they arrive.
public final class AsyncWorkRecording<Input, Output>: @unchecked Sendable {
    /// The recorded state.
    public struct State {
        /// True from `execute` until its work finishes, fails or is interrupted (disposed).
        public var isExecuting = false
        /// What the last finished run produced (nil before the first).
        public var lastValue: Output?
        /// The last error's description.
        public var lastError: String?
    }

    /// The recorded actions.
    public enum Event {
        case apply(Input)
        case value(Output)
        case failed(String)
        case completed
        /// The run was disposed of before it finished (ReactiveSwift's `interrupted`).
        case interrupted
    }

    /// The state after `event`: what the log replays with.
    public static func reduce(_ state: inout State, _ event: Event) {
        switch event {
        case .apply:
            state.isExecuting = true
            state.lastError = nil
        case .value(let output): state.lastValue = output
        case .failed(let description):
            state.lastError = description
            state.isExecuting = false
        case .completed, .interrupted: state.isExecuting = false
        }
    }

    private let recorder: ActionRecorder
    /// The state, and the sequence number of the `apply` whose run is going on.
    private let current = Locked((state: State(), run: Int64?.none))

    /// Records every `execute` and finished run into `recorder`.
    public init(recorder: ActionRecorder) { self.recorder = recorder }

    /// A run started with `input`.
    public func applied(_ input: Input, fileID: StaticString = #fileID, line: UInt = #line) {
        record(.apply(input), fileID: fileID, line: line)
    }

    /// The run produced `output`.
    public func value(_ output: Output) { record(.value(output)) }

    /// The run failed.
    public func failed(_ error: any Error) { record(.failed(String(describing: error))) }

    /// The run completed.
    public func completed() { record(.completed) }

    /// The run was interrupted (disposed of) before it finished: it no longer runs, as
    /// ReactiveSwift's `Action` then says, and its last value and error stay as they were.
    public func interrupted() { record(.interrupted) }

    private func record(_ event: Event, fileID: StaticString = #fileID, line: UInt = #line) {
        current.withLock { current in
            let before = current.state
            Self.reduce(&current.state, event)
            let isStart = if case .apply = event { true } else { false }
            let sequence = recorder.record(
                event, state: current.state, before: before, effectOf: isStart ? nil : current.run, fileID: fileID, line: line)
            if isStart { current.run = sequence }
        }
    }
}

extension AsyncWorkRecording.State: Encodable where Output: Encodable {}
extension AsyncWorkRecording.State: Decodable where Output: Decodable {}
extension AsyncWorkRecording.Event: Encodable where Input: Encodable, Output: Encodable {}
extension AsyncWorkRecording.Event: Decodable where Input: Decodable, Output: Decodable {}
