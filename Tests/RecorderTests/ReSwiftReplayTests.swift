import Foundation
import Testing
@testable import Recorder

/// Not Codable, changes nothing: recorded through reflection, restored in replay.
struct Ping: ReAction {}

/// ReSwift stores recorded through the middleware replay with their `(Action, State?) -> State` reducer.
@Suite struct ReSwiftReplayTests {
    let directory = TemporaryDirectory()

    /// A ReSwift store started without a state (so it dispatches ReSwiftInit), then 50 actions and a ping.
    private func recordReSwiftSession(pingAt ping: Int? = nil) throws -> String {
        let path = directory.file("reswift.jsonl")
        let recorder = try ActionRecorder(file: path, options: testOptions())
        let store = ReStore<ReState>(reducer: reStateReducer, state: nil, middleware: [recorder.middleware()])
        for number in 0..<50 {
            if number == ping { store.dispatch(Ping()) }
            store.dispatch(number % 10 == 9 ? Rename(name: "n\(number)") as any ReAction : Increment(by: number))
        }
        try recorder.close()
        return path
    }

    private let replayable = ReSwiftReducer(reStateReducer, actions: [Increment.self, Rename.self])

    @Test func theInitActionIsRecordedAndEveryStateRebuilds() throws {
        let reader = try LogReader(path: try recordReSwiftSession())
        #expect(reader.entryCount == 51)
        #expect(try reader.entry(at: 0).action.name == "ReSwiftInit")
        #expect(try reader.entry(at: 0).action.isReplayable == false)
        #expect(try reader.state(at: 0) == ["count": 0, "name": ""])
        let total: Int64 = (0..<50).filter { $0 % 10 != 9 }.reduce(0, +)
        #expect(try reader.state(at: 50) == .object(JSONObject([("count", .integer(total)), ("name", "n49")])))
    }

    @Test func verifyReplaysTheActionsAndRestoresTheInitActionFromTheLog() throws {
        let path = try recordReSwiftSession(pingAt: 20)
        try Replay(log: path).verify(replayable)
        let reader = try LogReader(path: path)
        let run = replayable.session(reader: reader).replay(from: 0)
        #expect(run.replayedCount == 50)
        #expect(run.restoredFromLog.map(\.entry) == [0, 21])
        #expect(run.restoredFromLog.first?.reason == "ReSwiftInit was recorded through reflection (not Codable), so its recorded state was used")
        #expect(run.summary(entryNumber: reader.entryNumber(at:)) == "Replayed 52 entries from 1: 50 match the recording, 2 restored from the log")
    }

    @Test func aChangedReSwiftReducerDivergesAtTheFirstActionItChanges() throws {
        let path = try recordReSwiftSession()
        let doubled = ReSwiftReducer({ (action: any ReAction, state: ReState?) -> ReState in
            var next = reStateReducer(action, state)
            if let increment = action as? Increment, increment.by == 3 { next.count += 3 }
            return next
        }, actions: [Increment.self, Rename.self])
        do {
            try Replay(log: path).verify(doubled)
            Issue.record("the doubled increment was not caught")
        } catch ReplayFailure.diverged(let divergence) {
            #expect(divergence.entryIndex == 4)
            #expect(divergence.differingPaths.map(\.description) == ["/count"])
        }
    }

    @Test func anActionTypeThatIsNotListedIsNamedInTheError() throws {
        let path = try recordReSwiftSession()
        let missingRename = ReSwiftReducer(reStateReducer, actions: [Increment.self])
        do {
            try Replay(log: path).verify(missingRename)
            Issue.record("Rename is not listed: verify must fail")
        } catch ReplayFailure.cannotReplay(let error) {
            #expect(error.entryIndex == 10)
            #expect(error.description.hasPrefix("entry 11 (Rename): the action cannot be decoded with the current Action type: "))
            #expect(error.description.hasSuffix("list the type Rename"))
        }
    }
}
