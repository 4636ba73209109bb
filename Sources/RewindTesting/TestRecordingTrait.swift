import Foundation
import Recorder
import Testing

#if compiler(>=6.1)
/// Records the test's store and keeps the log when the test fails.
///
/// Toolchains: Swift 6.2 and later keep the log only when the test fails and
/// put the report on the failure itself, an error the test throws included (and
/// the log as an attachment); Swift 6.1 has scoping traits but no way to watch
/// issues, so every test's log is kept (an error the test throws carries the
/// report); on Swift 6.0, which has no scoping traits, use ``TestRecording`` directly.
///
/// ```swift
/// @Test(.recorded) func checkout() throws {
///     let recorder = try #require(TestRecording.current).recorder
///     let store = Store(initialState: Cart(), reducer: recorder.recording(cartReducer))
///     store.send(.add(item))
///     #expect(store.state.total == 12)   // on failure: log path, last actions and state diff
/// }
/// ```
public struct TestRecordingTrait: TestTrait, SuiteTrait, TestScoping {
    /// True: on a suite, every test inside it (nested suites too) is recorded.
    public var isRecursive: Bool { true }

    /// Runs the test with a ``TestRecording`` bound to `TestRecording.current`.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // A suite-level trait is applied to each test function inside it.
        guard !test.isSuite else { return try await function() }
        let (name, arguments) = Self.name(of: test, testCase: testCase)
        let recording = try TestRecording(
            testName: name, arguments: arguments, sourceFile: test.sourceLocation.filePath,
            environment: ProcessInfo.processInfo.environment)
        #if compiler(>=6.2)
        let failed = FailureFlag()
        let watcher = IssueHandlingTrait.compactMapIssues { issue in
            guard Self.isFailure(issue) else { return issue }
            // The first failure carries the report (what was recorded up to it), so it is
            // read with the failure, in the IDE and the console, not only on stderr.
            guard failed.set() else { return issue }
            var issue = issue
            try? recording.recorder.flush()
            issue.comments.append(Comment(rawValue: recording.failureReport()))
            return issue
        }
        var thrown: (any Error)?
        do {
            try await TestRecording.$current.withValue(recording) {
                try await watcher.provideScope(for: test, testCase: testCase) {
                    do {
                        try await function()
                    } catch where Self.isUnreported(error) && !failed.isSet {
                        // Thrown out of this scope, the error would become an issue where the watcher
                        // cannot see it: recorded here, it carries the report as an `#expect` failure does.
                        Issue.record(error, sourceLocation: test.sourceLocation)
                    }
                }
            }
        } catch {
            thrown = error
        }
        // Failed, or (thrown: cancelled, or after a failure that carries the report) ended early:
        // the report is printed only when no issue carries it.
        if failed.isSet || thrown != nil {
            recording.finish(failed: true, printing: !failed.isSet)
            // The log itself, for `swift test --attachments-path` and IDEs that keep attachments.
            if let bytes = FileManager.default.contents(atPath: recording.path) {
                Attachment.record(Array(bytes), named: (recording.path as NSString).lastPathComponent)
            }
        } else {
            recording.finish(failed: false)
        }
        if let thrown { throw thrown }
        #else
        // Swift 6.1: an `#expect` that fails cannot be seen from here, so the log is kept
        // whatever happens (as with REWIND_KEEP=1), with the report printed when it throws.
        do {
            try await TestRecording.$current.withValue(recording) { try await function() }
        } catch where Self.isUnreported(error) {
            // The error as the issue it would become, with the report attached.
            let report = recording.finish(failed: true, printing: false) ?? ""
            Issue.record(error, Comment(rawValue: report), sourceLocation: test.sourceLocation)
            return
        } catch {
            recording.finish(failed: true, printing: true)
            throw error
        }
        recording.finish(failed: false, printing: false, environment: ["REWIND_KEEP": "1"])
        #endif
    }

    /// Whether a thrown `error` still has to become an issue: not a failed `#require`
    /// (recorded already) and not a cancelled test (`Test.cancel`, a cancelled task), which
    /// Swift Testing reports as such, not as a failure.
    private static func isUnreported(_ error: any Error) -> Bool {
        !(error is ExpectationFailedError) && !(error is CancellationError) && !Task.isCancelled
    }

    #if compiler(>=6.2)
    /// Whether `issue` fails the test (a warning or a known issue does not).
    private static func isFailure(_ issue: Issue) -> Bool {
        #if compiler(>=6.3)
        issue.isFailure
        #else
        !issue.isKnown
        #endif
    }
    #endif

    /// `Suite.test()`, and for a parameterized case the arguments it runs with
    /// (`count: 3`), or its number when they cannot be read (cases run in parallel).
    static func name(of test: Test, testCase: Test.Case?) -> (name: String, arguments: String?) {
        let suite = test.id.nameComponents.dropLast().last.map { $0 + "." } ?? ""
        let base = suite + test.name
        guard let testCase, testCase.isParameterized else { return (base, nil) }
        if let arguments = TestCaseArguments.describe(testCase) { return (base, arguments) }
        return (base + "-" + String(FailureFlag.nextCaseNumber()), nil)
    }
}

extension Trait where Self == TestRecordingTrait {
    /// Gives the test a ``TestRecording`` (`TestRecording.current`) whose log is
    /// kept, with a readable report, when the test fails.
    public static var recorded: TestRecordingTrait { TestRecordingTrait() }
}
#endif
