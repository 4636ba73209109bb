import Foundation
import SampleDomains
import Testing
@testable import Recorder
import RewindJSON

/// Replay through the real reducer: sample domains reproduce every state,
/// changed and non-deterministic reducers are caught at the entry where they bite,
/// skipped and edited actions recompute, undecodable actions are reported.
@Suite struct ReplayTests {
    // MARK: Sample domains reproduce every recorded state

    @Test func todoRecordingReproducesEveryState() throws {
        let directory = TemporaryDirectory()
        let states = try recordDomain(to: directory.file("todo.jsonl"), initial: SampleDomains.TodoState(),
                                      script: TodoDomain.script, reducer: TodoDomain.reduce)
        try expectEveryStateReproduced(directory.file("todo.jsonl"), states: states, reducer: TodoDomain.reduce)
    }

    @Test func garageRecordingReproducesEveryState() throws {
        let directory = TemporaryDirectory()
        let states = try recordDomain(to: directory.file("garage.jsonl"), initial: GarageState(),
                                      script: GarageDomain.script, reducer: GarageDomain.reduce)
        try expectEveryStateReproduced(directory.file("garage.jsonl"), states: states, reducer: GarageDomain.reduce)
    }

    /// The search effect's answers are replayed from the log; the effect itself never runs.
    @Test func searchRecordingWithEffectsReproducesEveryState() throws {
        let directory = TemporaryDirectory()
        let states = try recordDomain(to: directory.file("search.jsonl"), initial: SearchState(),
                                      script: SearchDomain.script, reducer: SearchDomain.reduce, effects: { $0 })
        let reader = try LogReader(path: directory.file("search.jsonl"))
        let names = try (0..<reader.entryCount).map { try reader.entry(at: $0).action.name }
        #expect(names.filter { $0 == "resultsLoaded" }.count == 5)
        try expectEveryStateReproduced(directory.file("search.jsonl"), states: states, reducer: SearchDomain.reduce)
    }

    @Test func effectsAreNotRunDuringReplay() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("effects.jsonl")
        let runs = Locked(0)
        let reducer: (inout SearchState, SearchAction) -> @Sendable () -> Void = { state, action in
            _ = SearchDomain.reduce(&state, action)
            return { runs.withLock { $0 += 1 } }
        }
        try recordDomain(to: path, initial: SearchState(), script: SearchDomain.script, reducer: reducer)
        #expect(runs.withLock { $0 } == 0)
        try Replay(log: path).verify(reducer: reducer)
        #expect(runs.withLock { $0 } == 0)
    }

    /// The committed sample logs (written by `rewind-demo`) replay through today's reducers.
    @Test func committedSampleLogsReplayThroughTheirDomains() throws {
        let logs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("sample-logs")
        try Replay(log: logs.appendingPathComponent("todos.jsonl")).verify(reducer: TodoDomain.reduce)
        try Replay(log: logs.appendingPathComponent("garage.jsonl")).verify(reducer: GarageDomain.reduce)
        try Replay(log: logs.appendingPathComponent("search.jsonl")).verify(reducer: SearchDomain.reduce)
        let player = try Replay(log: logs.appendingPathComponent("player.jsonl"))
            .compatibility(state: SampleDomains.TodoState.self, action: SampleDomains.TodoAction.self)
        #expect(!player.actionTypes.isEmpty && player.actionTypes.allSatisfy { $0.status == .notReplayable })
    }

    // MARK: Divergence

    @Test func verifyThrowsOneErrorTypeWhoseCasesAreTheDivergenceAndTheUnreplayableEntry() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("todo.jsonl")
        try recordDomain(to: path, initial: SampleDomains.TodoState(), script: TodoDomain.script, reducer: TodoDomain.reduce)
        let replay = try Replay(log: path)
        #expect(Self.outcome(of: replay, TodoDomain.reduce) == "replays")
        #expect(Self.outcome(of: replay) { state, action in TodoDomain.reduce(&state, action); state.stats.done = 0 } == "diverges at entry 5")
    }

    /// What `verify` found, as a caller handles it: `verify` throws ``ReplayFailure``, so the
    /// `switch` needs no `default` (this does not compile while `verify` throws `any Error`).
    private static func outcome(of replay: Replay, _ reducer: (inout SampleDomains.TodoState, SampleDomains.TodoAction) -> Void) -> String {
        do {
            try replay.verify(reducer: reducer)
            return "replays"
        } catch {
            switch error {
            case .diverged(let divergence): return "diverges at entry \(divergence.entryNumber)"
            case .cannotReplay(let reason): return "cannot replay: \(reason)"
            }
        }
    }

    @Test func changedReducerIsCaughtAtTheRightEntryWithTheRightDiff() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("todo.jsonl")
        try recordDomain(to: path, initial: SampleDomains.TodoState(), script: TodoDomain.script, reducer: TodoDomain.reduce)
        // The "new version" forgets to count done todos.
        func changed(_ state: inout SampleDomains.TodoState, _ action: SampleDomains.TodoAction) {
            TodoDomain.reduce(&state, action)
            state.stats.done = 0
        }
        do {
            try Replay(log: path).verify(reducer: changed)
            Issue.record("the changed reducer was not caught")
        } catch ReplayFailure.diverged(let divergence) {
            // Entry 5 (index 4) is the first toggle: the first time `done` is not 0.
            #expect(divergence.entryIndex == 4)
            #expect(divergence.action.name == "toggle")
            #expect(divergence.description == """
                entry 5 of 12 diverges: toggle id: 1
                recorded (-) → recomputed (+):
                    {
                      … (3 unchanged)
                      "stats": {
                        … (1 unchanged)
                  -     "done": 1
                  +     "done": 0
                      }
                    }
                """)
            #expect(divergence.differingPaths == [try JSONPointer(parsing: "/stats/done")])
        }
    }

    struct Note: Codable, Equatable { var id: String; var text: String; var created: Double; var color: Int }
    struct NotesState: Codable, Equatable { var notes: [Note] = []; var title = "" }
    enum NotesAction: Codable { case rename(String), addNote(String) }

    enum Impurity: String, CaseIterable { case uuid, date, random }

    /// A reducer that calls UUID(), Date() or a random number generator is recorded and
    /// replayed with itself: the report points at the first `addNote`, where it bites.
    @Test(arguments: Impurity.allCases)
    func nonDeterministicReducerIsCaughtWhereItBites(_ impurity: Impurity) throws {
        let reducer: (inout NotesState, NotesAction) -> Void = { state, action in
            switch action {
            case .rename(let title): state.title = title
            case .addNote(let text):
                state.notes.append(Note(
                    id: impurity == .uuid ? UUID().uuidString : "note-\(state.notes.count)", text: text,
                    created: impurity == .date ? Date().timeIntervalSince1970 : 0,
                    color: impurity == .random ? Int.random(in: 0..<1_000_000_000) : 1))
            }
        }
        let directory = TemporaryDirectory()
        let path = directory.file("notes.jsonl")
        try recordDomain(to: path, initial: NotesState(), script: [.rename("Ideas"), .rename("Plans"), .addNote("a"), .addNote("b")], reducer: reducer)
        do {
            try Replay(log: path).verify(reducer: reducer)
            Issue.record("the \(impurity) call was not caught")
        } catch ReplayFailure.diverged(let divergence) {
            #expect(divergence.entryIndex == 2)
            #expect(divergence.action.name == "addNote")
            let field = ["uuid": "/notes/0/id", "date": "/notes/0/created", "random": "/notes/0/color"][impurity.rawValue]!
            // A changed id makes the note a different element (the diff aligns arrays by id).
            #expect(divergence.differingPaths.map(\.description) == (impurity == .uuid ? ["/notes/0", "/notes/-"] : [field]))
            let member = field.split(separator: "/").last!
            let changedLines = divergence.diff.split(separator: "\n").filter { $0.hasPrefix("-") || $0.hasPrefix("+") }
            #expect(changedLines.count == 2 && changedLines.allSatisfy { $0.contains("\"\(member)\":") }, "\(divergence.diff)")
        }
    }

    /// The inspector's `r`: every divergent entry is marked, each one where the reducer itself differs.
    @Test func replayFromAnEntryMarksEachDivergentEntry() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("todo.jsonl")
        try recordDomain(to: path, initial: SampleDomains.TodoState(), script: TodoDomain.script, reducer: TodoDomain.reduce)
        // Changed: tagging also marks the todo done.
        let session = ReplaySession(reader: try LogReader(path: path)) { (state: inout SampleDomains.TodoState, action: SampleDomains.TodoAction) in
            TodoDomain.reduce(&state, action)
            if case .setFilter(.done) = action { state.filter = .active }
        }
        let all = session.replay(from: 0)
        #expect(all.checks.count == 12)
        #expect(all.divergentEntries == [9])
        let later = session.replay(from: 10)
        #expect(later.start == 10 && later.checks == [.matches, .matches])
        #expect(all.summary(entryNumber: session.reader.entryNumber(at:)) == "Replayed 12 entries from 1: 1 diverge (first at 10)")
    }

    // MARK: Compatibility

    /// The recording was made by an older version whose actions differ from today's.
    enum OldTodoAction: Codable { case add(title: String), rename(id: Int, title: String), toggle(id: Int) }

    @Test func undecodableActionsAreReportedNeverCrashedOn() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("old.jsonl")
        func oldReducer(_ state: inout SampleDomains.TodoState, _ action: OldTodoAction) {
            switch action {
            case .add(let title): TodoDomain.reduce(&state, .add(title: title))
            case .toggle(let id): TodoDomain.reduce(&state, .toggle(id: id))
            case .rename(let id, let title):
                if let index = state.todos.firstIndex(where: { $0.id == id }) { state.todos[index].title = title }
            }
        }
        try recordDomain(to: path, initial: SampleDomains.TodoState(),
                         script: [.add(title: "a"), .toggle(id: 1), .rename(id: 1, title: "b"), .add(title: "c"), .rename(id: 2, title: "d")],
                         reducer: oldReducer)
        let replay = try Replay(log: path)
        let report = replay.compatibility(state: SampleDomains.TodoState.self, action: SampleDomains.TodoAction.self)
        #expect(report.actionTypes.map(\.name) == ["add", "toggle", "rename"])
        #expect(report.actionTypes.map(\.status) == [.ok, .ok, .cannotDecode(reason: #"TodoAction has no case named "rename""#)])
        #expect(!report.isFullyCompatible)
        #expect(report.summary == "replay: 1 of 3 action types cannot decode")
        #expect(report.description.contains(#"cannot decode    rename (2 entries, e.g. entry 3): TodoAction has no case named "rename""#))
        #expect(report.description.hasSuffix("states: ok (3 recorded states decode)"))

        do {
            try replay.verify(reducer: TodoDomain.reduce)
            Issue.record("an undecodable action was replayed")
        } catch {
            // Not `catch .cannotReplay(let error)`: Swift 6.3.1 crashes compiling `#expect` in a
            // catch clause that matches a case of the one type its `do` throws, and leaves others.
            guard case .cannotReplay(let error) = error else { throw error }
            #expect(error.entryIndex == 2)
            #expect(error.description.hasPrefix("entry 3 (rename): the action cannot be decoded with the current Action type: "))
        }
    }

    @Test func statesThatNoLongerDecodeAreReported() throws {
        struct NewState: Codable { var todos: [NewTodo]; var owner: String }
        struct NewTodo: Codable { var id: Int; var title: String }
        let directory = TemporaryDirectory()
        let path = directory.file("todo.jsonl")
        try recordDomain(to: path, initial: SampleDomains.TodoState(), script: TodoDomain.script, reducer: TodoDomain.reduce)
        let report = try Replay(log: path).compatibility(state: NewState.self, action: SampleDomains.TodoAction.self)
        #expect(report.stateProblem == #"initial state: owner: missing (the object has no member "owner")"#)
        #expect(report.actionTypes.allSatisfy { $0.status == .ok })
    }

    @Test func actionsRecordedThroughReflectionAreReportedAsNotReplayable() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("player.jsonl")
        let recorder = try ActionRecorder(file: path, options: testOptions())
        let reducer = recorder.recording(PlayerDomain.reduce)
        var state = PlayerState()
        for action in PlayerDomain.script { reducer(&state, action) }
        try recorder.close()

        let replay = try Replay(log: path)
        let report = replay.compatibility(state: SampleDomains.TodoState.self, action: SampleDomains.TodoAction.self)
        #expect(report.actionTypes.count == 6)
        #expect(report.actionTypes.allSatisfy { $0.status == .notReplayable })
        #expect(report.stateProblem == "recorded through reflection, not Codable")
        #expect(report.description.contains("not replayable   play (2 entries): recorded through reflection, not Codable"))
        #expect(throws: ReplayFailure.cannotReplay(ReplayError(.stateNotReplayable))) { try replay.verify(reducer: TodoDomain.reduce) }
    }

    // MARK: Logs with several sessions

    @Test func aSecondRecordingSessionRestartsReplayInsteadOfDiverging() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("todo.jsonl")
        try recordDomain(to: path, initial: SampleDomains.TodoState(), script: Array(TodoDomain.script.prefix(4)), reducer: TodoDomain.reduce)
        var later = SampleDomains.TodoState()
        later.filter = .done
        try recordDomain(to: path, initial: later, script: Array(TodoDomain.script.prefix(3)), reducer: TodoDomain.reduce)
        try Replay(log: path).verify(reducer: TodoDomain.reduce)
        let run = ReplaySession(reader: try LogReader(path: path), reducer: TodoDomain.reduce).replay(from: 0)
        #expect(run.checks.count == 7)
        #expect(run.check(at: 4) == .restarted(reason: "a new recording session starts at entry 5"))
        #expect(run.divergentEntries.isEmpty)
    }

    @Test func redactedValuesAreNotReportedAsDivergences() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("todo.jsonl")
        var options = testOptions()
        options.redaction = try Redaction(rules: ["/todos/*/tags"])
        try recordDomain(to: path, initial: SampleDomains.TodoState(), script: TodoDomain.script, reducer: TodoDomain.reduce, options: options)
        try Replay(log: path).verify(reducer: TodoDomain.reduce)
    }

    @Test func missingLogsAreAOneLineError() {
        #expect(throws: LogReadError.self) { try Replay(log: "/nonexistent/log.jsonl") }
    }
}

// MARK: Support

/// Records `script` through `reducer` into a new log. Actions returned by
/// `effects` (an effect's answers) are dispatched after the next scripted action,
/// as an asynchronous effect would deliver them. Returns the state after each entry.
@discardableResult
func recordDomain<State, Action, Result>(
    to path: String, initial: State, script: [Action], reducer: @escaping (inout State, Action) -> Result,
    effects: @escaping (Result) -> [Action] = { _ in [] }, options: ActionRecorder.Options = testOptions(keyframeInterval: 4)
) throws -> [State] {
    let recorder = try ActionRecorder(file: path, options: options)
    let recording = recorder.recording(reducer)
    var state = initial
    var states: [State] = []
    var pending: [Action] = []
    func send(_ action: Action) -> [Action] {
        let produced = effects(recording(&state, action))
        states.append(state)
        return produced
    }
    for action in script {
        let delivered = pending
        pending = send(action)
        for answer in delivered { pending += send(answer) }
    }
    while !pending.isEmpty {
        let delivered = pending
        pending = []
        for answer in delivered { pending += send(answer) }
    }
    try recorder.close()
    return states
}

/// Replays `path` and checks every entry matches, and that each recorded state is the one the test computed.
func expectEveryStateReproduced<State: Codable, Action: Decodable, Result>(
    _ path: String, states: [State], reducer: @escaping (inout State, Action) -> Result
) throws {
    try Replay(log: path).verify(reducer: reducer)
    let reader = try LogReader(path: path)
    #expect(reader.entryCount == states.count)
    let run = ReplaySession(reader: reader, reducer: reducer).replay(from: 0)
    #expect(run.checks.count == states.count)
    #expect(run.checks.allSatisfy { $0 == .matches })
    for (index, state) in states.enumerated() {
        #expect(try reader.state(at: index) == JSONEncoding.value(of: state))
    }
}

/// A counter that can be asked to hold a chain too deep for a log record: that entry is a gap.
private struct DeepCounter: Codable, Equatable {
    indirect enum Chain: Codable, Equatable { case end, link(Chain) }
    var count = 0
    var chain: Chain?
}

/// Entries keep the numbers they were recorded with in replay's reports, as in `rewind log`.
@Suite struct ReplayNumberingTests {
    @Test func aDivergenceAfterAGapNamesTheEntryByItsRecordedNumber() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("deep.jsonl")
        let recorder = try ActionRecorder(file: path)
        let reduce = { (state: inout DeepCounter, action: String) in
            state.count += 1
            state.chain = action == "deep" ? (0..<600).reduce(.end) { chain, _ in .link(chain) } : nil
        }
        let reducer = recorder.recording(reduce)
        var state = DeepCounter()
        for action in ["inc", "deep", "inc", "inc"] { reducer(&state, action) }   // entry 2 is not recorded
        try recorder.close()
        let reader = try LogReader(path: path)
        #expect(reader.entryCount == 3 && reader.gaps.count == 1)
        #expect((0..<3).map { reader.entryNumber(at: $0) } == [1, 3, 4])

        // Today's reducer counts entry 4 twice.
        do {
            try Replay(log: path).verify(reducer: { (state: inout DeepCounter, action: String) in
                reduce(&state, action)
                if state.count == 4 { state.count += 1 }
            })
            Issue.record("verify passed")
        } catch ReplayFailure.diverged(let divergence) {
            #expect(divergence.entryIndex == 2)
            #expect(divergence.description.hasPrefix("entry 4 of 4 diverges: String \"inc\""), "\(divergence.description)")
        }
    }

    /// The reducer's types before `reset` was added, when a counter's note was a number.
    private enum OlderAction: Codable { case inc, deep }
    private struct OlderCounter: Codable { var count: Int; var note: Int? }

    @Test func anActionThatNoLongerDecodesIsNamedByItsRecordedNumber() throws {
        // 1 · 2 · 3–5 dropped · 6 · 7 too deep · 8 · [new session] 9 · 10 reset: entry 10 is the sixth in the file.
        let log = try GappedCounter.writeLog()
        do {
            try Replay(log: log).verify(reducer: { (state: inout GappedCounter, _: OlderAction) in state.count += 1 })
            Issue.record("verify passed")
        } catch ReplayFailure.cannotReplay(let error) {
            #expect(error.entryIndex == 5)
            #expect(error.entryNumber == 10)
            #expect(error.description.hasPrefix("entry 10 (reset): the action cannot be decoded with the current Action type: "), "\(error)")
        }
    }

    @Test func theCompatibilityReportNamesEntriesByTheirRecordedNumbers() throws {
        // `reset` first appears at entry 10 (the sixth in the file); the first state with a note is entry 9's (the fifth).
        let report = try Replay(log: GappedCounter.writeLog()).compatibility(state: OlderCounter.self, action: OlderAction.self)
        #expect(report.actionTypes.map(\.sampleEntryNumber) == [1, 10])
        #expect(report.description == """
            actions: 2 types, 1 ok, 1 cannot be replayed
              ok               inc (5 entries)
              cannot decode    reset (1 entry, e.g. entry 10): OlderAction has no case named "reset"
            states: cannot decode: entry 9: note: expected a whole number, found "opened again: a note that makes a patch…
            """)
    }

    @Test func aReplayRestartingAfterAnUnreadableEntryNamesItByItsRecordedNumber() throws {
        let log = try GappedCounter.writeLog()
        // Entry 9 (line 9, the fifth in the file) sealed again without its action: its checksum holds, it cannot be read.
        var lines = readLines(log)
        let withoutAction = String(decoding: unsealed(Array(lines[8].utf8)), as: UTF8.self)
            .replacingOccurrences(of: #""action":{"type":"inc","payload":{"inc":{}}},"#, with: "")
        lines[8] = String(decoding: sealAsRecord(Array(withoutAction.utf8), number: 1, ofLastSessionIn: log).dropLast(), as: UTF8.self)
        writeBytes(Array(lines.joined(separator: "\n").utf8), to: log)
        let reader = try LogReader(path: log)
        #expect(reader.damage.isEmpty && reader.entryNumber(at: 4) == 9)
        let run = ReplaySession(reader: reader, reducer: GappedCounter.reduce).replay(from: 4)
        #expect(run.checks.last == .restarted(reason: "entry 9 is damaged"), "\(run.checks)")
    }

    @Test func aReplayWithNoStateToStartFromNamesTheEntryByItsRecordedNumber() throws {
        struct Counted: Codable { var n: Int }
        // The first two entries were not recorded, and the header holds no initial state.
        let log = try LogFixture.write([.init(type: "load", payload: .null, state: ["n": 1])], gaps: [0: .init(dropped: 2, reason: nil)])
        let run = ReplaySession(reader: try LogReader(path: log)) { (_: inout Counted, _: GappedAction) in }.replay(from: 0)
        #expect(run.checks == [.restarted(reason: "the log has no state before entry 3")])
    }
}
