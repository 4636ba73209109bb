import Foundation
import SampleDomains
import Testing
@testable import Inspector
@testable import Recorder

/// The replay keys in the inspector of a debug executable: `r` replays and marks
/// divergences, `a` dispatches an edited action as a branch, `s` saves it, `x` skips.
@Suite struct ReplayKeysTests {
    /// The inspector over a recorded todo log (with line `damagedLine` damaged, if given, and
    /// a row for it as `debug <log>` opens it), linked with `reducer`, and the effect runner a
    /// session would give it (saving next to the log); the compatibility check has run.
    static func model(
        damagedLine: Int? = nil,
        reducer: @escaping (inout SampleDomains.TodoState, SampleDomains.TodoAction) -> Void = TodoDomain.reduce
    ) throws -> (model: InspectorModel, log: ReplayLogs.Log, runner: EffectRunner) {
        let log = try damagedLine.map { try ReplayLogs.todo(damagedLine: $0) } ?? ReplayLogs.todo()
        let timeline = try LogTimeline(path: log.path, keepsDamagedRows: true)
        let replay = ReplayTimeline(base: timeline, engine: ReplayWorkbench(reader: timeline.reader, reducer: reducer))
        let runner = EffectRunner(source: replay, directory: log.directory)
        var model = InspectorFixtures.model(replay, columns: 100, rows: 24)
        model.settle(with: runner)
        return (model, log, runner)
    }

    static func lines(_ model: InspectorModel) -> [String] { model.screenText.components(separatedBy: "\n") }

    @Test func withoutAReducerTheKeysExplainHowToEnableThem() {
        for key in ["r", "a", "s", "x"] {
            var model = InspectorFixtures.model()
            model.type(key)
            #expect(model.overlays.message == InspectorModel.replayNeedsReducer)
            // Longer than a row: it takes the status bar's row too, rather than be cut.
            #expect(Self.lines(model).suffix(2).joined(separator: " ").hasPrefix("Replay needs your reducer: link Inspector in a debug executable"))
            #expect(model.overlays.prompt == nil && model.timeline.count == 6)
        }
    }

    @Test func theStatusBarShowsTheCompatibilityReport() throws {
        let (model, _, _) = try Self.model()
        #expect(Self.lines(model)[22].contains("│  replay: all 6 action types ok"))
    }

    @Test func rMarksDivergentEntriesAndShowsRecordedAgainstRecomputed() throws {
        // The new version of the reducer turns the "done" filter into "active".
        var (model, _, runner) = try Self.model { state, action in
            TodoDomain.reduce(&state, action)
            if case .setFilter(.done) = action { state.filter = .active }
        }
        model.type("r", running: runner)
        #expect(model.overlays.message == "Replayed 12 entries from 1: 1 diverge (first at 10)")
        #expect(model.timeline.selection == 9)
        let lines = Self.lines(model)
        #expect(lines[10].hasPrefix("≠ 10 "), "\(lines[10])")
        #expect(lines[9].hasPrefix("   9 "))
        #expect(model.screenText.contains("Diff  entry 10: recorded (-) → recomputed (+)"))
        let diff = model.view.diffLines.map { DiffFormatting.plainText($0) }
        #expect(diff.contains { $0.hasPrefix("-") && $0.contains(#""filter": "done""#) }, "\(diff)")
        #expect(diff.contains { $0.hasPrefix("+") && $0.contains(#""filter": "active""#) }, "\(diff)")

        // From entry 11 on everything matches again.
        model.type("j")
        model.type("r", running: runner)
        #expect(model.overlays.message == "Replayed 2 entries from 11: all match the recording")
        #expect(!Self.lines(model)[10].hasPrefix("≠"))
    }

    @Test func xSkipsAnEntryDimsItAndRecomputesEverythingAfterIt() throws {
        var (model, _, _) = try Self.model()
        model.type("x")
        #expect(model.overlays.message == "Skipped entry 1: states after it are recomputed without it (x again unskips)")
        #expect(Self.lines(model)[1].hasPrefix("-  1 "))

        model.type("G")
        #expect(render(model, size: model.size)[1, 10].style.dim)
        var expected = SampleDomains.TodoState()
        for action in TodoDomain.script.dropFirst() { TodoDomain.reduce(&expected, action) }
        #expect(model.view.state?.value == (try JSONEncoding.value(of: expected)))

        model.type("gx")
        #expect(model.overlays.message == "Entry 1 is no longer skipped")
        model.type("G")
        var recorded = SampleDomains.TodoState()
        for action in TodoDomain.script { TodoDomain.reduce(&recorded, action) }
        #expect(model.view.state?.value == (try JSONEncoding.value(of: recorded)))
    }

    @Test func aDispatchesAnEditedActionAsABranchAndSSavesIt() throws {
        var (model, log, runner) = try Self.model()
        model.type("s", running: runner)
        #expect(model.overlays.message == "No branch yet: press a on an entry to dispatch an edited action")

        model.type("jj")
        model.type("a")
        let prefilled = #"{"add":{"title":"Call the bank"}}"#
        #expect(model.overlays.prompt == .editAction(prefilled))
        #expect(Self.lines(model).last?.hasPrefix("action> " + prefilled + "█") == true)

        // A mistyped field: the error names it and the editor stays open.
        for _ in prefilled { _ = model.send(.backspace) }
        model.type(#"{"add":{"titel":"Edited"}}"#)
        _ = model.send(.enter)
        #expect(model.overlays.prompt == .editAction(#"{"add":{"titel":"Edited"}}"#))
        #expect(model.overlays.editError == #"add.title: missing (the object has no member "title")"#)
        #expect(Self.lines(model)[22].hasPrefix(#" ✗ add.title: missing (the object has no member "title")  (fix it and press Enter; Esc cancels)"#))
        #expect(model.timeline.count == 12)

        for _ in #"titel":"Edited"}}"# { _ = model.send(.backspace) }
        model.type(#"title":"Edited"}}"#)
        _ = model.send(.enter)
        #expect(model.overlays.prompt == nil)
        #expect(model.timeline.count == 13 && model.timeline.selection == 12)
        #expect(Self.lines(model)[13].hasPrefix("⎇ 13 "), "\(Self.lines(model)[13])")
        var expected = SampleDomains.TodoState()
        for action in TodoDomain.script.prefix(3) + [.add(title: "Edited")] { TodoDomain.reduce(&expected, action) }
        #expect(model.view.state?.value == (try JSONEncoding.value(of: expected)))
        // The diff is against the fork (entry 3), not the log's last entry.
        #expect(model.view.changedPaths.map(\.description) == ["/todos/3", "/nextID", "/stats/total"])

        model.type("s", running: runner)
        let saved = log.directory + "/log-branch.jsonl"
        #expect(Self.lines(model).last == "Save the branch as \(saved)? (y/n)")
        model.type("n")                                  // anything but y: not saved, and not a command
        #expect(model.overlays.message == "Not saved")
        #expect(!FileManager.default.fileExists(atPath: saved))
        model.type("sy", running: runner)
        #expect(model.overlays.message == "Saved the branch (4 entries) to \(saved)")
        let reader = try LogReader(path: saved)
        #expect(reader.entryCount == 4)
        #expect(try reader.state(at: 3) == JSONEncoding.value(of: expected))
        // The copied entries keep the times they were recorded at.
        let recorded = try LogReader(path: log.path)
        for index in 0..<3 {
            #expect(abs(try reader.entry(at: index).time.timeIntervalSince(recorded.entry(at: index).time)) < 1e-6)
            let (copy, original) = (try reader.entry(at: index), try recorded.entry(at: index))
            #expect(abs(copy.duration - original.duration) < 1e-6, "\(copy.duration) vs \(original.duration)")
        }
    }

    @Test func aBranchEntrysDiffNamesTheForkAndTheTimelineMarksIt() throws {
        var (model, _, _) = try Self.model()
        model.type("jja")                    // entry 3: dispatch its action again, as is
        _ = model.send(.enter)
        #expect(model.timeline.selection == 12)
        // The base is the fork (entry 3), not the log's last entry (12).
        #expect(model.screenText.contains("│ Diff  3 → 13  (the branch forks after entry 3)"), "\(model.screenText)")
        #expect(Self.lines(model)[3].hasPrefix("┬  3 "), "\(Self.lines(model)[3])")
        #expect(Self.lines(model)[22].contains("│  branch forks after 3"))
        model.type("k")                      // the log's last entry: its own diff, 11 → 12
        #expect(model.screenText.contains("│ Diff  11 → 12"))
    }

    @Test func theActionEditorIsALineEditorAndNoKeyLeaksIntoCommands() throws {
        var (model, _, _) = try Self.model()
        model.type("jja")
        let prefilled = #"{"add":{"title":"Call the bank"}}"#
        // One Backspace too many leaves the editor open and empty; what is typed next is text, not commands.
        for _ in 0..<(prefilled.count + 3) { _ = model.send(.backspace) }
        #expect(model.overlays.prompt?.kind == .editAction && model.overlays.prompt?.text == "")
        model.type("qs")
        #expect(model.overlays.prompt?.text == "qs")
        #expect(model.overlays.confirmation == nil && model.timeline.count == 12)
        _ = model.send(.control("u"))
        model.type(#"{"add":{"title":"X"}}"#)
        for _ in 0..<3 { _ = model.send(.left) }       // before "}}: insert in the middle
        model.type("YZ")
        #expect(model.overlays.prompt?.text == #"{"add":{"title":"XYZ"}}"#)
        #expect(Self.lines(model).last == #"action> {"add":{"title":"XYZ"}}"#)
        #expect(render(model, size: model.size)[23, 8 + 20].style.reverse)   // the cursor, on the `"` after XYZ
        _ = model.send(.escape)
        #expect(model.overlays.prompt == nil)
        #expect(model.overlays.message == "Edit cancelled: nothing was dispatched")
        #expect(model.timeline.count == 12)
    }
}
