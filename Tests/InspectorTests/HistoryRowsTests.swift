import Testing
import Recorder
@testable import Inspector

/// `w`'s rows show what changed (old → new around the first difference), scroll
/// sideways, open a row's value whole with `v`, and leave the state pane's cursor on
/// the value watched.
@Suite struct HistoryRowsTests {
    /// Each entry adds a todo (the changed list opens, so the rows below it move) and counts it in `/stats`.
    static func timeline() -> InMemoryTimeline {
        var steps: [InMemoryTimeline.Step] = []
        var todos: [JSONValue] = []
        for index in 0..<5 {
            todos.append(["title": .string("Todo number \(index) with a title long enough to be cut"), "isDone": false])
            steps.append(.init("todo/add", ["index": .integer(Int64(index))],
                               state: ["todos": .array(todos), "stats": ["count": .integer(Int64(todos.count)), "note": .string(String(repeating: "a", count: 60) + "\(index)" + String(repeating: "b", count: 140))], "filter": "all"],
                               at: Double(index)))
        }
        return InMemoryTimeline(name: "todos.jsonl", steps: steps)
    }

    static func model() throws -> InspectorModel {
        var model = InspectorFixtures.model(timeline())
        model.type("G\t")
        model.reveal(try JSONPointer(parsing: "/stats/note"))
        model.type("w")
        return model
    }

    @Test func enterOnARowKeepsTheCursorOnTheValueWatched() throws {
        var model = try Self.model()
        model.type("kk\n")                                 // entry 3: its list is shorter, /stats/note on another row
        #expect(model.timeline.selection == 2)
        #expect(model.cursorRow?.path.description == "/stats/note")
        // The wheel over the timeline moves the selection while the tree keeps the keys: the node stays too.
        reduce(&model, .mouse(MouseEvent(kind: .wheelDown, column: 5, row: 3)))
        #expect(model.timeline.selection == 4 && model.panes.focus == .state)
        #expect(model.cursorRow?.path.description == "/stats/note")
    }

    @Test func rowsScrollBothValuesSidewaysAndVShowsARowsValueThenComesBack() throws {
        var model = try Self.model()
        /// The history box, as drawn over the panes.
        func box() -> String { model.screenText.split(separator: "\n")[1...6].map { String($0.dropFirst(4)) }.joined(separator: "\n") }
        #expect(box() == """
            ┌ History of /stats/note — 4 changes (j/k jump, v view, ←/→, Esc) ─────┐
            │      2  +1.000s  todo/add            …aaaa0bbbbbbb… → …aaaa1bbbbbbb… │
            │      3  +2.000s  todo/add            …aaaa1bbbbbbb… → …aaaa2bbbbbbb… │
            │      4  +3.000s  todo/add            …aaaa2bbbbbbb… → …aaaa3bbbbbbb… │
            │      5  +4.000s  todo/add            …aaaa3bbbbbbb… → …aaaa4bbbbbbb… │
            └──────────────────────────────────────────────────────────────────────┘
            """)
        model.send(.right)                                 // both values of every row, further in together
        #expect(box().split(separator: "\n")[4] == "│      5  +4.000s  todo/add            …bbbbbbbbbbbb… → …bbbbbbbbbbbb… │")
        for _ in 0..<30 { model.send(.right) }             // no further than where the longer value ends
        #expect(box().split(separator: "\n")[4] == "│      5  +4.000s  todo/add            …bbbbbbbbbbbb\" → …bbbbbbbbbbbb\" │")
        for _ in 0..<30 { model.send(.left) }
        #expect(box().split(separator: "\n")[4] == "│      5  +4.000s  todo/add            …aaaa3bbbbbbb… → …aaaa4bbbbbbb… │")
        model.type("v")
        #expect(box().split(separator: "\n").prefix(5).joined(separator: "\n") == """
            ┌ Value at /stats/note after entry 5 — 1 line (j/k scroll, Esc closes) ┐
            │ aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa4bbbbbbbb│
            │ bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb│
            │ bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb      │
            └──────────────────────────────────────────────────────────────────────┘
            """)
        model.type("\u{1b}")                               // back to the history, not to the panes
        #expect(box().hasPrefix("┌ History of /stats/note — 4 changes"))
    }
}
