/// Why ``Replay/verify(reducer:state:action:)`` failed: the reducer computed another
/// state, or the log cannot be replayed with the current types. `description` is the
/// report a test failure prints (the divergence's diff, or the one-line reason).
///
/// ```swift
/// do {
///     try Replay(log: "checkout.jsonl").verify(reducer: appReducer)
/// } catch {
///     switch error {   // a ReplayFailure: no `default` needed
///     case .diverged(let divergence): print(divergence.differingPaths)   // [/stats/done]
///     case .cannotReplay(let reason): print(reason)   // entry 3 (load): the action cannot be decoded …
///     }
/// }
/// ```
public enum ReplayFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The first entry whose recomputed state differs from the recorded one.
    case diverged(ReplayDivergence)
    /// An action or state that cannot be decoded with the current types, or that was
    /// recorded through reflection (not `Codable`).
    case cannotReplay(ReplayError)

    public var description: String {
        switch self {
        case .diverged(let divergence): divergence.description
        case .cannotReplay(let error): error.description
        }
    }
}
