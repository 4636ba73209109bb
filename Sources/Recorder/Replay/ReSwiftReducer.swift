/// A ReSwift reducer, `(Action, State?) -> State`, made replayable without importing
/// ReSwift: give it the action types to decode recorded actions with.
///
/// ```swift
/// let replayable = ReSwiftReducer(appReducer, actions: [AddTodo.self, ToggleTodo.self])
/// try Replay(log: "app.jsonl").verify(replayable)            // Inspector.main(reducer: replayable), expectReplays(log:reducer:)
/// ```
///
/// ReSwift actions are values of types conforming to its `Action` protocol, so
/// the log names each action by its type (`AddTodo`, or the case path for an enum
/// action). Replay decodes an entry with the listed type of that name, else with
/// the first listed type that decodes it (list enum types before structs without
/// stored properties, which decode from anything). Actions that are not `Codable`,
/// such as ReSwift's own `ReSwiftInit`, are restored from the log rather than re-run.
public struct ReSwiftReducer<State: Codable, Action> {
    let reducer: (Action, State?) -> State
    let actionTypes: [any Decodable.Type]

    /// - Parameters:
    ///   - reducer: The app's reducer; `Action` is ReSwift's protocol (`any Action`).
    ///   - actions: The `Decodable` action types the app dispatches.
    public init(_ reducer: @escaping (Action, State?) -> State, actions: [any Decodable.Type]) {
        self.reducer = reducer
        self.actionTypes = actions
    }

    /// The reducer in the shape replay runs: the state is never nil there (replay starts
    /// from a recorded state).
    package var inoutReducer: (inout State, Action) -> Void {
        { [reducer] state, action in state = reducer(action, state) }
    }

    /// Picks the listed type named like the entry, then any listed type that decodes.
    package var decoding: ActionDecoding<Action> {
        ActionDecoding { [actionTypes] name, payload, decoder throws(JSONValueDecodingError) in
            let named = actionTypes.filter { name != nil && String(describing: $0) == name }
            var firstError: JSONValueDecodingError?
            for type in named + actionTypes.filter({ String(describing: $0) != name }) {
                do throws(JSONValueDecodingError) {
                    if let action = try Self.decode(type, payload, decoder) as? Action { return action }
                } catch {
                    if firstError == nil { firstError = error }
                }
            }
            if let firstError, !named.isEmpty { throw firstError }
            let listed = actionTypes.map { String(describing: $0) }.joined(separator: ", ")
            throw JSONValueDecodingError(
                codingPath: [],
                reason: "none of the listed action types (\(listed.isEmpty ? "none" : listed)) decodes it"
                    + (name.map { "; list the type \($0)" } ?? ""))
        }
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ payload: JSONValue, _ decoder: JSONValueDecoder) throws(JSONValueDecodingError) -> Any {
        try decoder.decode(type, from: payload)
    }

    package func session(reader: LogReader) -> ReplaySession<State, Action> {
        ReplaySession(reader: reader, reducer: inoutReducer, decodeAction: decoding)
    }
}

extension Replay {
    /// ``verify(reducer:state:action:)`` for a ReSwift reducer (``ReSwiftReducer``).
    public func verify<State, Action>(_ reducer: ReSwiftReducer<State, Action>) throws(ReplayFailure) {
        try Replay.throwFirstProblem(of: reducer.session(reader: reader).replay(from: 0, stopAtFirstProblem: true))
    }

    /// Which recorded action types and states decode with a ReSwift reducer's types.
    public func compatibility<State, Action>(_ reducer: ReSwiftReducer<State, Action>) -> ReplayCompatibilityReport {
        reducer.session(reader: reader).compatibility
    }
}
