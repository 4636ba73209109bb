/// What one wrapper made by ``ActionRecorder/recording(_:)`` keeps between its
/// calls, so that recording a call costs the app's thread little more than the
/// reducer: the type decisions are made on the first call and kept, the
/// ``Recorded`` context is reused, and the entry is created from a metatype
/// kept here rather than looked up per call.
///
/// Why it matters: at an app's pace (an action every few milliseconds, other
/// work in between) each dispatch finds the caches cold, and every runtime
/// lookup, lock and allocation on this path costs a cache miss or several
/// (docs/PERFORMANCE.md, `## Recorder`).
///
/// Not thread-safe: a wrapper's calls are serialised by its store, as the
/// `inout` state requires.
final class ReducerHandOff<State, Action> {
    private let recorder: ActionRecorder
    private let clock: RecorderClock
    private let tracesCallStacks: Bool
    // Unchecked: only the store's serialised calls touch these (dynamic exclusivity
    // checks cost a thread-local lookup per access, which showed in profiles).
    @exclusivity(unchecked) private var isFirstCall = true
    /// The state before the first call, until its entry takes it (for the header);
    /// the flag is what the other calls test (testing the `Any?` itself copies it).
    @exclusivity(unchecked) private var initialState: Any?
    @exclusivity(unchecked) private var holdsInitialState = false
    /// Whether states and actions reach class instances, and are therefore encoded
    /// on this thread (``CallerThreadEncoding``); decided on the first call.
    @exclusivity(unchecked) private var encodesStates = false
    @exclusivity(unchecked) private var encodesActions = false
    private let entryClass = TypedPendingEntry<State, Action>.self
    /// Bound around each call, emptied after it.
    private let context = RecordedValuesContext()
    private let contextKey = RecordedValuesContext.bindingKey

    init(recorder: ActionRecorder, clock: RecorderClock, tracesCallStacks: Bool) {
        self.recorder = recorder
        self.clock = clock
        self.tracesCallStacks = tracesCallStacks
    }

    func dispatch<Result>(_ state: inout State, _ action: Action, _ reducer: (inout State, Action) -> Result) -> Result {
        if isFirstCall { firstCall(state, action) }
        let start = clock.nanoseconds()
        let result = context.bound(key: contextKey) { reducer(&state, action) }
        let end = clock.nanoseconds()

        let entry = entryClass.init(state: state, action: action, endNanoseconds: end, durationNanoseconds: end &- start)
        // Each set only when there is something to set: an empty one would still be
        // a copy through a value witness, and this path is all cold cache misses.
        if context.hasCaptured { entry.recordedValues = context.takeCaptured() }
        if tracesCallStacks { entry.trace = CapturedTrace.make(fileID: nil, line: 0, stack: true) }
        if holdsInitialState {
            entry.initialState = initialState
            (initialState, holdsInitialState) = (nil, false)
        }
        if encodesStates {
            entry.encodedState = EncodedDocument.encode(state)
            entry.encodedInitialState = entry.initialState.map { EncodedDocument.encode($0) }
        }
        if encodesActions { entry.encodedPayload = RecordedValue.encodePayload(action) }
        recorder.queue.enqueue(entry)
        return result
    }

    /// The first call's work: the type decisions, and a copy of the state before the reducer changes it.
    private func firstCall(_ state: State, _ action: Action) {
        isFirstCall = false
        encodesStates = recorder.callerThreadEncoding.mustEncodeOnCaller(state)
        encodesActions = recorder.callerThreadEncoding.mustEncodeOnCaller(action)
        (initialState, holdsInitialState) = (state, true)
    }
}
