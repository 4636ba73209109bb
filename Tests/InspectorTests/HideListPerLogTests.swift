import Foundation
import Testing
import Recorder
@testable import Inspector

/// A hide-list for one log file (Shift-Tab in the `f` picker), kept next to the project's.
@Suite struct HideListPerLogTests {
    static func keys(_ text: String) -> [InspectorEvent?] {
        text.map { character in
            switch character {
            case "\u{1b}": .key(.escape)
            case "⇤": .key(.backTab)
            default: .key(.character(character))
            }
        }
    }

    @Test func shiftTabHidesATypeInThisLogOnlyAndItStaysHiddenWhenTheLogIsOpenedAgain() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-hide-log-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let log = HiddenActionTypes.key(forLogAt: "/logs/./todo.jsonl")
        #expect(log == "/logs/todo.jsonl")

        var first = ScriptedTerminal(events: Self.keys("fsync⇤\u{1b}"))
        _ = InspectorSession.run(source: InspectorFixtures.todoTimeline(), terminal: &first, hiddenActionTypes: [],
                                 hideListLog: log, hideListDirectory: directory)
        #expect(first.frames.dropLast().last?.plainText.contains("│ sync/loaded  (1)  hidden (this log)") == true)
        #expect(try String(contentsOfFile: directory + "/.rewind/hidden-actions-by-log", encoding: .utf8) == "/logs/todo.jsonl\tsync/loaded\n")
        // Not the project's list: other logs still show the type.
        #expect(!FileManager.default.fileExists(atPath: directory + "/.rewind/hidden-actions"))

        // The same log again: hidden from the start, over every entry.
        var again = ScriptedTerminal(events: [.tick])
        _ = InspectorSession.run(source: InspectorFixtures.todoTimeline(), terminal: &again, hiddenActionTypes: [],
                                 hideListLog: log, hideListDirectory: directory)
        #expect(again.frames.last?.plainText == """
             Timeline  5/6  1 hidden         ▄▅▇▇▇█ │ State after 1
               1  +0.000s   app/launch            · │   todos: []
               2  +0.500s   todo/add title: "Bu… ±1 │   filter: "all"
               3  +1.250s   todo/add title: "Wr… ±1 │ ▸ user {name, email}
               4  +2.000s   todo/toggle index: 0 ±1 │
               5  +3.500s   filter/set filter: … ±1 │
                                                    │
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
             todo.jsonl  │  entry 1/6  │  timeline  │  filter: hiding sync/loaded
            Showing 5 entries (hiding sync/loaded); f clears the filter
            """)

        // Another log keeps every type; its own list is saved beside the first one's.
        var other = ScriptedTerminal(events: Self.keys("fapp⇤\u{1b}"))
        _ = InspectorSession.run(source: InspectorFixtures.todoTimeline(), terminal: &other, hiddenActionTypes: [],
                                 hideListLog: "/logs/other.jsonl", hideListDirectory: directory)
        #expect(other.frames.first?.plainText.contains(" Timeline  6 entries") == true)
        #expect(try String(contentsOfFile: directory + "/.rewind/hidden-actions-by-log", encoding: .utf8)
                == "/logs/todo.jsonl\tsync/loaded\n/logs/other.jsonl\tapp/launch\n")

        // Shift-Tab again unhides it, for that log only.
        var unhide = ScriptedTerminal(events: Self.keys("fsync⇤\u{1b}"))
        _ = InspectorSession.run(source: InspectorFixtures.todoTimeline(), terminal: &unhide, hiddenActionTypes: [],
                                 hideListLog: log, hideListDirectory: directory)
        #expect(unhide.frames.last?.plainText.contains(" Timeline  6 entries") == true)
        #expect(HiddenActionTypes.load(forLog: log, directory: directory) == [])
        #expect(HiddenActionTypes.load(forLog: "/logs/other.jsonl", directory: directory) == ["app/launch"])
    }

    @Test func aLogWithoutAFileSaysTabHidesForTheProject() {
        var model = InspectorFixtures.model(columns: 120)
        model.type("fsync")
        #expect(model.send(.backTab) == [])
        #expect(model.screenText.hasSuffix("This log has no file to keep a hide-list for: Tab hides for the project"))
        #expect(model.screenText.contains("Space picks, Tab/S-Tab hide)"))
    }
}
