import Foundation

/// Replays a recording through the current reducer: turns any log into a regression test.
///
/// ```swift
/// @Test func checkoutStillReplays() throws {
///     try Replay(log: "Fixtures/checkout.jsonl").verify(reducer: appReducer)
/// }
/// ```
///
/// Each recorded action is decoded with the current Action type and dispatched
/// on the state before it (the recorded initial state, then the recomputed
/// states); the reducer's return value is ignored, so effects are not run and
/// the actions they sent are replayed from the log in their recorded order.
/// Every recomputed state is encoded as the recorder encodes states and
/// compared with the recorded one as JSON.
public struct Replay: Sendable {
    /// The log being replayed.
    public let reader: LogReader

    /// Opens the log at `path`.
    /// - Throws: ``LogReadError`` when it is missing or not a Rewind log.
    public init(log path: String) throws(LogReadError) {
        reader = try LogReader(path: path)
    }

    /// Opens the log at a file URL.
    public init(log url: URL) throws(LogReadError) {
        try self.init(log: url.path)
    }

    /// Replays every entry and throws at the first problem (``ReplayFailure``):
    /// - ``ReplayFailure/diverged(_:)`` when the reducer computes a state that differs from
    ///   the recording (the entry, the action and a recorded → recomputed diff);
    /// - ``ReplayFailure/cannotReplay(_:)`` when an action or state cannot be decoded with the
    ///   current types, or was recorded through reflection.
    ///
    /// `state:` and `action:` are only needed when the reducer's types cannot be inferred.
    public func verify<State: Codable, Action: Decodable, Result>(
        reducer: (inout State, Action) -> Result, state: State.Type = State.self, action: Action.Type = Action.self
    ) throws(ReplayFailure) {
        let run = withoutActuallyEscaping(reducer) { reducer in
            ReplaySession(reader: reader, reducer: reducer).replay(from: 0, stopAtFirstProblem: true)
        }
        try Replay.throwFirstProblem(of: run)
    }

    /// A run that stopped at its first problem throws it.
    static func throwFirstProblem(of run: ReplayRun) throws(ReplayFailure) {
        switch run.checks.last {
        case .diverges(let divergence): throw .diverged(divergence)
        case .cannotReplay(let error): throw .cannotReplay(error)
        case .matches, .restarted, .restored, nil: break
        }
    }

    /// Which recorded action types (one sample each) and states (the initial
    /// state and keyframes) decode with the current types. Never throws.
    public func compatibility<State: Codable, Action: Decodable>(state: State.Type, action: Action.Type) -> ReplayCompatibilityReport {
        ReplaySession<State, Action>(reader: reader, reducer: { (_: inout State, _: Action) in }).compatibility
    }
}
