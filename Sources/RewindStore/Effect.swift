/// What a ``Store`` reducer asks to happen after it ran: nothing, more actions
/// at once, or work that sends actions later.
///
/// ```swift
/// case .queryChanged(let query):
///     state.isLoading = true
///     return .run { send in send(.resultsLoaded(await search(query))) }
/// ```
public struct Effect<Action: Sendable>: Sendable {
    enum Work: Sendable {
        case none
        case send([Action], fileID: StaticString, line: UInt)
        case run(@Sendable (Send<Action>) async -> Void)
    }

    let work: Work

    /// No effect.
    public static var none: Effect { Effect(work: .none) }

    /// Sends `actions` right after this one, on the same thread, in order
    /// (their trace is this call site).
    public static func send(_ actions: Action..., fileID: StaticString = #fileID, line: UInt = #line) -> Effect {
        Effect(work: .send(actions, fileID: fileID, line: line))
    }

    /// Sends the actions in `actions` right after this one, in order.
    public static func send(contentsOf actions: [Action], fileID: StaticString = #fileID, line: UInt = #line) -> Effect {
        Effect(work: actions.isEmpty ? .none : .send(actions, fileID: fileID, line: line))
    }

    /// Runs `operation` in a task; whatever it sends comes back through the store.
    public static func run(_ operation: @escaping @Sendable (Send<Action>) async -> Void) -> Effect {
        Effect(work: .run(operation))
    }
}

/// Sends actions from an effect back into its store (marked as coming from that effect).
public struct Send<Action: Sendable>: Sendable {
    let send: @Sendable (Action, StaticString, UInt) -> Void

    /// Sends `action`; the call site is recorded as its trace.
    public func callAsFunction(_ action: Action, fileID: StaticString = #fileID, line: UInt = #line) {
        send(action, fileID, line)
    }
}
