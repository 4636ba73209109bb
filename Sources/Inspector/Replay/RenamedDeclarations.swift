// Names replaced so the public API says what each thing is (issue 33). Each stays one
// release, so code written against it still builds, with a warning naming the new one;
// delete this file in the release after (`RenamedDeclarationTests` uses every one).

/// A condition every recorded state should meet, now ``StateInvariant``.
@available(*, deprecated, renamed: "StateInvariant")
public typealias Invariant<State: Decodable> = StateInvariant<State>
