import Foundation
import Testing
import Recorder
@testable import Inspector

/// Keys act on what the screen shows: the mark against the initial state, the
/// value viewer's indentation, how far the diff pane scrolls sideways, `w` in the
/// action view, and `:` with odd numbers.
@Suite struct KeysOnWhatIsShownTests {
    /// The todo recording with an initial state unlike entry 1's state.
    static func timelineWithInitialState() -> InMemoryTimeline {
        let timeline = InspectorFixtures.todoTimeline()
        timeline.initialState = ["todos": [], "filter": "none"]
        return timeline
    }

    // MARK: The mark against the initial state

    @Test func dAtTheInitialStateDiffsTheMarkAgainstIt() {
        var model = InspectorFixtures.model(Self.timelineWithInitialState())
        model.type("jjm:0\nd")
        #expect(model.screenText == """
             Timeline  6 entries             ▄▅▇▇▇█ │ Initial state (before entry 1)  (vs ma
               1  +0.000s   app/launch            · │●  todos: []
               2  +0.500s   todo/add title: "Bu… ±1 │●  filter: "none"
            *  3  +1.250s   todo/add title: "Wr… ±1 │
               4  +2.000s   todo/toggle index: 0 ±1 │
               5  +3.500s   filter/set filter: … ±1 │
               6  +4.125s ↳ sync/loaded count: 3 ±1 │
                                                    │
                                                    │
                                                    │
                                                    │
                                                    │ Diff  3 → initial state
                                                    │ @ /user
                                                    │ - {
                                                    │ -   "name": "Ada",
                                                    │ -   "email": "ada@example.com"
                                                    │ - }
                                                    │ @ /todos/1
                                                    │ - {
                                                    │ -   "title": "Write tests",
                                                    │ -   "done": false
                                                    │ - }
             todo.jsonl  │  initial state (0/6)  │  timeline  │  mark 3
            Diff: entry 3 → the initial state; d again turns it off
            """)
        model.type("d")
        #expect(model.screenText.hasSuffix("Back to the initial state alone"))
        #expect(model.screenText.contains("│ (the initial state: before any entry)"))
    }

    @Test func eAtTheInitialStateWritesTheMarkDiffOnScreen() throws {
        let directory = TemporaryDirectory()
        // Tall enough for the whole diff to be on screen.
        var model = InspectorFixtures.model(Self.timelineWithInitialState(), rows: 40)
        let runner = EffectRunner(source: model.source, directory: directory.path)
        model.type("jjm:0\nd")
        let screen = model.screenText
        model.type("e", running: runner)
        let path = directory.file("todo-diff-3-0.md")
        #expect(model.overlays.notice == "Exported the diff to \(path)  (Esc dismisses)")
        let written = try String(contentsOfFile: path, encoding: .utf8)
        // The diff pane's rows under its title, as the screen shows them.
        let rows = screen.split(separator: "\n").map(String.init)
        let title = rows.firstIndex { $0.hasSuffix("│ Diff  3 → initial state") }!
        let pane = rows[(title + 1)..<(rows.count - 2)]
            .map { String($0.split(separator: "│", maxSplits: 1, omittingEmptySubsequences: false)[1].dropFirst()) }
            .map { $0.replacingOccurrences(of: #"\s+$"#, with: "", options: .regularExpression) }
            .filter { !$0.isEmpty }
        #expect(pane.count > 3)
        #expect(written == "# Diff: todo.jsonl, entry 3 → the initial state\n\n"
            + "The state after entry 3 (`-`) against the initial state, before entry 1, (`+`), as the inspector's diff pane shows it.\n\n"
            + "```diff\n" + pane.map { $0 + "\n" }.joined() + "```\n")
    }

    @Test func eAndMAtTheInitialStateWithoutAMarkSayWhyTheyDoNothing() {
        var model = InspectorFixtures.model(Self.timelineWithInitialState())
        model.type(":0\n")
        #expect(model.send(.character("e")).isEmpty)
        #expect(model.scans.exporting == nil)
        #expect(model.screenText.hasSuffix("Nothing to export: the initial state has no diff of its own (m an entry, :0, d)"))
        model.type("m")
        #expect(model.timeline.mark == nil)
        #expect(model.screenText.hasSuffix("The initial state cannot be marked: mark an entry, then :0 and d diff them"))
    }

    // MARK: The value viewer

    @Test func theValueViewerKeepsPrettyJSONsIndentation() {
        var model = InspectorFixtures.model()
        model.type("G\tgv")
        #expect(model.screenText == """
             Timeline  6 entries             ▄▅▇▇▇█ │ State after 6  /todos
               1┌ Value at /todos — 14 lines (j/k scroll, Esc closes) ─────────────────┐
               2│ [                                                                    │
               3│   {                                                                  │
               4│     "title": "Buy milk",                                             │
               5│     "done": true                                                     │
               6│   },                                                                 │
                │   {                                                                  │
                │     "title": "Write tests",                                          │
                │     "done": false                                                    │
                │   },                                                                 │
                │   {                                                                  │
                │     "title": "Sync done",                                            │
                │     "done": false                                                    │
                │   }                                                                  │
                │ ]                                                                    │
                └──────────────────────────────────────────────────────────────────────┘
                                                    │
                                                    │
                                                    │
                                                    │
                                                    │
             todo.jsonl  │  entry 6/6  │  state
            Esc close  j/k line  Space/b page  g/G start/end
            """)
    }

    @Test func aLongIndentedLineWrapsUnderItsIndentation() {
        let viewer = ValueViewer(path: JSONPointer(), value: ["note": "one two three four five six"])
        #expect(viewer.allRows(width: 16) == ["{", "  \"note\": \"one", "  two three four", "  five six\"", "}"])
    }

    // MARK: Sideways scrolling

    @Test func theDiffPaneScrollsSidewaysOnlyUntilTheLongestLineEnds() {
        var model = InspectorFixtures.model()
        model.type(">>>>>jj\t\t")                       // a narrow diff pane: entry 3's diff, focused
        let unscrolled = model.screenText
        model.type("llllllllll")
        #expect(model.screenText == """
             Timeline  6 entries                             ▄▅▇▇▇█ │ State after 3
               1  +0.000s   app/launch                            · │●▾ todos [2]
               2  +0.500s   todo/add title: "Buy milk"           ±1 │   ▸ 0 {title, done}
               3  +1.250s   todo/add title: "Write tests"        ±1 │●  ▸ 1 {title, done}
               4  +2.000s   todo/toggle index: 0                 ±1 │   filter: "all"
               5  +3.500s   filter/set filter: "active"          ±1 │ ▸ user {name, email}
               6  +4.125s ↳ sync/loaded count: 3                 ±1 │
                                                                    │
                                                                    │
                                                                    │
                                                                    │
                                                                    │ Diff  2 → 3
                                                                    │ …os/1
                                                                    │ …
                                                                    │ …itle": "Write tests",
                                                                    │ …one": false
                                                                    │ …
                                                                    │
                                                                    │
                                                                    │
                                                                    │
                                                                    │
             todo.jsonl  │  entry 3/6  │  diff
            ? help  q quit  Tab pane  / search  d diff  e export  z zoom
            """)
        model.type("h")
        #expect(model.panes.diffLeft == 0)
        #expect(model.screenText == unscrolled)
    }

    @Test func sidewaysKeysDoNothingWhenNoDiffLineIsCut() {
        var model = InspectorFixtures.model()
        model.type("jjj\t\t")                           // entry 4: `- false` / `+ true`
        let screen = model.screenText
        model.type("lll")
        #expect(model.panes.diffLeft == 0)
        #expect(model.screenText == screen)
    }

    // MARK: w in the action view

    @Test func wInTheActionViewSaysItNeedsTheStateAndIsNotHinted() {
        var model = InspectorFixtures.model()
        model.type("jjp\t")
        #expect(model.screenText == """
             Timeline  6 entries             ▄▅▇▇▇█ │ Action 3  /title
               1  +0.000s   app/launch            · │ todo/add
               2  +0.500s   todo/add title: "Bu… ±1 │ reducer time not recorded
               3  +1.250s   todo/add title: "Wr… ±1 │ sent by the app
               4  +2.000s   todo/toggle index: 0 ±1 │ payload:
               5  +3.500s   filter/set filter: … ±1 │     title: "Write tests"
               6  +4.125s ↳ sync/loaded count: 3 ±1 │
                                                    │
                                                    │
                                                    │
                                                    │
                                                    │ Diff  2 → 3
                                                    │ @ /todos/1
                                                    │ + {
                                                    │ +   "title": "Write tests",
                                                    │ +   "done": false
                                                    │ + }
                                                    │
                                                    │
                                                    │
                                                    │
                                                    │
             todo.jsonl  │  entry 3/6  │  state
            ? help  q quit  Tab pane  / search  v view  y copy  p action  z zoom
            """)
        model.type("w")
        #expect(model.overlays.overlay == nil)
        #expect(model.screenText.hasSuffix("w shows a state value's history; p returns to the state"))
        model.type("p")                                   // the state again: w works
        model.type("w")
        #expect(model.screenText.contains("┌ History of /todos"))
    }

    @Test func yAndYInTheActionViewCopyThePayloadNodeUnderTheCursor() {
        var model = InspectorFixtures.model()
        model.type("jjp\t")                              // the action view of entry 3, cursor on /title
        #expect(model.screenText.contains("│ Action 3  /title"))
        #expect(model.send(.character("y")) == [.copyToClipboard(#""Write tests""#)])
        #expect(model.screenText.hasSuffix("Sent the action's value at /title (13 bytes) to the terminal's clipboard"))
        #expect(model.send(.character("Y")) == [.copyToClipboard("/title")])
        #expect(model.screenText.hasSuffix("Sent the action's path /title (6 bytes) to the terminal's clipboard"))
        model.type("p")                                   // the state again: the state node's value
        #expect(model.send(.character("Y")) != [.copyToClipboard("/title")])
    }

    // MARK: `:` with odd numbers

    @Test func aJumpPastAnyIntIsPastTheEndAndAnEmptyJumpCancelsQuietly() {
        var model = InspectorFixtures.model()
        model.type(":99999999999999999999999\n")
        #expect(model.timeline.selection == 5)
        #expect(model.screenText.hasSuffix("Entry 99999999999999999999999 is past the end: showing the last, 6"))
        model.type("gg:\n")
        #expect(model.timeline.selection == 0)
        #expect(model.overlays.message == nil)
        #expect(model.screenText.hasSuffix("? help  q quit  : jump  Tab pane  / search  f filter  m mark  d diff  e export"))
    }
}
