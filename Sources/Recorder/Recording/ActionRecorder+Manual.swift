extension ActionRecorder {
    /// Records one action and the state after it, for stores that are not a reducer
    /// function you can wrap: TCA's `_printChanges`, an `ObservableObject` with its own
    /// `send`, a settings storage, an async `Action`.
    ///
    /// ```swift
    /// recorder.record(action, state: newState, before: oldState)
    /// ```
    ///
    /// - Parameters:
    ///   - state: The state after the action.
    ///   - before: The state before it. The first call's is the log's initial state
    ///     (shown and replayed from); later ones are not needed, since each entry
    ///     starts from the one before.
    ///   - duration: How long the action took (shown by the inspector); zero when unknown.
    ///   - effectOf: The number this method returned for the action whose effect sent
    ///     this one (`effectOf` in the log), so the inspector links the two.
    ///   - fileID, line: The call site, recorded as the entry's trace (`rewind log --trace`).
    /// - Returns: The entry's sequence number, to pass as `effectOf`; nil once recording stopped.
    ///
    /// Entries are numbered in the order of the calls; call it from one thread at a
    /// time, in the order the store applied the actions.
    @discardableResult
    public func record<State, Action>(
        _ action: Action, state: State, before: State? = nil, duration: Duration = .zero, effectOf: Int64? = nil,
        fileID: StaticString = #fileID, line: UInt = #line
    ) -> Int64? {
        guard !isDisabled else { return nil }
        let trace = CapturedTrace.make(fileID: fileID, line: line, stack: tracesCallStacks)
        let end = clock.nanoseconds()
        let (seconds, attoseconds) = duration.components
        let nanoseconds = max(0, seconds) * 1_000_000_000 + max(0, attoseconds) / 1_000_000_000
        let initialState = firstManualCall.withLock { first in
            defer { first = false }
            return first
        } ? before : nil
        return record(state: state, action: action, start: end &- UInt64(clamping: nanoseconds), end: end,
                      effectOf: effectOf, initialState: initialState, trace: trace)
    }
}
