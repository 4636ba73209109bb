// Issue handling traits, which these tests watch `.recorded` through, came with Swift 6.2.
#if compiler(>=6.2)
import Foundation
import Recorder
import Testing
@testable import RewindTesting

@Suite struct TestRecordingTraitTests {
    @Test(.recorded) func aRecordedTestGetsARecorderWritingUnderTheBuildFolder() throws {
        let recording = try #require(TestRecording.current)
        #expect(recording.path.hasSuffix("/.build/rewind-recordings/TestRecordingTraitTests.aRecordedTestGetsARecorderWritingUnderTheBuildFolder.jsonl"))
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
            try await TestRecordingTrait().provideScope(for: test, testCase: Test.Case.current) {
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

        try await TestRecordingTrait().provideScope(for: test, testCase: Test.Case.current) {
            paths.passing = try #require(TestRecording.current).path
        }
        let passing = try #require(paths.passing)
        #expect(!FileManager.default.fileExists(atPath: passing))
    }
}

@Suite struct RecordedTraitReportTests {
    @Test func theFirstFailureCarriesTheReportAsAComment() async throws {
        let test = try #require(Test.current)
        let comments = CommentBox()
        // The outer handler sees the issue as the trait passed it on, then drops it so this test passes.
        let inspect = IssueHandlingTrait.filterIssues { issue in
            comments.append(issue.comments.map(\.rawValue))
            return false
        }
        try await inspect.provideScope(for: test, testCase: Test.Case.current) {
            try await TestRecordingTrait().provideScope(for: test, testCase: Test.Case.current) {
                let recording = try #require(TestRecording.current)
                var state = Counter()
                let reducer = recording.recorder.recording(counterReducer)
                reducer(&state, .add(4))
                reducer(&state, .increment)
                #expect(state.count == 6, "the store is off by one")
                #expect(state.count == 7, "a second failure")
            }
        }
        let issues = comments.all
        #expect(issues.count == 2)
        let first = issues.first ?? []
        #expect(first.first == "the store is off by one")
        let report = try #require(first.last)
        #expect(report.hasPrefix("Rewind: test failed; recording kept at "))
        #expect(report.contains("last actions (of 2):\n    1  add 4\n    2  increment\n  state change of entry 2, increment:"))
        #expect(issues.last?.contains { $0.hasPrefix("Rewind:") } == false, "only the first failure carries the report")
        let firstLine = report.split(separator: "\n").first.map(String.init) ?? ""
        #expect(firstLine.hasSuffix("/RecordedTraitReportTests.theFirstFailureCarriesTheReportAsAComment.jsonl"))
    }

    /// What the test's own store throws, to be seen as the issue it becomes.
    struct StoreError: Error, CustomStringConvertible { var description: String { "the store refused the action" } }

    @Test func anErrorTheTestThrowsIsItsIssueAndCarriesTheReport() async throws {
        let test = try #require(Test.current)
        let issues = IssueBox()
        let inspect = IssueHandlingTrait.filterIssues { issue in
            issues.append(issue)
            return false
        }
        var thrownOut = false
        do {
            try await inspect.provideScope(for: test, testCase: Test.Case.current) {
                try await TestRecordingTrait().provideScope(for: test, testCase: Test.Case.current) {
                    let recording = try #require(TestRecording.current)
                    var state = Counter()
                    recording.recorder.recording(counterReducer)(&state, .add(4))
                    throw StoreError()
                }
            }
        } catch is StoreError {
            thrownOut = true
        }
        #expect(!thrownOut, "recorded inside the trait's scope, where the report can go with it")
        let recorded = issues.all
        #expect(recorded.count == 1)
        let issue = try #require(recorded.first)
        guard case .errorCaught(let error) = issue.kind else { Issue.record("not the thrown error: \(issue.kind)"); return }
        #expect(error is StoreError)
        let report = try #require(issue.comments.last?.rawValue)
        #expect(report.hasPrefix("Rewind: test failed; recording kept at "))
        #expect(report.contains("last actions (of 1):\n    1  add 4\n"))
    }

    @Test func aFailedRequireIsOneIssueWithTheReport() async throws {
        let test = try #require(Test.current)
        let issues = IssueBox()
        let inspect = IssueHandlingTrait.filterIssues { issue in
            issues.append(issue)
            return false
        }
        do {
            try await inspect.provideScope(for: test, testCase: Test.Case.current) {
                try await TestRecordingTrait().provideScope(for: test, testCase: Test.Case.current) {
                    let recording = try #require(TestRecording.current)
                    var state = Counter()
                    recording.recorder.recording(counterReducer)(&state, .increment)
                    try #require(state.count == 2, "one increment makes 1")
                }
            }
        } catch is ExpectationFailedError {}
        let recorded = issues.all
        #expect(recorded.count == 1, "the failed #require, not a second issue for the error it throws")
        #expect(recorded.first?.comments.map(\.rawValue).first == "one increment makes 1")
        #expect(recorded.first?.comments.last?.rawValue.hasPrefix("Rewind: test failed; recording kept at ") == true)
    }

    @Test(.recorded, arguments: [3, 5])
    func aParameterizedCaseIsNamedByItsArguments(count: Int) throws {
        let recording = try #require(TestRecording.current)
        #expect(recording.path.hasSuffix("/RecordedTraitReportTests.aParameterizedCaseIsNamedByItsArguments.count.count.\(count).jsonl"))
        var state = Counter()
        recording.recorder.recording(counterReducer)(&state, .add(count))
        try recording.recorder.flush()
        let header = try LogReader(path: recording.path).header
        #expect(header.metadata["arguments"] == "count: \(count)")
        #expect(header.metadata["test"] == "RecordedTraitReportTests.aParameterizedCaseIsNamedByItsArguments(count:)(count: \(count))")
    }

    @Test(arguments: ["gift wrap"])
    func stringArgumentsAreQuotedAsInSwift(note: String) throws {
        let testCase = try #require(Test.Case.current)
        #expect(TestCaseArguments.describe(testCase) == #"note: "gift wrap""#)
    }
}

final class IssueBox: @unchecked Sendable {
    private let lock = NSLock()
    private var issues: [Issue] = []
    func append(_ issue: Issue) { lock.withLock { issues.append(issue) } }
    var all: [Issue] { lock.withLock { issues } }
}

final class CommentBox: @unchecked Sendable {
    private let lock = NSLock()
    private var issues: [[String]] = []
    func append(_ comments: [String]) { lock.withLock { issues.append(comments) } }
    var all: [[String]] { lock.withLock { issues } }
}

final class PathBox: @unchecked Sendable {
    var failing: String?
    var passing: String?
}
#endif
