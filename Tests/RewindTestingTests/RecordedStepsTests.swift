import Foundation
import Testing
import Recorder
import RewindTesting
import SampleDomains

/// `RecordedSteps`, what `rewind testgen` writes tests with, on the todo sample recording.
@Suite struct RecordedStepsTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../sample-logs/todos.jsonl").standardized.path

    @Test func passesWhenTheReducerDoesWhatTheRecordingSaw() throws {
        var steps = try RecordedSteps(fixture: Self.fixture, reducer: TodoDomain.reduce)
        steps.send(#"{"add":{"title":"Buy milk"}}"#, expecting: ["/todos/0/title": #""Buy milk""#, "/nextID": "2", "/stats/total": .recorded])
        steps.send(#"{"add":{"title":"Write replay docs"}}"#, expecting: ["/todos/2": nil])
        steps.skip("as if it could not be decoded")
        #expect(steps.state.todos.map(\.title) == ["Buy milk", "Write replay docs", "Call the bank"])
        #expect(steps.stepCount == 3)
    }

    @Test func aWrongValueFailsAtItsStepNamingThePath() throws {
        var steps = try RecordedSteps(fixture: Self.fixture, reducer: { (state: inout TodoState, action: TodoAction) in
            TodoDomain.reduce(&state, action)
            state.stats.total = 0   // the bug
        })
        withKnownIssue {
            steps.send(#"{"add":{"title":"Buy milk"}}"#, expecting: ["/nextID": "2", "/stats/total": "1"])
        } matching: { issue in
            issue.comments.map(\.rawValue) == ["step 1 (add): /stats/total is 0; the recording has 1"]
        }
    }

    @Test func anActionThatDoesNotDecodeIsReportedAndTheRecordedStateTakesOver() throws {
        var steps = try RecordedSteps(fixture: Self.fixture, reducer: TodoDomain.reduce)
        withKnownIssue {
            steps.send(#"{"teleport":{}}"#)
        } matching: { issue in
            issue.comments.first?.rawValue.hasPrefix("step 1: the action does not decode as TodoAction: ") == true
        }
        #expect(steps.state.todos.map(\.title) == ["Buy milk"])
    }

    @Test func aMissingFixtureThrows() {
        #expect(throws: LogReadError.self) { try RecordedSteps(fixture: "no-such.fixture.jsonl", reducer: TodoDomain.reduce) }
    }
}
