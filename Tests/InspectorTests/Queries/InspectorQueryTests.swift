import Testing
import Recorder
import RewindQuery
@testable import Inspector

/// `:find QUERY` (then n / N) and `:bisect QUERY` in the inspector, on the todo recording:
///   1 app/launch · 2 todo/add · 3 todo/add · 4 todo/toggle · 5 filter/set · 6 sync/loaded.
/// On a log file they run `rewind find`'s engine in the background (the effect runner's
/// `QueryWorker`); a timeline without one is read a slice per event.
@Suite struct InspectorQueryTests {
    /// The model of the todo recording written as a log file, and the runner that does its effects.
    func logModel(keyframeInterval: Int = 3, damageLine: Int? = nil) throws -> (model: InspectorModel, runner: EffectRunner) {
        let timeline = try LogTimeline(path: LogFixture.todoLog(keyframeInterval: keyframeInterval, damageLine: damageLine),
                                       keepsDamagedRows: damageLine != nil)
        let model = InspectorFixtures.model(timeline)
        return (model, EffectRunner(source: timeline, directory: TemporaryDirectory().path))
    }

    @Test func findSelectsTheFirstMatchAndNStepsThroughThem() throws {
        var (model, runner) = try logModel()
        model.type(":find /todos length >= 2\n", running: runner)
        #expect(model.timeline.selection == 2)
        #expect(model.overlays.message == "4 entries match /todos length >= 2; n/N next/previous")
        model.type("n")
        #expect(model.timeline.selection == 3)
        #expect(model.overlays.message == "Match 2 of 4 for /todos length >= 2")
        model.type("nn")
        #expect(model.timeline.selection == 5)
        model.type("n")
        #expect(model.timeline.selection == 2)
        #expect(model.overlays.message == "Match 1 of 4 for /todos length >= 2 (wrapped around)")
        model.type("N")
        #expect(model.timeline.selection == 5)
        // A `/` search takes n and N back.
        model.type("/launch\n")
        model.type("n")
        #expect(model.timeline.selection == 0)
    }

    @Test func findStartsFromTheSelectionAndShowsOnScreen() throws {
        var (model, runner) = try logModel()
        model.type("jjjj")   // entry 5
        model.type(":find action == todo/*\n", running: runner)
        #expect(model.timeline.selection == 1, "no match at or after entry 5: the first one")
        model.type("G:find exists /todos/2\n", running: runner)
        #expect(model.timeline.selection == 5)
        let lines = model.screenText.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.last == "1 entry matches exists /todos/2; n/N next/previous")
    }

    /// The key press only starts the search: no slice of states is read on the
    /// session's thread, whatever the size of the states (issue 34: `:find` on a
    /// 30 MB state sat at 0 % for minutes), and what it finds comes back as events.
    @Test func onALogFileTheKeyStartsTheEnginesSearchInTheBackground() throws {
        var (model, runner) = try logModel()
        model.type(":find /filter == \"active\"")
        let effects = model.send(.enter)
        #expect(effects == [.runQuery(job: 1, kind: .find, query: try Query(parsing: #"/filter == "active""#))])
        #expect(!model.hasPendingScan && model.awaitsBackgroundQuery)
        #expect(model.overlays.message == ":find /filter == \"active\" …")
        #expect(model.timeline.selection == 0)
        model.run(effects, with: runner)
        #expect(!model.awaitsBackgroundQuery)
        #expect(model.timeline.selection == 4)
        #expect(model.overlays.message == "2 entries match /filter == \"active\"; n/N next/previous")
    }

    /// Progress as the engine reports it, the first match at or after the selection
    /// selected as soon as it comes, and a report of an older search ignored.
    @Test func reportsShowProgressAndOnlyTheCurrentSearchCounts() throws {
        var (model, _) = try logModel()
        model.type("jj:find /todos length >= 1\n")
        reduce(&model, .queryProgress(job: 1, newMatches: [1], fraction: 0.5))
        #expect(model.overlays.message == ":find /todos length >= 1: 1 so far, 50%")
        #expect(model.timeline.selection == 2, "entry 2 is before the selection: not selected")
        reduce(&model, .queryProgress(job: 7, newMatches: [5], fraction: 0.9))
        #expect(model.overlays.message == ":find /todos length >= 1: 1 so far, 50%", "another search's report")
        reduce(&model, .queryProgress(job: 1, newMatches: [2, 3], fraction: 0.75))
        #expect(model.timeline.selection == 2)
        #expect(model.overlays.message == ":find /todos length >= 1: 3 so far, 75%")
        reduce(&model, .queryFinished(job: 1, firstBreak: nil))
        #expect(model.overlays.message == "3 entries match /todos length >= 1; n/N next/previous")
    }

    @Test func escStopsABackgroundSearchAndWhatItStillSendsIsDropped() throws {
        var (model, runner) = try logModel()
        model.type(":find exists /user")
        var effects = model.send(.enter)
        effects += model.send(.escape)
        #expect(effects.last == .cancelQuery(job: 1))
        #expect(model.overlays.message == ":find exists /user cancelled")
        model.run(effects, with: runner)
        #expect(model.overlays.message == ":find exists /user cancelled")
        #expect(model.timeline.selection == 0 && model.scans.queryMatches == nil)
    }

    @Test func aTimelineWithoutALogFileIsReadInSlicesAndEscCancels() {
        var model = InspectorFixtures.model()
        model.scans.scanBudget = ScanBudget(entriesPerEvent: 2, timePerEvent: nil)
        model.type(":find /filter == \"active\"\n")
        #expect(model.overlays.message == ":find /filter == \"active\": 0 so far, 33%")
        #expect(model.hasPendingScan)
        model.scans.scanBudget = ScanBudget(entriesPerEvent: 3, timePerEvent: nil)
        reduce(&model, .tick)
        #expect(model.timeline.selection == 4, "selected as soon as it is found")
        #expect(model.overlays.message == ":find /filter == \"active\": 1 so far, 83%")
        reduce(&model, .tick)
        #expect(model.overlays.message == "2 entries match /filter == \"active\"; n/N next/previous")
        #expect(!model.hasPendingScan)

        model.type(":find exists /user\n:bisect /todos length < 2\n")
        #expect(model.timeline.selection == 2)
        #expect(model.overlays.message == "/todos length < 2 stops holding at entry 3 (todo/add)")
        model.type(":find exists /user\n")
        model.send(.escape)
        #expect(model.overlays.message == ":find exists /user cancelled")
        #expect(!model.hasPendingScan)
    }

    @Test func bisectJumpsToTheFirstBreak() throws {
        var (model, runner) = try logModel()
        model.type(":bisect /todos length < 2\n", running: runner)
        #expect(model.timeline.selection == 2)
        #expect(model.overlays.message == "/todos length < 2 stops holding at entry 3 (todo/add)")
        model.type(":bisect /user/name == \"Ada\"\n", running: runner)
        #expect(model.overlays.message == "/user/name == \"Ada\" holds at every entry")
    }

    @Test func bisectOnADamagedLogSaysWhichEntriesItCouldNotCheck() throws {
        // Line 3 is damaged (its row is entry 2); entries 3–5 follow on from it until the keyframe at entry 6.
        var (model, runner) = try logModel(keyframeInterval: 5, damageLine: 3)
        model.type(":bisect /filter == \"all\"\n", running: runner)
        #expect(model.timeline.selection == 5)
        #expect(model.overlays.message == "/filter == \"all\" stops holding at entry 6 (sync/loaded); entries 2–5 could not be checked (no state), so it may stop holding earlier")
        model.type(":bisect /user/name == \"Ada\"\n", running: runner)
        #expect(model.overlays.message == "/user/name == \"Ada\" holds at every entry that could be checked; entries 2–5 could not be (no state)")
    }

    @Test func aBadQueryNamesTheColumnAndAJumpStillJumps() {
        var model = InspectorFixtures.model()
        model.type(":find /todos length >\n")
        #expect(model.overlays.message == "Bad query: column 16: found the end of the query where a path or a value should be")
        #expect(model.timeline.selection == 0)
        model.type(":bisect\n")
        #expect(model.overlays.message == "Bad query: column 1: the query is empty; try /path == value, exists /path or action == name")
        model.type(":4\n")
        #expect(model.timeline.selection == 3)
    }

    @Test func findAtTheLimitsSearchesAndPastThemIsABadQuery() throws {
        var (model, runner) = try logModel()
        model.type(":find \(QueriesAtTheLimits.deepest("/todos length >= 2"))\n", running: runner)
        #expect(model.timeline.selection == 2)
        #expect(model.overlays.message?.hasPrefix("4 entries match ") == true)
        model.type(":find \(QueriesAtTheLimits.negated("/todos length >= 2", times: 257))\n")
        #expect(model.overlays.message == "Bad query: column 1025: \(QueriesAtTheLimits.tooDeep)")
        model.type(":bisect \(QueriesAtTheLimits.orChain(endingWith: "/todos length < 2", count: 1_001))\n")
        #expect(model.overlays.message == "Bad query: column \(QueriesAtTheLimits.firstConditionTooMany): \(QueriesAtTheLimits.tooMany)")
        #expect(model.timeline.selection == 2)
    }

    @Test func aLogWithKeyframesEveryOtherEntryFindsTheSame() throws {
        var (model, runner) = try logModel(keyframeInterval: 2)
        model.type(":find /todos/0/done == true\n", running: runner)
        #expect(model.timeline.selection == 3)
        #expect(model.overlays.message == "3 entries match /todos/0/done == true; n/N next/previous")
    }

    /// The inspector and `rewind find` run one engine: on random logs with damage,
    /// gaps and patches of every kind, `:find` selects what the command lists.
    @Test func findMatchesWhatTheCommandLists() throws {
        var matched = 0
        for (log, text) in try RandomLog.queries(seed: 3434, logs: 3, entries: 120, queriesPerLog: 4) {
            let timeline = try LogTimeline(path: log)
            var model = InspectorFixtures.model(timeline)
            model.type(":find \(text)\n", running: EffectRunner(source: timeline, directory: TemporaryDirectory().path))
            // The numbers at the start of the lines `rewind find` prints.
            var listed: [Int] = []
            FindCommand.search(timeline, query: try Query(parsing: text), options: FindCommand.Options()) { line in
                if let number = line?.split(separator: " ").first.flatMap({ Int($0) }) { listed.append(number) }
            }
            #expect((model.scans.queryMatches?.entries ?? []).map(timeline.entryNumber(at:)) == listed, "\(text)")
            matched += listed.count
        }
        #expect(matched > 10, "the conditions are not all false")
    }
}
