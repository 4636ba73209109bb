// Names replaced so the public API says what each thing is (issue 33). Each stays one
// release, so code written against it still builds, with a warning naming the new one;
// delete this file in the release after (`RenamedDeclarationTests` uses every one).

/// Replays a fixture step by step, now ``FixtureReplay``.
@available(*, deprecated, renamed: "FixtureReplay")
public typealias RecordedSteps<State: Codable, Action> = FixtureReplay<State, Action>

/// Why a fixture replay could not start, now ``FixtureReplayError``.
@available(*, deprecated, renamed: "FixtureReplayError")
public typealias RecordedStepsError = FixtureReplayError

#if compiler(>=6.1)
/// The trait behind `@Test(.recorded)`, now ``TestRecordingTrait``.
@available(*, deprecated, renamed: "TestRecordingTrait")
public typealias RecordedTrait = TestRecordingTrait
#endif
