import Recorder
import Testing

/// Records the test's store and keeps the log when the test fails.
///
/// ```swift
/// @Test(.recorded) func checkout() throws {
///     let recorder = try #require(TestRecording.current).recorder
///     let store = Store(initialState: Cart(), reducer: recorder.recording(cartReducer))
///     store.send(.add(item))
///     #expect(store.state.total == 12)   // on failure: log path, last actions and state diff
/// }
/// ```
public struct RecordedTrait: TestTrait, SuiteTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // A suite-level trait is applied to each test function inside it.
        guard !test.isSuite else { return try await function() }
        let recording = try TestRecording(testName: Self.name(of: test, testCase: testCase), sourceFile: test.sourceLocation.filePath)
        let failed = FailureFlag()
        let watcher = IssueHandlingTrait.compactMapIssues { issue in
            if issue.isFailure { failed.set() }
            return issue
        }
        do {
            try await TestRecording.$current.withValue(recording) {
                try await watcher.provideScope(for: test, testCase: testCase, performing: function)
            }
        } catch {
            recording.finish(failed: true)
            throw error
        }
        recording.finish(failed: failed.isSet)
    }

    /// `Suite.test()` with a case number for parameterized tests, which run in parallel.
    static func name(of test: Test, testCase: Test.Case?) -> String {
        let suite = test.id.nameComponents.dropLast().last.map { $0 + "." } ?? ""
        let base = suite + test.name
        guard let testCase, testCase.isParameterized else { return base }
        return base + "-" + String(FailureFlag.nextCaseNumber())
    }
}

extension Trait where Self == RecordedTrait {
    /// Gives the test a ``TestRecording`` (`TestRecording.current`) whose log is
    /// kept, with a readable report, when the test fails.
    public static var recorded: RecordedTrait { RecordedTrait() }
}
