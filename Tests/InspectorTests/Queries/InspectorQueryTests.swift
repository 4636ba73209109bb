import Testing
import Recorder
@testable import Inspector

/// `:find QUERY` (then n / N) and `:bisect QUERY` in the inspector, on the todo fixture:
///   1 app/launch · 2 todo/add · 3 todo/add · 4 todo/toggle · 5 filter/set · 6 sync/loaded.
@Suite struct InspectorQueryTests {
    @Test func findSelectsTheFirstMatchAndNStepsThroughThem() {
        var model = InspectorFixtures.model()
        model.type(":find /todos length >= 2\n")
        #expect(model.selection == 2)
        #expect(model.message == "4 entries match /todos length >= 2; n/N next/previous")
        model.type("n")
        #expect(model.selection == 3)
        #expect(model.message == "Match 2 of 4 for /todos length >= 2")
        model.type("nn")
        #expect(model.selection == 5)
        model.type("n")
        #expect(model.selection == 2)
        #expect(model.message == "Match 1 of 4 for /todos length >= 2 (wrapped around)")
        model.type("N")
        #expect(model.selection == 5)
        // A `/` search takes n and N back.
        model.type("/launch\n")
        model.type("n")
        #expect(model.selection == 0)
    }

    @Test func findStartsFromTheSelectionAndShowsOnScreen() {
        var model = InspectorFixtures.model()
        model.type("jjjj")   // entry 5
        model.type(":find action == todo/*\n")
        #expect(model.selection == 1, "no match at or after entry 5: the first one")
        model.type("G:find exists /todos/2\n")
        #expect(model.selection == 5)
        let lines = model.screenText.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.last == "1 entry matches exists /todos/2; n/N next/previous")
    }

    @Test func findRunsInSlicesAndEscCancels() {
        var model = InspectorFixtures.model()
        model.scanBudget = ScanBudget(entriesPerEvent: 2, timePerEvent: nil)
        model.type(":find /filter == \"active\"\n")
        #expect(model.message == ":find /filter == \"active\": 0 so far, 33%")
        #expect(model.hasPendingScan)
        model.scanBudget = ScanBudget(entriesPerEvent: 3, timePerEvent: nil)
        reduce(&model, .tick)
        #expect(model.selection == 4, "selected as soon as it is found")
        #expect(model.message == ":find /filter == \"active\": 1 so far, 83%")
        reduce(&model, .tick)
        #expect(model.message == "2 entries match /filter == \"active\"; n/N next/previous")
        #expect(!model.hasPendingScan)

        model.type(":find exists /user\n")
        model.send(.escape)
        #expect(model.message == ":find exists /user cancelled")
        #expect(!model.hasPendingScan)
    }

    @Test func bisectJumpsToTheFirstBreak() {
        var model = InspectorFixtures.model()
        model.type(":bisect /todos length < 2\n")
        #expect(model.selection == 2)
        #expect(model.message == "/todos length < 2 stops holding at entry 3 (todo/add)")
        model.type(":bisect /user/name == \"Ada\"\n")
        #expect(model.message == "/user/name == \"Ada\" holds at every entry")
    }

    @Test func bisectOnADamagedLogSaysWhichEntriesItCouldNotCheck() throws {
        // Line 3 is damaged (its row is entry 2); entries 3–5 follow on from it until the keyframe at entry 6.
        let timeline = try LogTimeline(path: LogFixture.todoLog(keyframeInterval: 5, damageLine: 3), keepsDamagedRows: true)
        var model = InspectorFixtures.model(timeline)
        model.type(":bisect /filter == \"all\"\n")
        #expect(model.selection == 5)
        #expect(model.message == "/filter == \"all\" stops holding at entry 6 (sync/loaded); entries 2–5 could not be checked (no state), so it may stop holding earlier")
        model.type(":bisect /user/name == \"Ada\"\n")
        #expect(model.message == "/user/name == \"Ada\" holds at every entry that could be checked; entries 2–5 could not be (no state)")
    }

    @Test func aBadQueryNamesTheColumnAndAJumpStillJumps() {
        var model = InspectorFixtures.model()
        model.type(":find /todos length >\n")
        #expect(model.message == "Bad query: column 16: found the end of the query where a path or a value should be")
        #expect(model.selection == 0)
        model.type(":bisect\n")
        #expect(model.message == "Bad query: column 1: the query is empty; try /path == value, exists /path or action == name")
        model.type(":4\n")
        #expect(model.selection == 3)
    }

    @Test func findAtTheLimitsSearchesAndPastThemIsABadQuery() {
        var model = InspectorFixtures.model()
        model.type(":find \(QueriesAtTheLimits.deepest("/todos length >= 2"))\n")
        #expect(model.selection == 2)
        #expect(model.message?.hasPrefix("4 entries match ") == true)
        model.type(":find \(QueriesAtTheLimits.negated("/todos length >= 2", times: 257))\n")
        #expect(model.message == "Bad query: column 1025: \(QueriesAtTheLimits.tooDeep)")
        model.type(":bisect \(QueriesAtTheLimits.orChain(endingWith: "/todos length < 2", count: 1_001))\n")
        #expect(model.message == "Bad query: column \(QueriesAtTheLimits.firstConditionTooMany): \(QueriesAtTheLimits.tooMany)")
        #expect(model.selection == 2)
    }

    @Test func aLogFileIsScannedThroughTheReader() throws {
        let timeline = try LogTimeline(path: LogFixture.todoLog(keyframeInterval: 2))
        var model = InspectorFixtures.model(timeline)
        model.type(":find /todos/0/done == true\n")
        #expect(model.selection == 3)
        #expect(model.message == "3 entries match /todos/0/done == true; n/N next/previous")
    }
}
