import Foundation
import SampleDomains
import Testing
@testable import Inspector
@testable import Recorder

/// The inspector's replay workbench over Recorder's `ReplaySession`: skipped entries
/// recompute what follows them, edited actions branch off, and a saved branch is a log that replays.
@Suite struct ReplayWorkbenchTests {
    /// The todo script's states, as the recorder recorded them (ReplayLogs.todo()).
    static var recordedStates: [SampleDomains.TodoState] {
        var state = SampleDomains.TodoState()
        return TodoDomain.script.map { action in
            TodoDomain.reduce(&state, action)
            return state
        }
    }

    @Test func skippedEntriesRecomputeEverythingAfterThem() throws {
        let log = try ReplayLogs.todo()
        let recorded = Self.recordedStates
        let session = ReplayWorkbench(reader: try LogReader(path: log.path), reducer: TodoDomain.reduce)

        session.toggleSkip(2)   // never add "Call the bank" (id 3)
        session.toggleSkip(4)   // never toggle todo 1
        var expected = SampleDomains.TodoState()
        for (index, action) in TodoDomain.script.enumerated() {
            if index != 2 && index != 4 { TodoDomain.reduce(&expected, action) }
            #expect(try session.effectiveState(at: index) == JSONEncoding.value(of: index < 2 ? recorded[index] : expected), "entry \(index + 1)")
        }
        #expect(!session.isRecomputed(1) && session.isRecomputed(2) && session.isRecomputed(11))
        // Ids shift: "Fix the bike" becomes id 3 and the later toggle(id: 3) hits it.
        #expect(try session.effectiveState(at: 7)[pointer: JSONPointer(parsing: "/todos/2")] == ["id": 3, "title": "Fix the bike", "isDone": true, "tags": []])

        session.toggleSkip(2)
        session.toggleSkip(4)
        #expect(session.skipped.isEmpty)
        #expect(try session.effectiveState(at: 11) == JSONEncoding.value(of: recorded[11]))
    }

    @Test func editedActionsDispatchOnTheSelectedStateAndBranch() throws {
        let log = try ReplayLogs.todo()
        let recorded = Self.recordedStates
        let session = ReplayWorkbench(reader: try LogReader(path: log.path), reducer: TodoDomain.reduce)

        let first = try session.dispatch(actionJSON: #"{"add":{"title":"Edited"}}"#, at: 2)
        #expect(first == 12)
        var expected = recorded[2]
        TodoDomain.reduce(&expected, .add(title: "Edited"))
        #expect(session.branch?.forkIndex == 2)
        #expect(session.branch?.entries.map(\.name) == ["add"])
        #expect(session.branch?.entries.last?.state == (try JSONEncoding.value(of: expected)))

        // Dispatching on the branch's entry extends it.
        let second = try session.dispatch(actionJSON: #"{"toggle":{"id":4}}"#, at: first)
        #expect(second == 13)
        TodoDomain.reduce(&expected, .toggle(id: 4))
        #expect(session.branch?.entries.last?.state == (try JSONEncoding.value(of: expected)))

        // The original entries are untouched.
        #expect(try session.effectiveState(at: 3) == JSONEncoding.value(of: recorded[3]))

        // Decode errors name the field; nothing is dispatched.
        #expect(throws: ReplayEditError(#"add.title: missing (the object has no member "title")"#)) {
            try session.dispatch(actionJSON: #"{"add":{"name":"x"}}"#, at: 5)
        }
        #expect(throws: ReplayEditError(#"toggle.id: expected a whole number, found "four""#)) {
            try session.dispatch(actionJSON: #"{"toggle":{"id":"four"}}"#, at: 5)
        }
        #expect(session.branch?.entries.count == 2)

        // Dispatching on an original entry starts a new branch there.
        _ = try session.dispatch(actionJSON: #"{"setFilter":{"_0":"done"}}"#, at: 0)
        #expect(session.branch?.forkIndex == 0 && session.branch?.entries.count == 1)
    }

    @Test func editedActionsAreDispatchedOnTheRecomputedStateWhenEntriesAreSkipped() throws {
        let log = try ReplayLogs.todo()
        let session = ReplayWorkbench(reader: try LogReader(path: log.path), reducer: TodoDomain.reduce)
        session.toggleSkip(0)
        _ = try session.dispatch(actionJSON: #"{"add":{"title":"Edited"}}"#, at: 1)
        var expected = SampleDomains.TodoState()
        for action in [TodoDomain.script[1], .add(title: "Edited")] { TodoDomain.reduce(&expected, action) }
        #expect(session.branch?.entries.last?.state == (try JSONEncoding.value(of: expected)))
    }

    @Test func aSavedBranchIsALogThatReplays() throws {
        let log = try ReplayLogs.todo()
        let session = ReplayWorkbench(reader: try LogReader(path: log.path), reducer: TodoDomain.reduce)
        session.toggleSkip(1)
        _ = try session.dispatch(actionJSON: #"{"add":{"title":"Edited"}}"#, at: 3)
        _ = try session.dispatch(actionJSON: #"{"clearCompleted":{}}"#, at: 12)

        let saved = log.directory + "/branch.jsonl"
        #expect(try session.saveBranch(to: saved) == 5)   // entries 1, 3, 4 (2 skipped) and two edits
        let reader = try LogReader(path: saved)
        #expect(try (0..<reader.entryCount).map { try reader.entry(at: $0).action.name } == ["add", "add", "tag", "add", "clearCompleted"])
        #expect(try reader.state(at: 4) == session.branch?.entries.last?.state)
        #expect(reader.header.metadata["forkEntry"] == "4")
        try Replay(log: saved).verify(reducer: TodoDomain.reduce)

        #expect(throws: ReplayEditError("\(saved) already exists")) { try session.saveBranch(to: saved) }
    }

    /// A reducer that reads an outside value through `Recorded`.
    struct Dice: Codable, Equatable { var rolls: [Int] = [] }
    enum DiceAction: Codable, Equatable { case roll }
    static func rollDice(_ state: inout Dice, _ action: DiceAction) {
        state.rolls.append(Recorded.random(in: 1...1_000_000))
    }

    @Test func aSavedBranchKeepsTheRecordedValuesSoItReplaysToo() throws {
        let log = try ReplayLogs.record(initial: Dice(), script: [DiceAction.roll, .roll, .roll], reducer: Self.rollDice)
        let session = ReplayWorkbench(reader: try LogReader(path: log.path), reducer: Self.rollDice)
        _ = try session.dispatch(actionJSON: #"{"roll":{}}"#, at: 1)
        let branch = log.directory + "/branch.jsonl"
        #expect(try session.saveBranch(to: branch) == 3)
        let saved = try LogReader(path: branch)
        #expect(try saved.entry(at: 0).recordedValues.map(\.json) == LogReader(path: log.path).entry(at: 0).recordedValues.map(\.json))
        // The hand-dispatched roll read a live value, which the saved log records.
        #expect(try saved.entry(at: 2).recordedValues.map(\.name) == ["random"])
        try Replay(log: branch).verify(reducer: Self.rollDice)
    }
}
