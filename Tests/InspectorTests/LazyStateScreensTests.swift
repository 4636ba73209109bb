import Testing
import Recorder
@testable import Inspector

/// The state pane, the diff, the changed paths and `y` show a state the reader holds lazily
/// (its keyframe's bytes, big containers as their children's nodes) exactly as they show it
/// held whole, on logs today's recorder writes.
@Suite struct LazyStateScreensTests {
    /// Every keyframe held lazily, its containers over 256 bytes as nodes: what a 30 MB state
    /// gets, on states small enough for a test.
    static let lazyStates = LazyStates(keyframeBytes: 0, containerBytes: 256)

    static func lazy(_ value: JSONValue) -> JSONNode {
        let bytes = JSONWriter.compact(value)
        return try! JSONNode.reading(bytes, 0..<bytes.count, containersOver: 64)
    }

    /// The same keys pressed on the log opened as the inspector opens it and opened with its
    /// states lazy: the same screens and the same effects (`y`'s text) after each key.
    private static func expectSameScreens(_ log: String, keys: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        var whole = InspectorFixtures.model(try LogTimeline(path: log), columns: 120, rows: 40)
        var lazy = InspectorFixtures.model(try LogTimeline(path: log, lazyStates: lazyStates), columns: 120, rows: 40)
        #expect(lazy.view.state?.unparsedBytes ?? 0 > 0, "the lazy log's state is held as bytes", sourceLocation: sourceLocation)
        #expect(lazy.screenText == whole.screenText, "first screen", sourceLocation: sourceLocation)
        for (position, typed) in keys.enumerated() {
            var wholeEffects: [InspectorEffect] = []
            var lazyEffects: [InspectorEffect] = []
            for character in typed {
                let key: Key = switch character {
                case "\n": .enter
                case "\t": .tab
                case "\u{1b}": .escape
                default: .character(character)
                }
                wholeEffects += whole.send(key)
                lazyEffects += lazy.send(key)
            }
            #expect(lazyEffects == wholeEffects, "after \(position): \(typed.debugDescription)", sourceLocation: sourceLocation)
            #expect(lazy.screenText == whole.screenText, "after \(position): \(typed.debugDescription)", sourceLocation: sourceLocation)
        }
    }

    @Test func aListLoadedWholeThenEditedShowsTheSameScreens() throws {
        let log = try StreamedExportTests.shelfLog(items: 3_000)
        try Self.expectSameScreens(log, keys: [
            "", "\t", "l", "j", "l", "jjj", "y", "Y", "h", "\t", "y", "\t",   // the tree, y on a node, the diff's y
            "j", "\t", "y", "\t\t", "j", "G", "k", "g", ":1\n",                 // the edits: the cursor follows the changed node
            "m", "G", "d", "\t\t", "y", "d", ":0\n", "C",
        ])
    }

    @Test func patchesOverALazyKeyframeShowTheSameScreens() throws {
        // Keyframes every third entry: the states between are patched over the lazy keyframe.
        let log = try LogFixture.todoLog(keyframeInterval: 3)
        try Self.expectSameScreens(log, keys: ["", "j", "j", "\t", "l", "j", "y", "E", "\t", "y", "\t", "j", "j", "j", "k", "m", "gg", "d", "\t\t", "y"])
    }

    @Test func theTreeAndItsRowsReadFromALazyNodeAreTheTreesRows() {
        let state: JSONValue = ["items": .array((0..<400).map { ["id": .integer(Int64($0)), "tags": $0 % 3 == 0 ? ["a", "b"] : [], "o": ["k": .integer(Int64($0))]] }),
                                "empty": [:], "n": 1.5, "s": "text"]
        let (tree, lazy) = (JSONNode(state), Self.lazy(state))
        #expect(lazy.unparsedBytes > 0)
        let open = TreeExpansion(open: ["/items", "/items/3", "/items/3/tags", "/items/399", "/items/399/o", "/empty"].map { try! JSONPointer(parsing: $0) })
        #expect(StateTree.rowCount(of: lazy, expansion: open) == StateTree.rowCount(of: tree, expansion: open))
        let count = StateTree.rowCount(of: tree, expansion: open)
        for start in stride(from: 0, to: count, by: 37) {
            let rows = StateTree.rows(of: tree, expansion: open, in: start..<(start + 40))
            let lazyRows = StateTree.rows(of: lazy, expansion: open, in: start..<(start + 40))
            #expect(lazyRows.map(\.path) == rows.map(\.path))
            #expect(lazyRows.map { ValueFormatting.nodeSummary($0.node, expanded: $0.isExpanded) } == rows.map { ValueFormatting.nodeSummary($0.node, expanded: $0.isExpanded) })
            for row in rows { #expect(StateTree.rowIndex(of: row.path, in: lazy, expansion: open) == StateTree.rowIndex(of: row.path, in: tree, expansion: open)) }
        }
        #expect(PathSuggestion.allPaths(of: lazy) == PathSuggestion.allPaths(of: tree))
        #expect(InspectorModel.exceedsClipboard(lazy) == InspectorModel.exceedsClipboard(tree))
        #expect(InspectorModel.exceedsClipboard(lazy[pointer: try! JSONPointer(parsing: "/items/7")]!) == false)
    }

    @Test func theDiffOfALazyStateReadAPrefixAtATimeIsTheWholeTreesDiff() {
        let items: JSONValue = .array((0..<(DiffLines.treeLineLimit + 50)).map { ["id": .integer(Int64($0)), "title": .string("item \($0)")] })
        let before: JSONValue = ["items": [], "n": 1, "o": ["a": [1, 2], "b": "x"]]
        let after: JSONValue = ["items": items, "n": 2, "o": ["a": [1, 3], "b": "x"], "added": items]
        for paths in [["/items"], [""], ["/o", "/n"], ["/added"], ["/items/5"]] {
            let pointers = paths.map { try! JSONPointer(parsing: $0) }
            let whole = DiffLines.lines(from: JSONNode(before), to: JSONNode(after), changedPaths: pointers)
            // A budget of 1 kB: every big value here is read a prefix at a time, from the bytes.
            let lazy = DiffLines.lines(from: Self.lazy(before), to: Self.lazy(after), changedPaths: pointers, wholeValueBudget: 1 << 10)
            #expect(lazy == whole, "\(paths)")
        }
        #expect(ChangedPaths.resolvingAppends([try! JSONPointer(parsing: "/items/-")], in: Self.lazy(after)).map(\.description) == ["/items/10049"])
    }
}
