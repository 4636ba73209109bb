import Foundation
import Testing
import Recorder
@testable import Inspector

@Suite struct BisectCommandTests {
    func bisect(_ arguments: [String]) -> (status: Int32, output: String, error: String) {
        var streams = CapturedStreams()
        let status = RewindCommandLine.run(["bisect"] + arguments, streams: &streams)
        return (status, streams.standardOutput, streams.standardError)
    }

    @Test func namesTheFirstBreakWithItsActionAndDiff() throws {
        let log = try LogFixture.todoLog()
        let result = bisect([log, #"/filter == "all""#])
        #expect(result.status == 1)
        #expect(result.output == """
            /filter == "all" stops holding at entry 5 of todo.jsonl (it held for entries 1–4)
              5   +3.500s  filter/set filter: "active"
              {
                … (1 unchanged)
            -   "filter": "all"
            +   "filter": "active"
                … (1 unchanged)
              }

            """)
    }

    @Test func aBreakThatIsRepairedLaterIsStillTheFirst() throws {
        // Holds, breaks at 3, holds again from 4: a binary search could land anywhere; bisect names 3.
        let steps = [1, 2, -1, 4, 5, 6, 7, 8].map { LogFixture.Step(type: "set", payload: ["to": .integer(Int64($0))], state: ["total": .integer(Int64($0))]) }
        let log = try LogFixture.write(steps, keyframeInterval: 3, initialState: ["total": 0])
        let result = bisect([log, "/total >= 0"])
        #expect(result.status == 1)
        #expect(result.output.hasPrefix("/total >= 0 stops holding at entry 3 of todo.jsonl (it held for entries 1–2)\n  3   +2.000s  set to: -1\n"))
    }

    @Test func anInvariantThatAlwaysHoldsExitsZero() throws {
        let log = try LogFixture.todoLog()
        let result = bisect([log, #"/user/name == "Ada""#])
        #expect(result.status == 0)
        #expect(result.output == #"/user/name == "Ada" holds at every entry of todo.jsonl (6 entries)"# + "\n")
    }

    @Test func aDamagedLogNamesTheEntriesItCouldNotCheckInsteadOfSayingTheyHeld() throws {
        // Line 3 (the second entry) is damaged and the next keyframe is the sixth record:
        // of the five entries left, the states of 3–5 cannot be rebuilt (entries keep their numbers: 2 is the damaged one).
        let log = try LogFixture.todoLog(keyframeInterval: 5, damageLine: 3)
        let breaks = bisect([log, #"/filter == "all""#])
        #expect(breaks.status == 1)
        #expect(breaks.output.hasPrefix(#"/filter == "all" stops holding at entry 6 of todo.jsonl; "#
            + "entries 3–5 could not be checked (their states cannot be rebuilt: line 3 is damaged), so it may stop holding earlier\n"), "\(breaks.output)")
        #expect(breaks.error == "")

        let holds = bisect([log, #"/user/name == "Ada""#])
        #expect(holds.status == 3, "it held where it was checked, but that is not every entry")
        #expect(holds.output == #"/user/name == "Ada" holds at every entry of todo.jsonl that could be checked (2 of 5): "#
            + "entries 3–5 could not be checked (their states cannot be rebuilt: line 3 is damaged)\n")
    }

    @Test func badInputExitsTwoWithOneLineOrTheUsageError() throws {
        let log = try LogFixture.todoLog()
        let cases: [([String], String)] = [
            ([log, "/filter =="], "rewind bisect: bad invariant at column 11: found the end of the query where a path or a value should be\n"),
            ([log], "rewind bisect: missing '<invariant>'\nusage: rewind bisect <log> '<invariant>'\nSee 'rewind bisect --help'.\n"),
            ([log, "exists /a", "--fast"], "rewind bisect: unknown option '--fast'\nusage: rewind bisect <log> '<invariant>'\nSee 'rewind bisect --help'.\n"),
        ]
        for (arguments, message) in cases {
            let result = bisect(arguments)
            #expect(result.status == 2)
            #expect(result.error == message)
        }
    }

    @Test func invariantsAtTheLimitsAreCheckedAndPastThemAreBadInvariants() throws {
        let log = try LogFixture.todoLog()
        let invariant = "/todos length < 2"
        for text in [QueriesAtTheLimits.parenthesized(invariant, levels: 256), QueriesAtTheLimits.negated(invariant, times: 256),
                     QueriesAtTheLimits.orChain(endingWith: invariant, count: 1_000), QueriesAtTheLimits.deepest(invariant)] {
            let result = bisect([log, text])
            #expect(result.status == 1)
            #expect(result.output.contains(" stops holding at entry 3 of todo.jsonl (it held for entries 1–2)\n  3   +1.250s  todo/add"))
        }
        let refused: [(String, String)] = [
            (QueriesAtTheLimits.parenthesized(invariant, levels: 4_000), "column 257: \(QueriesAtTheLimits.tooDeep)"),
            (QueriesAtTheLimits.negated(invariant, times: 5_000), "column 1025: \(QueriesAtTheLimits.tooDeep)"),
            (QueriesAtTheLimits.orChain(endingWith: invariant, count: 3_000), "column \(QueriesAtTheLimits.firstConditionTooMany): \(QueriesAtTheLimits.tooMany)"),
        ]
        for (text, message) in refused {
            let result = bisect([log, text])
            #expect(result.status == 2)
            #expect(result.error == "rewind bisect: bad invariant at \(message)\n")
        }
    }

    struct FixtureState: Codable {
        struct Todo: Codable {
            var title: String
            var done: Bool
        }
        var todos: [Todo]
        var filter: String
    }

    enum NoAction: String, Codable { case none }

    @Test func swiftInvariantsInADebugExecutable() throws {
        let log = try LogFixture.todoLog()
        let invariants = [
            StateInvariant("at most two todos") { (state: FixtureState) in state.todos.count <= 2 },
            StateInvariant("no todo is done") { (state: FixtureState) in !state.todos.contains(where: \.done) },
        ]
        var streams = CapturedStreams()
        let reducer: (inout FixtureState, NoAction) -> Void = { _, _ in }
        let status = Inspector.run(["bisect", log], replay: Inspector.link(reducer), invariants: invariants.map(\.erased), streams: &streams)
        #expect(status == 1)
        #expect(streams.standardOutput.hasPrefix("no todo is done stops holding at entry 4 of todo.jsonl (it held for entries 1–3)\n  4   +2.000s  todo/toggle index: 0\n"))

        // A query and the Swift invariants: whichever breaks first.
        streams = CapturedStreams()
        _ = Inspector.run(["bisect", log, "/todos length < 2"], replay: Inspector.link(reducer), invariants: invariants.map(\.erased), streams: &streams)
        #expect(streams.standardOutput.hasPrefix("/todos length < 2 stops holding at entry 3 "))

        // A state that does not decode is reported as the break, with the reason.
        let wrong = [StateInvariant("decodes") { (_: [String]) in true }]
        streams = CapturedStreams()
        let wrongReducer: (inout [String], NoAction) -> Void = { _, _ in }
        #expect(Inspector.run(["bisect", log], replay: Inspector.link(wrongReducer), invariants: wrong.map(\.erased), streams: &streams) == 1)
        #expect(streams.standardOutput.hasPrefix("decodes (the state does not decode as Array<String>: "))
    }

    @Test func swiftInvariantsOnADamagedLogNameTheEntriesNotChecked() throws {
        let log = try LogFixture.todoLog(keyframeInterval: 5, damageLine: 3)
        let invariants = [StateInvariant("no todo is done") { (state: FixtureState) in !state.todos.contains(where: \.done) }]
        var streams = CapturedStreams()
        let reducer: (inout FixtureState, NoAction) -> Void = { _, _ in }
        let status = Inspector.run(["bisect", log], replay: Inspector.link(reducer), invariants: invariants.map(\.erased), streams: &streams)
        #expect(status == 1)
        #expect(streams.standardOutput.hasPrefix("no todo is done stops holding at entry 6 of todo.jsonl; entries 3–5 could not be checked"
            + " (their states cannot be rebuilt: line 3 is damaged), so it may stop holding earlier\n"), "\(streams.standardOutput)")
    }
}
