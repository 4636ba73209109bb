import Foundation
import Testing
@testable import Recorder
import RewindStore

// Deterministic replay: outside values read through `Recorded` are written into
// the entry and handed back during replay.

private struct Note: Codable, Equatable { var id: UUID; var text: String; var created: Date; var price: Int }
private struct NotesState: Codable, Equatable { var notes: [Note] = []; var lucky = 0 }
private enum NotesAction: Codable, Equatable { case add(String), roll }

/// Reads the time, a UUID, a named value and a random number: impure, unless recorded.
private func notesReducer(_ state: inout NotesState, _ action: NotesAction) {
    switch action {
    case .add(let text):
        state.notes.append(Note(id: Recorded.uuid(), text: text, created: Recorded.now(),
                                price: Recorded.value("price") { Int.random(in: 1...1_000_000) }))
    case .roll:
        state.lucky = Recorded.random(in: 1...1_000_000)
    }
}

/// The same reducer before it read values through `Recorded`.
private func notesReducerReadingLiveValues(_ state: inout NotesState, _ action: NotesAction) {
    switch action {
    case .add(let text): state.notes.append(Note(id: UUID(), text: text, created: Date(), price: 3))
    case .roll: state.lucky = 4
    }
}

@Suite struct RecordedValuesTests {
    let directory = TemporaryDirectory()

    private func record(_ reducer: @escaping (inout NotesState, NotesAction) -> Void) throws -> String {
        let path = directory.file("notes.jsonl")
        let recorder = try ActionRecorder(file: path, options: testOptions())
        let recording = recorder.recording(reducer)
        var state = NotesState()
        for action: NotesAction in [.add("gift wrap"), .roll, .add("ribbon")] { recording(&state, action) }
        try recorder.close()
        return path
    }

    @Test func valuesReadByTheReducerAreWrittenIntoItsEntryInOrder() throws {
        let reader = try LogReader(path: try record(notesReducer))
        let first = try reader.entry(at: 0)
        #expect(first.recordedValues.map(\.name) == ["uuid", "now", "price"])
        let state = try reader.state(at: 0)
        #expect(first.recordedValues[0].json == state["notes"]?[0]?["id"])
        #expect(first.recordedValues[1].json == state["notes"]?[0]?["created"])
        #expect(first.recordedValues[2].json == state["notes"]?[0]?["price"])
        #expect(try reader.entry(at: 1).recordedValues.map(\.name) == ["random"])
        #expect(try reader.entry(at: 1).recordedValues[0].json == reader.state(at: 1)["lucky"])
    }

    @Test func replayHandsTheRecordedValuesBackSoAnImpureReducerVerifies() throws {
        let path = try record(notesReducer)
        // Fresh UUIDs, dates and random numbers each run: without the recorded values this diverges.
        try Replay(log: path).verify(reducer: notesReducer)
        let session = ReplaySession(reader: try LogReader(path: path), reducer: notesReducer)
        #expect(session.replay(from: 1).checks == [.matches, .matches])
    }

    @Test func readingAValueTheRecordingDoesNotHaveIsReportedAsTheDivergence() throws {
        // Recorded by the old reducer, which read `UUID()` and `Date()` directly.
        let path = try record(notesReducerReadingLiveValues)
        do {
            try Replay(log: path).verify(reducer: notesReducer)
            Issue.record("verify must fail: the log has no recorded values")
        } catch ReplayFailure.diverged(let divergence) {
            #expect(divergence.entryIndex == 0)
            #expect(divergence.unrecordedReads == [
                "uuid: the recording has no value for it",
                "now: the recording has no value for it",
                "price: the recording has no value for it",
            ])
            #expect(divergence.description.hasPrefix("""
                entry 1 of 3 diverges: add "gift wrap"
                reads Recorded value uuid: the recording has no value for it
                reads Recorded value now: the recording has no value for it
                reads Recorded value price: the recording has no value for it
                recorded (-) → recomputed (+):
                """))
        }
    }

    @Test func aReadThatMatchesTheStateIsStillADivergenceWhenItWasNotRecorded() throws {
        // `.roll` reads a random number; the old reducer wrote a constant the new one happens to need.
        let path = directory.file("roll.jsonl")
        let recorder = try ActionRecorder(file: path, options: testOptions())
        var state = NotesState()
        recorder.recording { (state: inout NotesState, _: NotesAction) in state.lucky = 7 }(&state, .roll)
        try recorder.close()
        let run = ReplaySession(reader: try LogReader(path: path)) { (state: inout NotesState, _: NotesAction) in
            state.lucky = Recorded.value("lucky") { 7 }
        }.replay(from: 0)
        guard case .diverges(let divergence) = run.checks.first else { Issue.record("expected a divergence: \(run.checks)"); return }
        #expect(divergence.unrecordedReads == ["lucky: the recording has no value for it"])
        #expect(divergence.description == """
            entry 1 of 1 diverges: roll
            reads Recorded value lucky: the recording has no value for it
            (the recomputed state matches the recording)
            """)
    }

    @Test func aRecordedValueOfAnotherTypeIsReportedNotDecodedIntoGarbage() throws {
        let path = directory.file("typed.jsonl")
        let recorder = try ActionRecorder(file: path, options: testOptions())
        var state = NotesState()
        recorder.recording { (state: inout NotesState, _: NotesAction) in state.lucky = Recorded.value("n") { 5 } }(&state, .roll)
        try recorder.close()
        let run = ReplaySession(reader: try LogReader(path: path)) { (state: inout NotesState, _: NotesAction) in
            state.lucky = Recorded.value("n") { "five" }.count + 1
        }.replay(from: 0)
        guard case .diverges(let divergence) = run.checks.first else { Issue.record("expected a divergence: \(run.checks)"); return }
        #expect(divergence.unrecordedReads.count == 1)
        #expect(divergence.unrecordedReads.first?.hasPrefix("n: the recorded value 5 is not a String") == true)
    }

    @Test func outsideARecorderOrReplayTheValuesAreLive() {
        let first = Recorded.uuid(), second = Recorded.uuid()
        #expect(first != second)
        #expect(abs(Recorded.now().timeIntervalSinceNow) < 60)
        #expect(Recorded.value("answer") { 42 } == 42)
    }

    @Test func theReferenceStoreAndTheMiddlewareRecordValuesToo() async throws {
        let path = directory.file("store.jsonl")
        let recorder = try ActionRecorder(file: path, options: testOptions())
        let store = Store<NotesState, NotesAction>(initialState: NotesState(), recorder: recorder) { state, action in
            notesReducer(&state, action)
            return .none
        }
        store.send(.roll)
        let middleware: (@escaping (NotesAction) -> Void, @escaping () -> NotesState?) -> (@escaping (NotesAction) -> Void) -> (NotesAction) -> Void = recorder.middleware()
        var reSwiftState = NotesState()
        let dispatch = middleware({ _ in }, { reSwiftState })({ action in notesReducer(&reSwiftState, action) })
        dispatch(.add("x"))
        try recorder.close()
        let reader = try LogReader(path: path)
        #expect(try reader.entry(at: 0).recordedValues.map(\.name) == ["random"])
        #expect(try reader.entry(at: 1).recordedValues.map(\.name) == ["uuid", "now", "price"])
    }

    @Test func aRecordedReducerInsideAnotherKeepsEachCallsValuesApart() throws {
        let outerPath = directory.file("outer.jsonl"), innerPath = directory.file("inner.jsonl")
        let outerRecorder = try ActionRecorder(file: outerPath, options: testOptions())
        let innerRecorder = try ActionRecorder(file: innerPath, options: testOptions())
        let inner = innerRecorder.recording { (state: inout NotesState, action: NotesAction) in notesReducer(&state, action) }
        let outer = outerRecorder.recording { (state: inout NotesState, action: NotesAction) in
            state.lucky = Recorded.random(in: 1...6)
            var child = NotesState()
            inner(&child, .add("child"))  // reads uuid, now and price into the inner log's entry
            state.notes = child.notes
            state.lucky += Recorded.value("bonus") { 10 }  // the outer binding is back
        }
        var state = NotesState()
        outer(&state, .roll)
        try outerRecorder.close()
        try innerRecorder.close()
        #expect(try LogReader(path: outerPath).entry(at: 0).recordedValues.map(\.name) == ["random", "bonus"])
        #expect(try LogReader(path: innerPath).entry(at: 0).recordedValues.map(\.name) == ["uuid", "now", "price"])
    }

    @Test func aTaskTheReducerStartsReadsLiveValuesAndTheEntryKeepsItsOwn() async throws {
        let path = directory.file("task.jsonl")
        let recorder = try ActionRecorder(file: path, options: testOptions())
        let started = Locked<Task<Int, Never>?>(nil)
        let recording = recorder.recording { (state: inout NotesState, action: NotesAction) in
            state.lucky = Recorded.random(in: 1...6)
            started.withLock { $0 = Task { Recorded.value("late") { 7 } } }
        }
        var state = NotesState()
        recording(&state, .roll)
        #expect(await started.withLock { $0 }!.value == 7)
        try recorder.close()
        #expect(try LogReader(path: path).entry(at: 0).recordedValues.map(\.name) == ["random"])
    }
}
