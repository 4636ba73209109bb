/// One reducer call as the caller's thread hands it over: copies of the
/// (copy-on-write) values, encoded later by the writer thread.
///
/// A class with the values in a generic subclass (``TypedPendingEntry``), so
/// that handing over costs the caller one allocation: no existential box per
/// value and no copy of a large struct into the queue. The writer reads the
/// values as `Any` (boxing them on its own thread) and lets go of the entry
/// as soon as it is encoded, which frees the copies: the queue's memory bound
/// counts on that.
class PendingEntry {
    var sequence: Int64 = 0
    /// Monotonic clock reading when the reducer returned.
    let endNanoseconds: UInt64
    let durationNanoseconds: UInt64
    var effectOf: Int64?
    /// The action's type as the log names it (the static type unless a caller says otherwise).
    var actionType: Any.Type
    // The members below are set after creation, and only when there is something
    // to set: the calls that have none copy nothing through a value witness.
    /// The state before the first action of a wrapper, for the header.
    var initialState: Any?
    /// Outside values the reducer read through ``Recorded`` (the `values` member; see EntryExtras).
    var recordedValues: [CapturedValue] = []
    /// Where the action was dispatched (the `trace` member; see EntryExtras).
    var trace: CapturedTrace?
    /// Set instead of being encoded by the writer when the type reaches class
    /// instances (see ``CallerThreadEncoding``).
    var encodedState: EncodedDocument?
    var encodedInitialState: EncodedDocument?
    var encodedPayload: RecordedValue.EncodedPayload?

    init(endNanoseconds: UInt64, durationNanoseconds: UInt64, actionType: Any.Type) {
        self.endNanoseconds = endNanoseconds
        self.durationNanoseconds = durationNanoseconds
        self.actionType = actionType
    }

    /// The state after the call. Only ``TypedPendingEntry`` is ever created; these
    /// members are the writer's untyped view of it.
    var state: Any { preconditionFailure("only TypedPendingEntry is handed over") }
    var action: Any { preconditionFailure("only TypedPendingEntry is handed over") }
    var stateType: Any.Type { preconditionFailure("only TypedPendingEntry is handed over") }
}

/// The values of a ``PendingEntry``, typed as the caller had them.
final class TypedPendingEntry<State, Action>: PendingEntry {
    // Neither optional nor a tuple: in the unspecialized code that creates entries,
    // `State?` or `(State, Action)` would be a runtime type lookup per call.
    private let stateValue: State
    private let actionValue: Action

    /// `required` so a hand-off can create entries through a metatype it keeps
    /// (``ReducerHandOff``) instead of looking the generic class up per call.
    required init(state: State, action: Action, endNanoseconds: UInt64, durationNanoseconds: UInt64) {
        stateValue = state
        actionValue = action
        super.init(endNanoseconds: endNanoseconds, durationNanoseconds: durationNanoseconds, actionType: Action.self)
    }

    override var state: Any { stateValue }
    override var action: Any { actionValue }
    override var stateType: Any.Type { State.self }
}
