import Recorder

/// A condition every recorded state should meet, written in Swift over the
/// decoded state; `bisect` in a debug executable names the first entry that
/// breaks it (see ``Inspector``).
///
/// ```swift
/// StateInvariant("no todo is done twice") { (state: TodoState) in
///     Set(state.todos.map(\.id)).count == state.todos.count
/// }
/// ```
public struct StateInvariant<State: Decodable> {
    /// How `bisect` names it when it breaks.
    public let name: String
    let holds: (State) -> Bool

    /// An invariant named `name` that holds for a state when `holds` returns true.
    public init(_ name: String, _ holds: @escaping (State) -> Bool) {
        self.name = name
        self.holds = holds
    }

    /// Decodes each state before running the closure.
    var erased: AnyStateInvariant {
        let holds = self.holds
        return AnyStateInvariant(name: name) { value in
            do {
                return .success(holds(try JSONValueDecoder().decode(State.self, from: value)))
            } catch {
                return .failure(StateDecodingFailure(description: "the state does not decode as \(State.self): \(error)"))
            }
        }
    }
}
