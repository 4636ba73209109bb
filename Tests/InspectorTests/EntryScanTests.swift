import Testing
import Recorder
@testable import Inspector

/// Scans over every entry (`f` picker, filter, `w` history, timeline `/`) run
/// a slice per event, so a key press returns at once on a huge log. Here a
/// slice is 20 entries of a 100-entry timeline: five events finish a scan.
@Suite struct EntryScanTests {
    /// 100 entries: `counter/increment` except `reset` at entries 38 and 86
    /// and `label/set` at entry 71 (the only change to /label).
    static func model() -> InspectorModel {
        var steps: [InMemoryTimeline.Step] = []
        for index in 0..<100 {
            let type = index == 37 || index == 85 ? "reset" : index == 70 ? "label/set" : "counter/increment"
            let label: JSONValue = index >= 70 ? "set" : ""
            steps.append(.init(type, state: ["count": .integer(Int64(index)), "label": label], at: Double(index)))
        }
        var model = InspectorFixtures.model(InMemoryTimeline(name: "counter.jsonl", steps: steps))
        model.scans.scanBudget = ScanBudget(entriesPerEvent: 20, timePerEvent: nil)
        return model
    }

    private func line(_ model: InspectorModel, containing text: String) -> String? {
        model.screenText.split(separator: "\n").map(String.init).first { $0.contains(text) }
    }

    @Test func filterPickerListsTypesAsTheyAreFoundAndFinishesOverSeveralTicks() {
        var model = Self.model()
        model.type("f")                             // the key press examines the first 20 entries
        #expect(model.hasPendingScan)
        #expect(model.screenText.contains("┌ Filter by action type — scanning… 20%, types so far"))
        #expect(model.screenText.contains("│ counter/increment  (20)"))
        #expect(!model.screenText.contains("reset"))
        reduce(&model, .tick)                       // entries 21–40: the first reset
        #expect(model.screenText.contains("scanning… 40%"))
        #expect(model.screenText.contains("│ reset  (1)"))
        #expect(!model.screenText.contains("label/set"))
        for _ in 0..<3 { reduce(&model, .tick) }
        #expect(!model.hasPendingScan)
        let screen = model.screenText
        #expect(screen.contains("┌ Filter by action type (type to narrow, Space picks, Tab/S-Tab hide)"))
        #expect(!screen.contains("scanning"))
        #expect(screen.contains("│ counter/increment  (97)"))
        #expect(screen.contains("│ label/set  (1)"))
        #expect(screen.contains("│ reset  (2)"))
    }

    @Test func theCursorStaysOnItsTypeWhenNewTypesSortInBeforeIt() {
        var model = Self.model()
        model.type("f")
        reduce(&model, .tick)                       // counter/increment, reset
        model.send(.down)                           // on reset
        for _ in 0..<3 { reduce(&model, .tick) }    // label/set sorts in before reset
        guard case .filterPicker(let picker) = model.overlays.overlay else { Issue.record("the picker closed"); return }
        #expect(picker.choices.map(\.actionType) == ["counter/increment", "label/set", "reset"])
        #expect(picker.cursor == 2)
    }

    @Test func escStopsTheFilterPickerScan() {
        var model = Self.model()
        model.type("f")
        reduce(&model, .tick)
        model.type("\u{1b}")
        #expect(model.overlays.overlay == nil)
        #expect(!model.hasPendingScan)
        reduce(&model, .tick)
        #expect(model.overlays.overlay == nil)
        #expect(!model.screenText.contains("Filter by action type"))
    }

    @Test func aPickedFilterFillsInOverTicksAndSelectsTheFirstMatchOnceFound() {
        var model = Self.model()
        model.type("f")
        for _ in 0..<4 { reduce(&model, .tick) }
        model.send(.down); model.send(.down)
        model.type("\n")                            // reset; the Enter press examines entries 1–20
        #expect(model.timeline.filter?.shown == ["reset"])
        #expect(model.timeline.selection == 0)               // no reset found yet
        #expect(line(model, containing: "counter.jsonl")?.contains("filter: reset (filtering… 20%)") == true)
        reduce(&model, .tick)                       // entries 21–40: reset at 38
        #expect(model.timeline.selection == 37)
        #expect(model.screenText.contains("Timeline  1/100 \"reset\""))
        for _ in 0..<3 { reduce(&model, .tick) }
        #expect(!model.hasPendingScan)
        #expect(model.screenText.contains("Timeline  2/100 \"reset\""))
        #expect(model.screenText.hasSuffix("Showing 2 entries (reset); f clears the filter"))
        #expect(line(model, containing: "counter.jsonl")?.contains("filtering") == false)
    }

    @Test func escCancelsAFilterStillBeingBuilt() {
        var model = Self.model()
        model.type("f")
        for _ in 0..<4 { reduce(&model, .tick) }
        model.send(.down); model.send(.down)
        model.type("\n")
        model.type("\u{1b}")
        #expect(model.timeline.filter == nil)
        #expect(model.screenText.hasSuffix("Filter \"reset\" cancelled"))
        #expect(model.screenText.contains("Timeline  100 entries"))
    }

    @Test func pathHistoryShowsChangesFoundSoFarThenAll() {
        var model = Self.model()
        model.type(":72\n\tj")                      // entry 72; the state pane, on /label
        #expect(model.cursorRow?.path.description == "/label")
        model.type("w")                             // walks back from entry 72 first: 72…53, the change at 71
        #expect(model.screenText.contains("History of /label — 1 change so far, scanning… 20%"))
        #expect(model.screenText.contains("│     71 +70.000s  label/set           …  "))   // old → new once the walk is done
        for _ in 0..<3 { reduce(&model, .tick) }    // back to entry 1, then forward from 73
        #expect(model.screenText.contains("History of /label — 1 change so far, scanning… 80%"))
        reduce(&model, .tick)
        #expect(!model.hasPendingScan)
        #expect(model.screenText.contains("History of /label — 1 change (j/k jump, v view, ←/→, Esc)"))
        #expect(model.screenText.contains("│     71 +70.000s  label/set           \"\" → \"set\"  "))
    }

    @Test func escStopsThePathHistoryScan() {
        var model = Self.model()
        model.type("\tj")
        model.type("w")
        reduce(&model, .tick)
        model.type("\u{1b}")
        #expect(model.overlays.overlay == nil)
        #expect(!model.hasPendingScan)
    }

    @Test func timelineSearchJumpsToTheFirstHitAsSoonAsAScanSliceFindsIt() {
        var model = Self.model()
        model.type("/reset\n")                      // rows 2–21: nothing yet
        #expect(model.timeline.selection == 0)
        #expect(model.scans.timelineSearch != nil)
        #expect(line(model, containing: "counter.jsonl")?.contains("searching… 20%") == true)
        reduce(&model, .tick)                       // rows 22–41: reset at 38
        #expect(model.timeline.selection == 37)
        #expect(model.scans.timelineSearch == nil)
        #expect(model.scans.timelineMatchCount != nil)    // what is pending now is counting the matches (match i/N)
        model.scans.timelineMatchCount = nil
        #expect(!model.hasPendingScan)
        model.type("n")                             // 48 rows on to entry 86: three slices
        #expect(model.timeline.selection == 37)
        reduce(&model, .tick)
        #expect(model.timeline.selection == 37)
        reduce(&model, .tick)
        #expect(model.timeline.selection == 85)
        model.type("n")                             // around the end to 38 again
        for _ in 0..<3 { reduce(&model, .tick) }
        #expect(model.timeline.selection == 37)
        #expect(model.screenText.hasSuffix("Search wrapped around"))
    }

    @Test func escCancelsATimelineSearchAndMissesAreReportedWhenTheScanEnds() {
        var model = Self.model()
        model.type("/nothing\n")
        reduce(&model, .tick)
        #expect(line(model, containing: "counter.jsonl")?.contains("searching… 40%") == true)
        model.type("\u{1b}")
        #expect(model.scans.timelineSearch == nil)
        #expect(model.screenText.hasSuffix("Search for \"nothing\" cancelled"))
        #expect(model.timeline.selection == 0)
        model.type("n")
        for _ in 0..<4 { reduce(&model, .tick) }
        #expect(model.screenText.hasSuffix("No action matches \"nothing\" (states: :find, or Tab then /)"))
        #expect(!model.hasPendingScan)
    }

    @Test func followModeWithAFilterSelectsTheNewestMatchOnTheTickItArrives() {
        let timeline = InspectorFixtures.todoTimeline()
        var model = InspectorFixtures.model(timeline)
        model.type("f")
        for _ in 0..<3 { model.send(.down) }
        model.type("\n")                            // todo/add: entries 2 and 3
        model.type("F")
        #expect(model.timeline.selection == 2)
        let state: JSONValue = ["todos": [], "filter": "all", "user": ["name": "Ada", "email": "ada@example.com"]]
        timeline.pending = [.init("todo/add", ["title": "New"], state: state, at: 9), .init("clock/tick", state: state, at: 10)]
        reduce(&model, .tick)
        #expect(model.timeline.filter?.entries == [1, 2, 6])
        #expect(model.timeline.selection == 6)
    }

    @Test func searchMatchesPayloadsWithoutCaseAndWideCharactersExactly() {
        let entry = TimelineEntry(index: 0, timeOffset: 0, actionType: "label/set", payload: ["label": "Buy MILK 日本語"],
                                  changedPaths: [], fromEffect: false, isKeyframe: false)
        #expect(InspectorModel.entry(entry, matches: "buy milk"))
        #expect(InspectorModel.entry(entry, matches: "label/s"))
        #expect(InspectorModel.entry(entry, matches: "\"label\":"))
        #expect(InspectorModel.entry(entry, matches: "日本"))
        #expect(!InspectorModel.entry(entry, matches: "milk 日本語!"))
        #expect(!InspectorModel.entry(entry, matches: "buy  milk"))
    }

    @Test func theSessionTicksWithoutWaitingWhileAScanRuns() {
        var terminal = ScriptedTerminal(events: [.key(.character("f")), nil, nil, nil, nil, nil, .key(.escape), .key(.character("q"))])
        var model = Self.model()
        _ = InspectorSession.run(model: &model, terminal: &terminal)
        // f's key press and four ticks finish the scan; then, nothing going on, the session sleeps until a key.
        #expect(terminal.timeouts == [-1, 0, 0, 0, 0, -1, -1, -1])
        #expect(terminal.frames.contains { $0.plainText.contains("│ reset  (2)") })
    }
}
