import Foundation
import Recorder
import Testing
@testable import RewindTesting

@Suite struct RecordedTraitTests {
    @Test(.recorded) func aRecordedTestGetsARecorderWritingUnderTheBuildFolder() throws {
        let recording = try #require(TestRecording.current)
        #expect(recording.path.hasSuffix("/.build/rewind-recordings/RecordedTraitTests.aRecordedTestGetsARecorderWritingUnderTheBuildFolder.jsonl"))
        var state = Counter()
        recording.recorder.recording(counterReducer)(&state, .add(3))
        try recording.recorder.flush()
        #expect(try LogReader(path: recording.path).entryCount == 1)
    }

    @Test func theTraitKeepsTheLogWhenTheTestFailsAndDeletesItWhenItPasses() async throws {
        let test = try #require(Test.current)
        let paths = PathBox()
        // A failing body run through the trait. The trait sees the failure; the
        // outer handler then drops it so that this test itself passes.
        let swallowIssues = IssueHandlingTrait.filterIssues { _ in false }
        try await swallowIssues.provideScope(for: test, testCase: Test.Case.current) {
            try await RecordedTrait().provideScope(for: test, testCase: Test.Case.current) {
                let recording = try #require(TestRecording.current)
                paths.failing = recording.path
                var state = Counter()
                recording.recorder.recording(counterReducer)(&state, .increment)
                Issue.record("the store did something wrong")
            }
        }
        let failing = try #require(paths.failing)
        #expect(FileManager.default.fileExists(atPath: failing))
        #expect(try LogReader(path: failing).entryCount == 1)

        try await RecordedTrait().provideScope(for: test, testCase: Test.Case.current) {
            paths.passing = try #require(TestRecording.current).path
        }
        let passing = try #require(paths.passing)
        #expect(!FileManager.default.fileExists(atPath: passing))
    }
}

final class PathBox: @unchecked Sendable {
    var failing: String?
    var passing: String?
}
