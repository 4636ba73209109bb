extension ActionRecorder {
    /// Runs `reduce` on `state` as one recorded reducer call, the way
    /// ``recording(_:)`` does, for a store that knows more than a wrapped
    /// reducer: the call site (`fileID`, `line`) and which entry's effect sent
    /// the action (`effectOf`, a sequence number this returned earlier).
    /// Returns `reduce`'s result and the entry's sequence number (nil once stopped).
    ///
    /// `package`: the reference store (RewindStore) is its one caller; apps
    /// record through ``recording(_:)``, ``middleware()`` or the manual `record`.
    package func recordReducerCall<State, Action, Result>(
        _ action: Action, state: inout State, initialState: State?, effectOf origin: Int64?,
        fileID: StaticString, line: UInt, reduce: (inout State) -> Result
    ) -> (result: Result, sequence: Int64?) {
        let trace = CapturedTrace.make(fileID: fileID, line: line, stack: tracesCallStacks)
        let start = clock.nanoseconds()
        let (result, values) = RecordedValuesContext.capturing { reduce(&state) }
        let end = clock.nanoseconds()
        let sequence = record(
            state: state, action: action, start: start, end: end, effectOf: origin, initialState: initialState,
            values: values, trace: trace)
        return (result, sequence)
    }
}
