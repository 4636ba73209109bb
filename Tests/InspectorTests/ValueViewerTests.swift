import Testing
import Recorder
@testable import Inspector

/// The value viewer builds only the rows on screen: its lines, one at a time, are
/// exactly the pretty writer's, and keys move by rows over lines it never writes whole.
@Suite struct ValueViewerTests {
    static let values: [JSONValue] = [
        1, "text", [], [:], [[]], ["a": [:]],
        ["todos": [["title": "Buy milk", "done": true], ["title": "Write \"tests\"\n", "done": false, "tags": []]],
         "filter": "all", "user": ["name": "Ada", "emails": ["a@example.com", "b@example.com"], "nothing": .null],
         "é\u{301}": 1.5, "deep": [[[[1, [2, [3]]]]]]],
        .array((0..<600).map { index in index % 3 == 0 ? ["id": .integer(Int64(index)), "items": .array((0..<300).map { .integer($0) })] : .integer(Int64(index)) }),
    ]

    @Test func itsLinesAreThePrettyWritersLinesOneAtATime() {
        for value in Self.values {
            let expected = JSONWriter.prettyString(value).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            var lines = PrettyJSONLines(value)
            #expect(lines.count == expected.count)
            // In an order that leaves the caches half built: from the end, then every other line.
            let order = Array(expected.indices.reversed()) + expected.indices.filter { $0 % 2 == 0 }
            #expect(order.allSatisfy { lines.line($0) == expected[$0] }, "\(value)")
        }
    }

    /// A viewer on `value` laid out in a box `width` × `height`.
    static func viewer(_ value: JSONValue, width: Int = 20, height: Int = 4) -> ValueViewer {
        var viewer = ValueViewer(path: JSONPointer(), value: value)
        viewer.layout(width: width, height: height)
        return viewer
    }

    @Test func keysMoveByRowsAcrossWrappedLinesAndStopAtBothEnds() {
        // Line 1 wraps into three rows at 20 columns.
        var viewer = Self.viewer(["note": "one two three four five six seven eight", "n": 1])
        #expect(viewer.lineCount == 4)
        #expect(viewer.visibleRows == ["{", "  \"note\": \"one two", "  three four five", "  six seven eight\","])
        viewer.scroll(by: 2)
        #expect(viewer.visibleRows == ["  three four five", "  six seven eight\",", "  \"n\": 1", "}"])
        viewer.scroll(by: 1)                           // the last row is already at the bottom
        #expect(viewer.top == ValueViewer.Position(line: 1, row: 1))
        viewer.scroll(by: -2)                          // up across the start of a wrapped line
        #expect(viewer.top == ValueViewer.Position(line: 0, row: 0))
        viewer.scroll(by: -5)
        #expect(viewer.top == ValueViewer.Position(line: 0, row: 0))
        viewer.scrollToEnd()
        #expect(viewer.visibleRows.last == "}")
        viewer.layout(width: 40, height: 4)            // wider: fewer rows, and the last still at the bottom
        #expect(viewer.visibleRows == ["  \"note\": \"one two three four five six", "  seven eight\",", "  \"n\": 1", "}"])
    }

    @Test func aHugeArrayOpensAtItsStartAndEndIsItsLastLines() {
        let value = JSONValue.array((0..<100_000).map { ["id": .integer(Int64($0))] })
        var model = InspectorFixtures.model(InMemoryTimeline(name: "big.jsonl", steps: [.init("load", state: ["items": value])]))
        model.type("\tv")
        #expect(model.screenText == """
             Timeline  1 entry                    █ │ State after 1  /items
               1┌ Value at /items — 300002 lines (j/k scroll, Esc closes) ─────────────┐
                │ [                                                                    │
                │   {                                                                  │
                │     "id": 0                                                          │
                │   },                                                                 │
                │   {                                                                  │
                │     "id": 1                                                          │
                │   },                                                                 │
                │   {                                                                  │
                │     "id": 2                                                          │
                │   },                                                                 │
                │   {                                                                  │
                │     "id": 3                                                          │
                │   },                                                                 │
                │   {                                                                  │
                │     "id": 4                                                          │
                │   },                                                                 │
                │   {                                                                  │
                │     "id": 5                                                          │
                └─────────────────────────────────────────────── lines 1–18 of 300002 ─┘
                                                    │
             big.jsonl  │  entry 1/1  │  state
            Esc close  j/k line  Space/b page  g/G start/end
            """)
        model.type("G")
        #expect(model.screenText == """
             Timeline  1 entry                    █ │ State after 1  /items
               1┌ Value at /items — 300002 lines (j/k scroll, Esc closes) ─────────────┐
                │     "id": 99994                                                      │
                │   },                                                                 │
                │   {                                                                  │
                │     "id": 99995                                                      │
                │   },                                                                 │
                │   {                                                                  │
                │     "id": 99996                                                      │
                │   },                                                                 │
                │   {                                                                  │
                │     "id": 99997                                                      │
                │   },                                                                 │
                │   {                                                                  │
                │     "id": 99998                                                      │
                │   },                                                                 │
                │   {                                                                  │
                │     "id": 99999                                                      │
                │   }                                                                  │
                │ ]                                                                    │
                └────────────────────────────────────── lines 299985–300002 of 300002 ─┘
                                                    │
             big.jsonl  │  entry 1/1  │  state
            Esc close  j/k line  Space/b page  g/G start/end
            """)
        /// The box's bottom edge, which says which lines are on screen.
        func bottomEdge() -> Substring { model.screenText.split(separator: "\n")[20] }
        model.type(" ")                                  // Space pages down: already at the end
        #expect(bottomEdge().hasSuffix("─ lines 299985–300002 of 300002 ─┘"))
        model.type("b")                                  // b pages up a page less a row, as in less
        #expect(bottomEdge().hasSuffix("─ lines 299968–299985 of 300002 ─┘"))
        model.type("g ")                                 // from the start, Space pages down
        #expect(bottomEdge().hasSuffix("─ lines 18–35 of 300002 ─┘"))
        model.type("q")                                  // q closes the viewer, not the inspector
        #expect(model.overlays.overlay == nil)
    }

    @Test func aHugeLineOfOneWordIsCutIntoRowsWithoutWrappingWhatComesFirst() {
        let blob = String(repeating: "abcdefghij", count: WrappedLine.wordWrapLimit / 10 + 10)
        var viewer = Self.viewer(.string(blob), width: 30, height: 3)
        #expect(viewer.lineCount == 1)
        #expect(viewer.visibleRows == Array(repeating: "abcdefghijabcdefghijabcdefghij", count: 3))
        viewer.scrollToEnd()
        let rows = (blob.utf8.count + 29) / 30
        #expect(viewer.top == ValueViewer.Position(line: 0, row: rows - 3))
        #expect(viewer.visibleRows.last == String(blob.suffix(blob.utf8.count % 30 == 0 ? 30 : blob.utf8.count % 30)))
    }

    @Test func aStringsOwnLineBreaksStartItsLines() {
        let viewer = Self.viewer("first\nsecond line is long\n\nlast", width: 12, height: 8)
        #expect(viewer.lineCount == 4)
        #expect(viewer.visibleRows == ["first", "second line", "is long", "", "last"])
    }
}
