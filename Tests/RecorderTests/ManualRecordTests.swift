import Foundation
import Testing
@testable import Recorder

/// `recorder.record(action, state:, before:, duration:, effectOf:)`, for stores that are not a reducer function.
@Suite struct ManualRecordTests {
    let directory = TemporaryDirectory()

    @Test func recordsTheActionTheStateAndTheFirstStateBeforeAsTheInitialState() throws {
        let path = directory.file("manual.jsonl")
        let recorder = try ActionRecorder(file: path, options: testOptions())
        var state = TodoState()
        for action: TodoAction in [.add(title: "gift wrap"), .toggle(id: 0)] {
            let before = state
            todoReducer(&state, action)
            recorder.record(action, state: state, before: before)
        }
        try recorder.close()
        let reader = try LogReader(path: path)
        #expect(reader.entryCount == 2)
        #expect(reader.header.initialState == (try JSONEncoding.value(of: TodoState())))
        #expect(reader.header.actionTypeName == "RecorderTests.TodoAction")
        #expect(try reader.entry(at: 0).action.name == "add")
        #expect(try reader.state(at: 1)["todos"]?[0]?["done"] == true)
        // A log recorded by hand replays like any other.
        try Replay(log: path).verify(reducer: todoReducer)
    }

    @Test func recordsTheDurationAndWhichEntrysEffectSentAnAction() throws {
        let path = directory.file("effects.jsonl")
        let recorder = try ActionRecorder(file: path, options: testOptions())
        var state = TodoState()
        todoReducer(&state, .add(title: "load"))
        let origin = try #require(recorder.record(TodoAction.add(title: "load"), state: state, duration: .milliseconds(12)))
        todoReducer(&state, .tag(id: 0, "loaded"))
        recorder.record(TodoAction.tag(id: 0, "loaded"), state: state, effectOf: origin)
        try recorder.close()
        let reader = try LogReader(path: path)
        #expect(try reader.entry(at: 0).duration == 0.012)
        #expect(try reader.entry(at: 0).effectOf == nil)
        #expect(try reader.entry(at: 1).effectOf == origin)
    }

    @Test func afterCloseItRecordsNothingAndSaysSo() throws {
        let recorder = try ActionRecorder(file: directory.file("closed.jsonl"), options: testOptions())
        try recorder.close()
        #expect(recorder.record(TodoAction.add(title: "late"), state: TodoState()) == nil)
    }
}
