import Testing
import Recorder
@testable import Inspector

/// What users of less, tig, jless and lnav press without thinking: Space pages, `h`
/// goes back where `l` came from, `q` closes what is open before it quits, trees open
/// and close whole, and help and hints are readable on an 80-column terminal.
@Suite struct OtherToolsHabitsTests {
    static func longTimeline() -> InMemoryTimeline {
        InMemoryTimeline(name: "long.jsonl", steps: (0..<60).map { .init("tick", ["n": .integer(Int64($0))], state: ["n": .integer(Int64($0))]) })
    }

    @Test func spacePagesDownInTheTimelineAndFoldsInTheTree() {
        var model = InspectorFixtures.model(Self.longTimeline())
        model.type(" ")
        #expect(model.timeline.selection == 20)                     // a page, as PgDn
        model.type("  ")
        #expect(model.timeline.selection == 59)
        var todo = InspectorFixtures.model()
        todo.type("\tjj ")                                 // the state pane: Space folds, as Enter does
        #expect(todo.stateLines(3).last == " ▾ user {2}")
    }

    @Test func hGoesBackToTheTimelineFromTheTopOfTheTree() {
        var model = InspectorFixtures.model()
        model.type("l")                                    // l from the timeline: into the state pane
        #expect(model.panes.focus == .state)
        model.type("h")                                    // on a top-level leaf: back where l came from
        #expect(model.panes.focus == .timeline)
        model.type("\tjjlh")                               // an open node closes first
        #expect(model.panes.focus == .state && model.stateLines(3).last == " ▸ user {name, email}")
        model.type("h")
        #expect(model.panes.focus == .timeline)
    }

    @Test func qClosesWhatIsOpenBeforeItQuits() {
        var model = InspectorFixtures.model()
        for opening in ["?", "f", "D", "\tw", "\tv"] {
            model = InspectorFixtures.model()
            InspectorFixtures.set(&model, damage: true)
            model.type(opening)
            #expect(model.overlays.overlay != nil, "\(opening) opened nothing")
            #expect(model.send(.character("q")).isEmpty, "q quit from \(opening)")
            #expect(model.overlays.overlay == nil)
        }
        model.type("fq")                                   // once something is typed, q narrows the picker
        model.type("fa")
        #expect(model.send(.character("q")).isEmpty)
        guard case .filterPicker(let picker)? = model.overlays.overlay else { Issue.record("the picker closed"); return }
        #expect(picker.query == "aq")
        #expect(model.send(.escape).isEmpty && model.overlays.overlay == nil)
        #expect(model.send(.character("q")) == [.quit])
    }

    @Test func eOpensANodeAndAllInItAndCClosesEveryNode() {
        var model = InspectorFixtures.model()
        model.type("G\t")
        model.send(.home)                                  // the cursor on /todos
        model.type("E")
        #expect(model.screenText.hasSuffix("Opened /todos and everything in it"))
        #expect(model.stateLines(10) == [
            "●▾ todos [3]",
            "   ▾ 0 {2}",
            "       title: \"Buy milk\"",
            "       done: true",
            "   ▾ 1 {2}",
            "       title: \"Write tests\"",
            "       done: false",
            "●  ▾ 2 {2}",
            "●      title: \"Sync done\"",
            "●      done: false",
        ])
        model.type("jjjC")                                 // the cursor inside: it goes to its top-level node
        #expect(model.stateLines(4) == ["●▸ todos [3]", "   filter: \"active\"", " ▸ user {name, email}", ""])
        #expect(model.cursorRow?.path.description == "/todos")
    }

    @Test func helpWrapsLongDescriptionsAndOverlaysHintTheirOwnKeys() {
        var model = InspectorFixtures.model()                // 80 columns
        model.type("?")
        let rows = model.screenText.split(separator: "\n").map(String.init)
        // `:`'s description is longer than the box: it goes on under its column, not cut.
        #expect(rows[10...11] == [
            "    │ :             jump to entry N (:0 the initial state); :find / :bisect│",
            "    │               a query                                                │",
        ])
        #expect(rows.last == "Esc close  j/k scroll  Space/PgDn page")
        model.type("\u{1b}f")
        #expect(model.screenText.split(separator: "\n").last == "Esc close  Enter show  Space pick  type narrows  Tab hide  S-Tab this log")
    }
}

extension InspectorFixtures {
    /// Gives the model's in-memory log a damaged record, so `D` has something to list.
    static func set(_ model: inout InspectorModel, damage: Bool) {
        guard damage, let timeline = model.source as? InMemoryTimeline else { return }
        timeline.damage = [DamagedRecord(line: 2, reason: "checksum mismatch")]
    }
}
