import Foundation
import Testing
import Recorder
import RewindTesting
import SampleDomains

/// `FixtureReplay`, what `rewind testgen` writes tests with, on the todo sample recording.
@Suite struct FixtureReplayTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../sample-logs/todos.jsonl").standardized.path

    @Test func passesWhenTheReducerDoesWhatTheRecordingSaw() throws {
        var steps = try FixtureReplay(fixture: Self.fixture, reducer: TodoDomain.reduce)
        steps.send(#"{"add":{"title":"Buy milk"}}"#, expecting: ["/todos/0/title": #""Buy milk""#, "/nextID": "2", "/stats/total": .recorded])
        steps.send(#"{"add":{"title":"Write replay docs"}}"#, expecting: ["/todos/2": nil])
        steps.skip("as if it could not be decoded")
        #expect(steps.state.todos.map(\.title) == ["Buy milk", "Write replay docs", "Call the bank"])
        #expect(steps.stepCount == 3)
    }

    @Test func aWrongValueFailsAtItsStepNamingThePath() throws {
        var steps = try FixtureReplay(fixture: Self.fixture, reducer: { (state: inout TodoState, action: TodoAction) in
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
        var steps = try FixtureReplay(fixture: Self.fixture, reducer: TodoDomain.reduce)
        withKnownIssue {
            steps.send(#"{"teleport":{}}"#)
        } matching: { issue in
            issue.comments.first?.rawValue.hasPrefix("step 1: the action does not decode as TodoAction: ") == true
        }
        #expect(steps.state.todos.map(\.title) == ["Buy milk"])
    }

    @Test func aMissingFixtureThrows() {
        #expect(throws: LogReadError.self) { try FixtureReplay(fixture: "no-such.fixture.jsonl", reducer: TodoDomain.reduce) }
    }
}

/// A counter whose every change is stamped with outside values: live, they differ on every run.
struct Stamped: Codable, Equatable { var count = 0; var id = ""; var price = 0 }
enum StampAction: Codable, Equatable { case bump }

func stampReducer(_ state: inout Stamped, _ action: StampAction) {
    state.count += 1
    state.id = Recorded.uuid().uuidString
    state.price = Recorded.value("price") { Int.random(in: 1...1_000_000) }
}

/// ReSwift-shaped: actions are values of a protocol; the store's own init action is not Codable.
private protocol TallyAction {}
private struct TallyInit: TallyAction {}
private struct AddToTally: TallyAction, Codable { var by: Int }

private func tallyReducer(_ action: any TallyAction, _ state: Stamped?) -> Stamped {
    var state = state ?? Stamped()
    if let add = action as? AddToTally { state.count += add.by }
    return state
}

/// What `rewind testgen` relies on: outside values replayed as recorded, steps named by
/// the recording's entry numbers, ReSwift reducers.
@Suite struct RecordedStepsReplayTests {
    let directory = TemporaryDirectory()

    /// Two `bump`s recorded live; returns the log and its recorded states.
    func stampedRecording() throws -> (path: String, states: [JSONValue]) {
        let path = directory.file("stamped.jsonl")
        let recorder = try ActionRecorder(file: path)
        var state = Stamped()
        let reducer = recorder.recording(stampReducer)
        reducer(&state, .bump)
        reducer(&state, .bump)
        try recorder.close()
        let reader = try LogReader(path: path)
        return (path, [try reader.state(at: 0), try reader.state(at: 1)])
    }

    /// A slice of `source`'s entries `from…` (0-based) as `rewind export --format jsonl` and testgen
    /// write one: the state before it in the header, and the number of its first entry.
    func slice(of source: String, from first: Int, firstEntryNumber: Int) throws -> String {
        let reader = try LogReader(path: source)
        var header = reader.header
        header.initialState = first == 0 ? header.initialState : try reader.state(at: first - 1)
        header.metadata["rewind.slice.firstEntry"] = String(firstEntryNumber)
        var builder = LogBuilder(header: header)
        for index in first..<reader.entryCount {
            let entry = try reader.entry(at: index)
            let values: JSONValue? = entry.recordedValues.isEmpty ? nil
                : .array(entry.recordedValues.map { .object(JSONObject([("name", .string($0.name)), ("value", $0.json)])) })
            builder.append(.init(sequence: entry.sequence, time: entry.time, action: entry.action, state: try reader.state(at: index), values: values))
        }
        let path = directory.file("slice-\(UUID().uuidString).jsonl")
        try Data(builder.bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func theReducerGetsTheRecordedValuesBackAsVerifyHandsThemBack() throws {
        let (path, states) = try stampedRecording()
        var steps = try FixtureReplay(fixture: path, reducer: stampReducer)
        for state in states {
            // The uuid and the price are the recorded ones, not live ones.
            steps.send(#"{"bump":{}}"#, expecting: [
                "/id": .json(JSONWriter.compactString(state["id"]!)), "/price": .json(JSONWriter.compactString(state["price"]!)),
            ])
        }
        #expect(steps.state.id == states[1]["id"]?.stringValue)
    }

    @Test func aReadTheRecordingHasNoValueForFailsTheStepAsVerifyReportsIt() throws {
        let (path, _) = try stampedRecording()
        var steps = try FixtureReplay(fixture: path, reducer: { (state: inout Stamped, action: StampAction) in
            stampReducer(&state, action)
            state.price += Recorded.value("discount") { 0 }   // new since the recording
        })
        withKnownIssue {
            steps.send(#"{"bump":{}}"#)
        } matching: { issue in
            issue.comments.map(\.rawValue) == ["step 1 (bump): reads Recorded value discount: the recording has no value for it; the reducer got a live value"]
        }
    }

    @Test func failuresNameTheStepByTheRecordingsEntryNumber() throws {
        // Entries 2 and 3 of the recording, cut as `testgen --from 2` cuts them.
        let (path, _) = try stampedRecording()
        let fixture = try slice(of: path, from: 1, firstEntryNumber: 2)
        var steps = try FixtureReplay(fixture: fixture, reducer: stampReducer)
        withKnownIssue {
            steps.send(#"{"bump":{}}"#, expecting: ["/count": "7"])
        } matching: { issue in
            issue.comments.map(\.rawValue) == ["step 2 (bump): /count is 2; the recording has 7"]
        }
    }

    @Test func aReSwiftReducerReplaysEachActionWithTheTypeItWasRecordedAs() throws {
        let path = directory.file("reswift.jsonl")
        let recorder = try ActionRecorder(file: path)
        var state: Stamped?
        let middleware: (@escaping (any TallyAction) -> Void, @escaping () -> Stamped?)
            -> (@escaping (any TallyAction) -> Void) -> (any TallyAction) -> Void = recorder.middleware()
        let dispatch = middleware({ _ in }, { state })({ action in state = tallyReducer(action, state) })
        dispatch(TallyInit())
        dispatch(AddToTally(by: 2))
        dispatch(AddToTally(by: 5))
        try recorder.close()
        // The init action is not replayable: the fixture starts after it, as testgen's does.
        let fixture = try slice(of: path, from: 1, firstEntryNumber: 2)
        var steps = try FixtureReplay(fixture: fixture, reducer: ReSwiftReducer(tallyReducer, actions: [AddToTally.self]))
        steps.send(#"{"by":2}"#, expecting: ["/count": "2"])
        steps.send(#"{"by":5}"#, expecting: ["/count": "7"])
        #expect(steps.state.count == 7)
    }
}
