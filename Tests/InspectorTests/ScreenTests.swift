import Foundation
import Testing
import Recorder
@testable import Inspector

/// Whole screens at 80×24, as a user reads them.
@Suite struct ScreenTests {
    @Test func firstScreenShowsTimelineStateDiffAndStatus() {
        let model = InspectorFixtures.model()
        #expect(model.screenText == """
             Timeline  6 entries                    │ State after 1
               1  +0.000s   app/launch            · │   todos: []
               2  +0.500s   todo/add title: "Bu… ±1 │   filter: "all"
               3  +1.250s   todo/add title: "Wr… ±1 │ ▸ user {name, email}
               4  +2.000s   todo/toggle index: 0 ±1 │
               5  +3.500s   filter/set filter: … ±1 │
               6  +4.125s ↳ sync/loaded count: 3 ±1 │
                                                    │
                                                    │
                                                    │
                                                    │
                                                    │ Diff  0 → 1
                                                    │ (no changes)
                                                    │
                                                    │
                                                    │
                                                    │
                                                    │
                                                    │
                                                    │
                                                    │
                                                    │
             todo.jsonl  │  entry 1/6  │  timeline
            ? help  q quit  : jump  Tab pane  / search  f filter  m mark  d diff  e export
            """)
    }

    @Test func steppingShowsWhatTheActionChangedHighlightedAndAsADiff() {
        var model = InspectorFixtures.model()
        model.type("jjj")
        #expect(model.screenText == """
             Timeline  6 entries             ▄▅▇▇▇█ │ State after 4
               1  +0.000s   app/launch            · │●▾ todos [2]
               2  +0.500s   todo/add title: "Bu… ±1 │●  ▾ 0 {2}
               3  +1.250s   todo/add title: "Wr… ±1 │       title: "Buy milk"
               4  +2.000s   todo/toggle index: 0 ±1 │●      done: true
               5  +3.500s   filter/set filter: … ±1 │   ▸ 1 {title, done}
               6  +4.125s ↳ sync/loaded count: 3 ±1 │   filter: "all"
                                                    │ ▸ user {name, email}
                                                    │
                                                    │
                                                    │
                                                    │ Diff  3 → 4
                                                    │ @ /todos/0/done
                                                    │ - false
                                                    │ + true
                                                    │
                                                    │
                                                    │
                                                    │
                                                    │
                                                    │
                                                    │
             todo.jsonl  │  entry 4/6  │  timeline
            ? help  q quit  : jump  Tab pane  / search  f filter  m mark  d diff  e export
            """)
        let changed = render(model, size: model.size)
        // The changed leaf is drawn in the "changed" colour, an unchanged sibling is not.
        #expect(changed[4, 48].style.foreground == .changed)
        #expect(changed[3, 48].style.foreground != .changed)
    }

    @Test func movementKeysAndJump() {
        var model = InspectorFixtures.model()
        model.send(.end)
        #expect(model.timeline.selection == 5)
        model.type("k")
        #expect(model.timeline.selection == 4)
        model.send(.home)
        #expect(model.timeline.selection == 0)
        model.type("G")
        #expect(model.timeline.selection == 5)
        model.type("g")
        model.send(.pageDown)
        #expect(model.timeline.selection == 5)
        model.send(.pageUp)
        #expect(model.timeline.selection == 0)
        model.send(.down)
        model.send(.down)
        model.send(.up)
        #expect(model.timeline.selection == 1)
        model.type(":3")
        #expect(model.screenText.hasSuffix(":3█"))
        model.type("\n")
        #expect(model.timeline.selection == 2)
        #expect(model.screenText.contains("entry 3/6"))
        model.type(":99\n")
        #expect(model.screenText.hasSuffix("Entry 99 is past the end: showing the last, 6"))
        #expect(model.timeline.selection == 5)
    }

    @Test func treeNodesCollapseAndExpandWithEnterArrowsAndHL() {
        var model = InspectorFixtures.model()
        model.type("\t")            // focus the state pane
        model.type("jj")            // cursor on "user"
        #expect(model.cursorRow?.path.description == "/user")
        model.type("l")
        #expect(model.stateLines(4) == [
            "   todos: []",
            "   filter: \"all\"",
            " ▾ user {2}",
            "     name: \"Ada\"",
        ])
        model.send(.right)          // already open: moves into the first child
        #expect(model.cursorRow?.path.description == "/user/name")
        model.send(.left)           // on a leaf: back to the parent
        #expect(model.cursorRow?.path.description == "/user")
        model.send(.enter)
        #expect(model.stateLines(3).last == " ▸ user {name, email}")
        model.type(" ")
        #expect(model.stateLines(3).last == " ▾ user {2}")
        model.type("h")
        #expect(model.stateLines(3).last == " ▸ user {name, email}")
    }

    @Test func focusCyclesThroughPanesWithTab() {
        var model = InspectorFixtures.model()
        #expect(model.panes.focus == .timeline)
        model.type("\t")
        #expect(model.panes.focus == .state)
        model.type("\t")
        #expect(model.panes.focus == .diff)
        #expect(model.screenText.contains("entry 1/6  │  diff"))
        model.send(.backTab)
        #expect(model.panes.focus == .state)
    }

    @Test func timelineSearchFindsActionNamesAndPayloadsWithNextAndPrevious() {
        var model = InspectorFixtures.model()
        model.type("/Write")
        #expect(model.screenText.hasSuffix("/Write█"))
        model.type("\n")
        #expect(model.timeline.selection == 2)               // payload "Write tests"
        model.type("/todo\n")
        #expect(model.timeline.selection == 3)               // next action name containing "todo"
        model.type("n")
        #expect(model.timeline.selection == 1)               // wrapped around
        #expect(model.screenText.hasSuffix("Search wrapped around"))
        model.type("N")
        #expect(model.timeline.selection == 3)
        model.type("/nothing-like-this\n")
        #expect(model.timeline.selection == 3)
        #expect(model.screenText.hasSuffix("No action matches \"nothing-like-this\" (states: :find, or Tab then /)"))
    }

    @Test func stateSearchFindsKeysAndValuesAndOpensTheirParents() {
        var model = InspectorFixtures.model()
        model.type("\t/ada@\n")
        #expect(model.cursorRow?.path.description == "/user/email")
        #expect(model.stateLines(5) == [
            "   todos: []",
            "   filter: \"all\"",
            " ▾ user {2}",
            "     name: \"Ada\"",
            "     email: \"ada@example.com\"",
        ])
        model.type("/filter\n")
        #expect(model.cursorRow?.path.description == "/filter")
    }

    @Test func filterPickerRestrictsTheTimelineAndFClears() {
        var model = InspectorFixtures.model()
        model.type("f")
        let screen = model.screenText
        #expect(screen.contains("┌ Filter by action type (type to narrow, Space picks, Tab/S-Tab hide)"))
        #expect(screen.contains("│ app/launch  (1)"))
        #expect(screen.contains("│ todo/add  (2)"))
        for _ in 0..<3 { model.send(.down) }   // app/launch, filter/set, sync/loaded, todo/add
        model.type("\n")
        #expect(model.screenText.split(separator: "\n").prefix(4).joined(separator: "\n") == """
             Timeline  2/6 "todo/add"        ▄▅▇▇▇█ │ State after 2
               2  +0.500s   todo/add title: "Bu… ±1 │●▾ todos [1]
               3  +1.250s   todo/add title: "Wr… ±1 │●  ▸ 0 {title, done}
                                                    │   filter: "all"
            """)
        #expect(model.timeline.selection == 1)
        model.type("j")
        #expect(model.timeline.selection == 2)
        model.type("j")
        #expect(model.timeline.selection == 2)   // last filtered entry
        model.type("f")
        #expect(model.timeline.filter == nil)
        #expect(model.screenText.hasSuffix("Filter \"todo/add\" cleared"))
        #expect(model.screenText.contains("Timeline  6 entries"))
    }

    @Test func thePickerNarrowsAsYouTypePicksSeveralAndHidesTypesEverywhere() {
        var model = InspectorFixtures.model()
        model.type("fto")                                   // narrows to todo/add, todo/toggle
        #expect(model.screenText.contains("┌ Filter by action type matching \"to\""))
        #expect(model.screenText.contains("│ todo/add  (2)") && model.screenText.contains("│ todo/toggle  (1)"))
        #expect(!model.screenText.contains("│ app/launch"))
        model.type(" ")                                     // picks todo/add
        model.send(.down)
        model.type(" \n")                                   // and todo/toggle: both shown
        #expect(model.screenText.contains(" Timeline  3/6 \"todo/add + todo/toggle\""))
        #expect(model.timeline.filter?.entries == [1, 2, 3])

        model.type("f")                                     // clears the picked types
        #expect(model.timeline.filter == nil)
        model.type("fsync")
        let effects = model.send(.tab)                      // hides sync/loaded everywhere, saved for the project
        #expect(effects == [.saveHiddenActionTypes(["sync/loaded"])])
        #expect(model.screenText.contains("│ sync/loaded  (1)  hidden"))
        model.send(.escape)
        #expect(model.screenText.contains(" Timeline  5/6  1 hidden"))   // over every entry, not a window of them
        #expect(!model.screenText.contains("sync/loaded count"))
        #expect(model.screenText.contains("filter: hiding sync/loaded"))
    }

    @Test func aSavedHideListAppliesFromTheStart() throws {
        let folder = TemporaryDirectory()
        let directory = folder.path
        try HiddenActionTypes.save(["todo/add", "filter/set"], directory: directory)
        #expect(try String(contentsOfFile: directory + "/.rewind/hidden-actions", encoding: .utf8) == "todo/add\nfilter/set\n")
        var terminal = ScriptedTerminal(events: [.tick, .tick])
        _ = InspectorSession.run(source: InspectorFixtures.todoTimeline(), terminal: &terminal,
                                 hiddenActionTypes: HiddenActionTypes.load(directory: directory))
        #expect(terminal.frames.last?.plainText.contains(" Timeline  3/6  2 hidden") == true)
    }

    @Test func markAndDiffComparesAnyTwoEntries() {
        var model = InspectorFixtures.model()
        model.type("jm")
        #expect(model.screenText.contains("*  2  +0.500s"))
        model.type("jjjd")
        let lines = model.screenText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0].hasSuffix("│ State after 5  (vs mark 2)"))
        #expect(lines[11].hasSuffix("│ Diff  2 → 5"))
        #expect(lines[12].hasSuffix("│ @ /todos/0/done"))
        // The same style as an action's diff: a path per change, its old and new value.
        #expect(model.view.diffLines.map(DiffFormatting.plainText) == [
            "@ /todos/0/done", "- false", "+ true",
            "@ /todos/1", "+ {", "+   \"title\": \"Write tests\",", "+   \"done\": false", "+ }",
            "@ /filter", "- \"all\"", "+ \"active\"",
        ])
        model.type("d")
        #expect(model.screenText.contains("│ Diff  4 → 5"))
        model.type("d")
        model.type("\u{1b}")            // Esc leaves the comparison too
        #expect(model.timeline.comparingWithMark == false)
    }

    @Test func diffingAnEntryAgainstItsOwnMarkSaysNoDifferences() {
        var model = InspectorFixtures.model()
        model.type("jjjmd")
        #expect(model.timeline.comparingWithMark)
        #expect(model.view.diffLines.isEmpty)
        #expect(model.screenText.contains("│ Diff  4 → 4"))
        #expect(model.screenText.contains("│ (no differences: same entry)"))
        #expect(!model.screenText.contains("@ /todos/0/done"))
    }

    @Test func pathHistoryListsEntriesThatChangedANodeAndJumpsThroughThem() {
        var model = InspectorFixtures.model()
        model.type("G\t")                // last entry: the cursor waits on the node it changed
        #expect(model.cursorRow?.path.description == "/todos/2")
        model.type("h")                  // a closed node: h goes to its parent
        #expect(model.cursorRow?.path.description == "/todos")
        model.type("w")
        let screen = model.screenText
        // Each row: the action, then old → new cut around their first difference, so what changed shows.
        #expect(screen.split(separator: "\n")[1...6].joined(separator: "\n") == """
               1┌ History of /todos — 4 changes (j/k jump, v view, ←/→, Esc) ──────────┐
               2│      2  +0.500s  todo/add            [] → [{"title":"Bu…             │
               3│      3  +1.250s  todo/add            …lse}] → …lse},{"title…         │
               4│      4  +2.000s  todo/toggle         …ne":false},{… → …ne":true},{"… │
               5│      6  +4.125s  sync/loaded         …lse}] → …lse},{"title…         │
               6└──────────────────────────────────────────────────────────────────────┘
            """)
        model.type("k")
        #expect(model.timeline.selection == 3)   // moving in the list moves the selection behind it
        model.type("k")
        #expect(model.timeline.selection == 2)
        model.type("\n")
        #expect(model.overlays.overlay == nil)
        #expect(model.timeline.selection == 2)
        #expect(model.cursorRow?.path.description == "/todos", "the cursor stays on the value watched")
    }

    @Test func exportAsksForAMarkdownFileWithTheDiff() throws {
        var model = InspectorFixtures.model()
        model.type("jjj")
        let effects = model.send(.character("e"))
        #expect(effects == [.exportDiff(.entry(3), suggestedName: "todo-diff-3-4.md")])
        // What the effect runner writes: the same report as `rewind export --from 4 --to 4` (Tests/InspectorTests/Export*).
        #expect(try DiffExport.entry(3).markdown(from: model.source) == """
            # Rewind report: todo.jsonl

            - **Log:** `todo.jsonl`, entry 4 of 6
            - **Time:** +2.000 s
            - **Entries:** 1

            ## Actions

            1. `todo/toggle` `{"index":0}` — entry 4, +2.000 s

            ## Changes

            ### 1. `todo/toggle` (entry 4)

            Payload: `{"index":0}`

            ```diff
              {
                "todos": [
                  {
                    … (1 unchanged)
            -       "done": false
            +       "done": true
                  }
                  … (1 unchanged: 1)
                ]
                … (2 unchanged)
              }
            ```

            ## Final state after entry 4

            ```json
            {
              "todos": [
                {
                  "title": "Buy milk",
                  "done": true
                },
                {
                  "title": "Write tests",
                  "done": false
                }
              ],
              "filter": "all",
              "user": {
                "name": "Ada",
                "email": "ada@example.com"
              }
            }
            ```

            """)
        #expect(model.screenText.contains("│  exporting… building the report"))
        #expect(model.screenText.hasSuffix("Exporting the diff… (Esc cancels)"))
        reduce(&model, .exportStarted(path: "/tmp/todo-diff-3-4.md"))     // where it goes is said before it is written
        #expect(model.screenText.hasSuffix("Exporting the diff to /tmp/todo-diff-3-4.md… (Esc cancels)"))
        reduce(&model, .exportProgress(fraction: 0.5))
        #expect(model.screenText.contains("│  exporting… 50%"))
        reduce(&model, .exportFinished(path: "/tmp/todo-diff-3-4.md"))
        #expect(!model.screenText.contains("exporting…"))
        #expect(model.screenText.hasSuffix("Exported the diff to /tmp/todo-diff-3-4.md  (Esc dismisses)"))
        model.type("jk")                                   // the notice stays while you go on working
        #expect(model.screenText.hasSuffix("Exported the diff to /tmp/todo-diff-3-4.md  (Esc dismisses)"))
        model.type("\u{1b}")
        #expect(!model.screenText.contains("Exported"))
    }

    @Test func followModePicksUpAppendedEntriesAndSelectsTheNewest() {
        let timeline = InspectorFixtures.todoTimeline()
        var model = InspectorFixtures.model(timeline)
        model.type("F")
        #expect(model.timeline.selection == 5)
        #expect(model.screenText.contains("│  FOLLOW"))
        timeline.pending = [.init("clock/tick", state: ["todos": [], "filter": "all", "user": ["name": "Ada", "email": "ada@example.com"]], at: 9)]
        reduce(&model, .tick)
        #expect(model.timeline.count == 7)
        #expect(model.timeline.selection == 6)
        #expect(model.screenText.contains("   7  +9.000s   clock/tick"))
        model.type("F")
        timeline.pending = [.init("clock/tick", state: [:], at: 10)]
        reduce(&model, .tick)
        #expect(model.timeline.count == 7)       // not following: the file is not re-read, the selection stays
        #expect(model.timeline.selection == 6)
        model.type("F")
        #expect(model.timeline.count == 8)
        #expect(model.timeline.selection == 7)
    }

    @Test func scrollingUpPausesFollowingAndFOrGResumes() {
        let timeline = InspectorFixtures.todoTimeline()
        var model = InspectorFixtures.model(timeline)
        let tick = InMemoryTimeline.Step("clock/tick", state: ["todos": [], "filter": "all", "user": ["name": "Ada", "email": "ada@example.com"]], at: 9)
        model.type("F")
        model.type("k")                                   // looking back: following pauses
        #expect(model.timeline.selection == 4)
        #expect(model.timeline.followPaused)
        #expect(model.screenText.contains(" todo.jsonl  │  entry 5/6  │  timeline  │  FOLLOW paused (F/G resumes)"))
        #expect(model.screenText.hasSuffix("Follow paused: new entries are counted, the selection stays (F or G resumes)"))
        timeline.pending = [tick]
        reduce(&model, .tick)
        #expect(model.timeline.count == 7)                         // still read…
        #expect(model.timeline.selection == 4)                     // …but the selection stays where the user looks
        #expect(model.screenText.contains("entry 5/7"))
        model.type("G")                                   // G resumes: the newest entry, following again
        #expect(model.timeline.selection == 6 && !model.timeline.followPaused && model.timeline.follow)
        #expect(model.screenText.contains("│  FOLLOW\n") || model.screenText.contains("│  FOLLOW "))
        timeline.pending = [tick]
        reduce(&model, .tick)
        #expect(model.timeline.selection == 7)
        model.send(.pageUp)                               // any way of moving up pauses
        #expect(model.timeline.followPaused)
        model.type("F")                                   // F resumes too
        #expect(model.timeline.selection == 7 && !model.timeline.followPaused && model.timeline.follow)
        model.type("F")                                   // and F while following turns it off
        #expect(!model.timeline.follow)
    }

    @Test func enterOnALeafOpensAScrollableViewerWithTheWholeValueWrapped() {
        let words = (1...60).map { "word\($0)" }.joined(separator: " ")
        let timeline = InMemoryTimeline(name: "notes.jsonl", steps: [
            .init("note/set", state: ["note": .string("first line\n" + words), "n": 1]),
        ])
        var model = InspectorFixtures.model(timeline)
        model.type("\t")
        #expect(model.cursorRow?.path.description == "/note")
        model.send(.enter)
        let screen = model.screenText
        #expect(screen.contains("┌ Value at /note — 2 lines (j/k scroll, Esc closes)"), "\(screen)")
        #expect(screen.contains("│ first line  "))
        #expect(screen.contains("│ word1 word2 word3 word4 word5 word6 word7 word8 word9 word10 word11  "))
        #expect(screen.contains("│ word12 word13"))
        #expect(screen.contains(" word60 "))
        model.type("j")                                    // scrolls when it does not fit
        guard case .value(let viewer) = model.overlays.overlay else { Issue.record("no viewer"); return }
        #expect(viewer.top == ValueViewer.Position(line: 0, row: 0))   // 7 rows fit in the box: nothing to scroll
        model.type("\u{1b}")
        #expect(model.overlays.overlay == nil)
        model.type("jv")                                   // v on any node: the whole subtree as JSON
        #expect(model.screenText.contains("┌ Value at /n — 1 line"))
    }

    @Test func searchUnderlinesMatchesCountsThemAndAnEmptySearchRepeats() {
        var model = InspectorFixtures.model()
        model.type("\t/ada\n")                           // the state pane: user/name "Ada", user/email "ada@…"
        #expect(model.cursorRow?.path.description == "/user/name")
        #expect(model.screenText.contains("│  state  │  match 1/2"))
        let screen = render(model, size: model.size)
        let row = (0..<24).first { screen.line($0).contains("name: \"Ada\"") }!
        let column = screen.line(row).distance(from: screen.line(row).startIndex, to: screen.line(row).range(of: "Ada")!.lowerBound)
        #expect(screen[row, column].style.underline && screen[row, column + 2].style.underline)
        #expect(!screen[row, column - 2].style.underline)
        model.type("/\n")                                // empty: the last search again
        #expect(model.cursorRow?.path.description == "/user/email")
        #expect(model.screenText.contains("│  match 2/2"))
        model.type("\u{1b}")                              // Esc: highlights and the count go
        #expect(!render(model, size: model.size)[row, column].style.underline)
        #expect(!model.screenText.contains("match"))

        model.type("\t\tgjjj\t\t/true\n")             // the diff pane of entry 4: where it matched
        #expect(model.panes.focus == .diff)
        #expect(model.screenText.contains("│▶+ true"))
        #expect(model.screenText.contains("│  diff  │  match 1/1"))
    }

    @Test func aTimelineSearchCountsItsMatches() {
        var model = InspectorFixtures.model()
        model.type("/todo\n")                             // todo/add, todo/add, todo/toggle
        #expect(model.timeline.selection == 1)
        #expect(model.screenText.contains("│  timeline  │  match 1/3"))
        model.type("n")
        #expect(model.screenText.contains("│  match 2/3"))
        model.type("j")                                   // off the match: no stale count
        #expect(!model.screenText.contains("match"))

        var sliced = EntryScanTests.model()               // 100 entries, 20 per event
        sliced.type("/reset\n")
        while sliced.scans.timelineSearch != nil { reduce(&sliced, .tick) }
        #expect(sliced.timeline.selection == 37)
        #expect(sliced.hasPendingScan)                    // the count goes on in slices
        #expect(sliced.screenText.contains("│  match …/… (counting 3%)"))   // the rows before the match not yet counted
        while sliced.hasPendingScan { reduce(&sliced, .tick) }
        #expect(sliced.screenText.contains("│  match 1/2"))
    }

    @Test func mouseClickSelectsRowsAndTheWheelScrolls() {
        var model = InspectorFixtures.model()
        reduce(&model, .mouse(MouseEvent(kind: .press, column: 5, row: 3)))
        #expect(model.timeline.selection == 2)
        reduce(&model, .mouse(MouseEvent(kind: .wheelDown, column: 5, row: 3)))
        #expect(model.timeline.selection == 5)
        reduce(&model, .mouse(MouseEvent(kind: .wheelUp, column: 5, row: 3)))
        #expect(model.timeline.selection == 2)
        reduce(&model, .mouse(MouseEvent(kind: .press, column: 50, row: 2)))   // state pane, second row
        #expect(model.panes.focus == .state)
        #expect(model.panes.stateCursor == 1)
    }

    @Test func theSparklineShowsStateSizesAndMarksSlowReducers() {
        var steps: [InMemoryTimeline.Step] = []
        for index in 0..<8 {
            var step = InMemoryTimeline.Step("grow", state: .array(Array(repeating: .integer(1), count: index * 10 + 1)))
            step.duration = index == 5 ? 0.05 : 0.001
            steps.append(step)
        }
        var model = InspectorFixtures.model(InMemoryTimeline(name: "grow.jsonl", steps: steps))
        reduce(&model, .tick)                             // samples come in on events, a few at a time
        let title = model.screenText.split(separator: "\n")[0]
        #expect(title.hasPrefix(" Timeline  8 entries           ▁▂▃▄▅▆▇█ │"), "\(title)")
        let screen = render(model, size: model.size)
        #expect(screen[0, 36].style.foreground == .warning)   // entry 6's reducer took 50× the median
        #expect(screen[0, 35].style.foreground == .accent)
        model.type("<<<<<<<<")                            // a narrow timeline has no room for it
        #expect(!model.screenText.split(separator: "\n")[0].contains("▁"))
    }

    @Test func theDiffPaneMarksCutLinesAndScrollsSideways() {
        let long = String(repeating: "abcdefghij", count: 8)
        let timeline = InMemoryTimeline(name: "long.jsonl", steps: [
            .init("a", state: ["text": ""]), .init("b", state: ["text": .string(long)]),
        ])
        var model = InspectorFixtures.model(timeline)
        model.type("j\t\t")                              // entry 2, the diff pane
        let cut = model.screenText.split(separator: "\n").first { $0.contains("+ \"abc") }.map(String.init) ?? ""
        #expect(cut.hasSuffix("│ + \"abcdefghijabcdefghijabcdefghijabcd…"), "\(cut)")
        model.send(.right)
        let scrolled = model.screenText.split(separator: "\n").first { $0.contains("│ …") && $0.contains("ij") }.map(String.init) ?? ""
        #expect(scrolled.hasSuffix("│ …fghijabcdefghijabcdefghijabcdefghija…"), "\(scrolled)")
        model.send(.left)
        #expect(model.panes.diffLeft == 0)
    }

    @Test func clickingADisclosureTriangleTogglesTheNode() {
        var model = InspectorFixtures.model()
        #expect(model.screenText.contains("│ ▸ user {name, email}"))
        reduce(&model, .mouse(MouseEvent(kind: .press, column: 42, row: 3)))   // the ▸ of /user
        #expect(model.screenText.contains("│ ▾ user {2}"))
        #expect(model.screenText.contains("│     name: \"Ada\""))
        reduce(&model, .mouse(MouseEvent(kind: .press, column: 50, row: 3)))   // the key: selects, does not toggle
        #expect(model.screenText.contains("│ ▾ user {2}"))
        reduce(&model, .mouse(MouseEvent(kind: .press, column: 42, row: 3)))
        #expect(model.screenText.contains("│ ▸ user {name, email}"))
    }

    @Test func datePathsShowDatesTheBreadcrumbShowsThePathAndDeepTreesStayReadable() {
        var deep: JSONValue = ["leaf": 1]
        for level in (0..<10).reversed() { deep = .object(JSONObject([("l\(level)", deep)])) }
        let timeline = InMemoryTimeline(name: "dates.jsonl", steps: [
            .init("load", state: ["todos": [["title": "a", "created": 786_297_600.5]], "count": 786_297_600, "deep": deep]),
        ])
        timeline.datePaths = ["/todos/*/created"]
        var model = InspectorFixtures.model(timeline, columns: 100, rows: 30)
        model.type("\t")
        model.reveal(try! JSONPointer(parsing: "/todos/0/created"))
        let screen = model.screenText
        #expect(screen.contains("created: 2025-12-01T16:00:00.500Z"), "\(screen)")   // a Date: seconds since 2001
        #expect(screen.contains("count: 786297600"))                                  // not a date path: the number
        #expect(screen.contains(" State after 1  /todos/0/created"))                  // the breadcrumb
        let leaf = try! JSONPointer(parsing: "/deep/l0/l1/l2/l3/l4/l5/l6/l7/l8/l9/leaf")
        model.reveal(leaf)
        #expect(model.cursorRow?.path == leaf)
        let row = model.screenText.split(separator: "\n").first { $0.contains("leaf: 1") }.map(String.init) ?? ""
        #expect(row.contains("│               ⋯   leaf: 1"), "\(row)")          // indentation capped at 8 levels
    }

    @Test func theActionPaneShowsPayloadDurationAndCauseAndCJumpsToTheCauseAndBack() throws {
        let timeline = InspectorFixtures.todoTimeline()
        var model = InspectorFixtures.model(timeline)
        model.type("Gp")
        let screen = model.screenText
        #expect(screen.contains("│ Action 6  (p: back to the state)"))
        #expect(screen.contains("│ sync/loaded"))
        #expect(screen.contains("│ reducer time not recorded"))
        #expect(screen.contains("│ sent by an effect (c: cause)"))
        #expect(screen.contains("│ payload:"))
        #expect(screen.contains("│     count: 3"))
        model.type("c")
        #expect(model.timeline.selection == 4)
        #expect(model.screenText.hasSuffix("Entry 5 sent entry 6's action; b goes back"))
        #expect(model.screenText.contains("│ sent by the app (b: back)"))
        model.type("b")
        #expect(model.timeline.selection == 5)
        model.type("kc")
        #expect(model.screenText.hasSuffix("Entry 5's action was not sent by an effect"))
        model.type("p")
        #expect(model.screenText.contains("│ State after 5"))

        // A recorded log: the reducer's duration.
        let log = try LogTimeline(path: try LogFixture.todoLog())
        var recorded = InspectorFixtures.model(log)
        recorded.type("p")
        #expect(recorded.screenText.contains("│ reducer 1000 ns") || recorded.screenText.contains("│ reducer 1.0 µs"))
    }

    @Test func helpOverlayIsGeneratedFromTheKeyTable() {
        var model = InspectorFixtures.model(columns: 100, rows: 60)
        model.type("?")
        let screen = model.screenText
        for binding in KeyTable.bindings {
            // A description too long for the row goes on under its column.
            let firstRow = WrappedLine.wrap(binding.description, width: model.layout.overlay.width - 3 - 14)[0]
            #expect(screen.contains(binding.keyLabel.padded(toWidth: 14) + firstRow), "help lacks \(binding.description)")
        }
        model.type("\u{1b}")
        #expect(model.overlays.overlay == nil)
        #expect(!model.screenText.contains("Keys (Esc closes)"))
    }

    @Test func hintsComeFromTheKeyTableAndDependOnThePane() {
        var model = InspectorFixtures.model(columns: 160, rows: 24)
        func hintLine() -> String { model.screenText.split(separator: "\n").last.map(String.init) ?? "" }
        #expect(hintLine() == KeyTable.hints(for: .timeline, unavailable: model.unavailability(of:)).map { "\($0.key) \($0.label)" }.joined(separator: "  "))
        // Without a linked reducer the replay keys, which could only say so, are not hinted.
        #expect(hintLine() == "? help  q quit  : jump  Tab pane  / search  f filter  m mark  d diff  e export  F follow  p action  z zoom")
        model.type("\t")
        #expect(hintLine() == "? help  q quit  Tab pane  / search  w history  v view  y copy  p action  z zoom")
        model.type("\t")
        #expect(hintLine() == "? help  q quit  Tab pane  / search  d diff  e export  z zoom")
        // The replay keys are hinted only where a reducer is linked.
        #expect(KeyTable.hints(for: .timeline, unavailable: { _ in nil }).contains { $0.label == "replay" })
        #expect(!KeyTable.hints(for: .timeline, unavailable: model.unavailability(of:)).contains { $0.label == "replay" })
    }

    @Test func countsPagesAndHalfPagesMoveLikeLess() {
        var model = InspectorFixtures.model()
        model.type("3j")
        #expect(model.timeline.selection == 3)
        model.type("2k")
        #expect(model.timeline.selection == 1)
        model.type("5G")                                  // entry 5
        #expect(model.timeline.selection == 4)
        model.type("1g")
        #expect(model.timeline.selection == 0)
        model.send(.control("d"))                         // half of a 20-row page
        #expect(model.timeline.selection == 5)                     // (clamped at the last entry)
        model.send(.control("u"))
        #expect(model.timeline.selection == 0)
        model.send(.control("f"))
        #expect(model.timeline.selection == 5)
        model.send(.control("b"))
        #expect(model.timeline.selection == 0)
        #expect(model.send(.control("l")) == [.redraw])
    }

    @Test func colonZeroShowsTheInitialStateAndColonPastTheEndTheLast() {
        let timeline = InspectorFixtures.todoTimeline()
        timeline.initialState = ["todos": [], "filter": "none"]
        var model = InspectorFixtures.model(timeline)
        model.type(":0\n")
        #expect(model.screenText.contains("│ Initial state (before entry 1)"))
        #expect(model.screenText.contains("│   filter: \"none\""))
        #expect(model.screenText.contains("│ (the initial state: before any entry)"))
        model.type("j")                                   // the first step down is entry 1
        #expect(model.timeline.selection == 0)
        #expect(model.screenText.contains("│ State after 1"))
        model.type(":42\n")
        #expect(model.timeline.selection == 5)
        #expect(model.screenText.hasSuffix("Entry 42 is past the end: showing the last, 6"))
    }

    @Test func yCopiesTheValueOrPathAndUnknownKeysSaySoOnce() {
        var model = InspectorFixtures.model()
        model.type("G\t")                                // state pane, on /todos/2
        #expect(model.send(.character("y")) == [.copyToClipboard(#"{"title":"Sync done","done":false}"#)])
        // OSC 52 is never answered: the message says where it went, not that the clipboard has it.
        #expect(model.screenText.hasSuffix("Sent the value at /todos/2 (34 bytes) to the terminal's clipboard"))
        #expect(model.send(.character("Y")) == [.copyToClipboard("/todos/2")])
        model.type("\t")                                 // the diff pane: the diff on screen, as text
        #expect(model.send(.character("y")) == [.copyToClipboard("@ /todos/2\n+ {\n+   \"title\": \"Sync done\",\n+   \"done\": false\n+ }\n")])
        #expect(model.screenText.hasSuffix("Sent the diff's 5 lines (63 bytes) to the terminal's clipboard"))
        model.type("\t")                                 // the timeline: the action
        #expect(model.send(.character("y")) == [.copyToClipboard(#"{"type":"sync/loaded","payload":{"count":3}}"#)])
        model.type("Z")
        #expect(model.screenText.hasSuffix("Z does nothing here; ? lists the keys"))
        model.type("jZ")
        #expect(!model.screenText.contains("does nothing"))   // once per key
    }

    @Test func theSplitResizesPanesZoomAndNarrowTimelinesDropTheTimeFirst() {
        var model = InspectorFixtures.model()
        model.type(">>")
        #expect(model.screenText.split(separator: "\n")[1].hasPrefix("   1  +0.000s   app/launch"))
        #expect(model.layout.separatorColumn == 46)
        model.type("<<<<<<<<<<")
        #expect(model.layout.separatorColumn == 16)         // 20 %
        #expect(model.screenText.split(separator: "\n")[2].hasPrefix("   2   todo/"))      // no time column
        model.type("\tz")                                 // the state pane alone
        #expect(model.layout.state.width == 80)
        #expect(model.screenText.split(separator: "\n")[0].hasPrefix(" State after 1"))
        #expect(!model.screenText.contains("Timeline"))
        model.type("z")
        #expect(model.screenText.contains("Timeline"))
    }

    @Test func quitAndInterruptAskToLeave() {
        var model = InspectorFixtures.model()
        #expect(model.send(.character("q")) == [.quit])
        #expect(reduce(&model, .interrupt) == [.quit])
        model.type("/q")                 // inside a prompt, q is text
        #expect(model.overlays.prompt == .search("q"))
    }

    @Test func resizeRedrawsAtTheNewSizeAndTinyTerminalsSaySo() {
        var model = InspectorFixtures.model()
        reduce(&model, .resize(ScreenSize(columns: 120, rows: 30)))
        let lines = model.screenText.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 30)
        #expect(lines[0].hasPrefix(" Timeline  6 entries" + String(repeating: " ", count: 33) + "▄▅▇▇▇█ │ State after 1"))
        reduce(&model, .resize(ScreenSize(columns: 30, rows: 5)))
        #expect(model.screenText == "Terminal too small: need 40×8\nq quits\n\n\n")
    }

    @Test func damagedLogShowsDamageInStatusAndListsIt() {
        let timeline = InspectorFixtures.todoTimeline()
        timeline.damage = [DamagedRecord(line: 4, reason: "checksum mismatch")]
        timeline.tornTail = DamagedRecord(line: 9, reason: "incomplete final line (no newline)")
        var model = InspectorFixtures.model(timeline)
        // The torn last line is what a crash mid-write leaves: noted, not counted as damage.
        #expect(model.screenText.contains("timeline  │  last line torn (D)  ⚠ 1 damaged"))
        model.type("D")
        let screen = model.screenText
        #expect(screen.contains("│ line 4: checksum mismatch"))
        #expect(screen.contains("│ line 9: incomplete final line (no newline) (torn tail, ignored)"))
    }

    @Test func indexingProgressShowsInTheStatusBarUntilComplete() {
        let timeline = InspectorFixtures.todoTimeline()
        timeline.indexing = .scanning(fraction: 0.42)
        var model = InspectorFixtures.model(timeline)
        #expect(model.screenText.contains(" todo.jsonl  │  entry 1/6  │  timeline  │  indexing 42%"))
        timeline.indexing = .complete
        reduce(&model, .tick)
        #expect(!model.screenText.contains("indexing"))
    }

    /// A text's width is its characters' widths added up, whether it is printable ASCII (counted
    /// as bytes) or not: controls, a combining mark after ASCII, CRLF, wide and zero-width characters.
    @Test func aTextTakesTheCellsOfItsCharacters() {
        let texts = [#"{"id":1,"title":"Item 1"}"#, "", "tab\there", "line\r\nbreak", "e\u{301}", "a日b", "x\u{7f}y", "caf\u{e9}",
                     "a👨‍👩‍👧b", String(repeating: "ascii ", count: 1_000), "tail é"]
        for text in texts {
            #expect(TerminalWidth.of(text) == text.reduce(0) { $0 + TerminalWidth.of($1) }, "\(text.debugDescription)")
            #expect(TerminalWidth.of(text.dropFirst()) == text.dropFirst().reduce(0) { $0 + TerminalWidth.of($1) })
        }
        #expect(TerminalWidth.of(#"{"id":1}"#) == 8)
        #expect(TerminalWidth.of("e\u{301}") == 1)
    }

    /// The cells ncurses advances for each (its wcwidth per code point, zero-width ones joined to the cell before).
    @Test func emojiTakeTheCellsTheTerminalLibraryGivesThem() {
        #expect(TerminalWidth.of("🇯🇵" as Character) == 2)        // two regional indicators, one column each
        #expect(TerminalWidth.of("👨‍👩‍👧" as Character) == 6)        // a ZWJ family: three people side by side
        #expect(TerminalWidth.of("❤️" as Character) == 1)         // VS16 adds no column to the heart
        #expect(TerminalWidth.of("1️⃣" as Character) == 1)         // a keycap: the digit
        #expect(TerminalWidth.of("👍🏻" as Character) == 4)         // a skin tone modifier is a wide code point of its own
        #expect(TerminalWidth.of("日" as Character) == 2)
        #expect(TerminalWidth.of("é" as Character) == 1)

        var screen = ScreenBuffer(size: ScreenSize(columns: 20, rows: 1))
        let end = screen.write("a👨‍👩‍👧b🇯🇵c❤️d1️⃣e", row: 0, column: 0)
        #expect(end == 15)
        #expect(screen[0, 7].text == "b" && screen[0, 10].text == "c" && screen[0, 12].text == "d" && screen[0, 14].text == "e")
        #expect(screen.plainText == "a👨‍👩‍👧b🇯🇵c❤️d1️⃣e")
        // Drawing over the middle of the family blanks all of it, not just one cell.
        screen.write("x", row: 0, column: 3)
        #expect(screen.plainText == "a  x   b🇯🇵c❤️d1️⃣e")
    }

    @Test func wideCharactersTakeTwoCellsAndKeepColumnsAligned() {
        let timeline = InMemoryTimeline(name: "日本.jsonl", steps: [
            .init("greet", ["text": "こんにちは世界"], state: ["msg": "héllo 🎉"]),
        ])
        let model = InspectorFixtures.model(timeline)
        let lines = model.screenText.split(separator: "\n").map(String.init)
        #expect(lines[1] == "   1  +0.000s   greet text: \"こんに…  · │   msg: \"héllo 🎉\"")
        #expect(lines[22].hasPrefix(" 日本.jsonl  │  entry 1/1"))
    }

    @Test func emptyLogDrawsWithoutEntries() {
        var model = InspectorFixtures.model(InMemoryTimeline(steps: []))
        model.type("jGkf/x\n:1\n")
        #expect(model.screenText.contains("(no entries yet)"))
        #expect(model.screenText.contains("no entries"))
    }
}

extension InspectorModel {
    /// The first `count` rows of the state pane, without the pane border.
    func stateLines(_ count: Int) -> [String] {
        let area = layout.state
        let screen = render(self, size: size)
        return (area.row..<(area.row + count)).map { row in
            var text = ""
            for column in area.columns where !screen[row, column].isContinuation { text.append(screen[row, column].text) }
            while text.last == " " { text.removeLast() }
            return text
        }
    }
}
