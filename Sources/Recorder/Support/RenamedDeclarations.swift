// Names replaced so the public API says what each thing is (issue 33). Each stays one
// release, so code written against it still builds, with a warning naming the new one;
// delete this file in the release after. Tests/RenamedDeclarations compiles code that
// uses every one of them (`RenamedDeclarationTests`).

/// The action of a ``LogEntry``, now ``LogEntry/Action``.
@available(*, deprecated, renamed: "LogEntry.Action")
public typealias RecordedAction = LogEntry.Action

/// What ``LogReader/refresh()`` found, now ``LogFileChange``.
@available(*, deprecated, renamed: "LogFileChange")
public typealias LogRefresh = LogFileChange

/// Whether a log decodes with the current types, now ``ReplayCompatibilityReport``.
@available(*, deprecated, renamed: "ReplayCompatibilityReport")
public typealias CompatibilityReport = ReplayCompatibilityReport

/// The recording of a unit of asynchronous work, now ``AsyncWorkRecording``.
@available(*, deprecated, renamed: "AsyncWorkRecording")
public typealias WorkRecording<Input, Output> = AsyncWorkRecording<Input, Output>
