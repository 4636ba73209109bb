import Testing
import Recorder
@testable import Inspector

/// The diff pane's lines read from a huge side a prefix at a time are the lines of the
/// whole values, cut line included. A budget of 0 makes every node count as huge, so
/// states held whole exercise the prefix reading against the whole values' diff.
@Suite struct DiffOperandsTests {
    private static func pointers(_ paths: [String]) -> [JSONPointer] { paths.map { try! JSONPointer(parsing: $0) } }

    /// The lines read whole (the default budget, for states in memory) and a prefix at a time (budget 0).
    private static func bothWays(_ old: JSONValue?, _ new: JSONValue?, _ paths: [String]) -> (whole: [String], prefix: [String]) {
        let (before, after) = (old.map(JSONNode.init), new.map(JSONNode.init))
        let whole = DiffLines.lines(from: before, to: after, changedPaths: pointers(paths))
        let prefix = DiffLines.lines(from: before, to: after, changedPaths: pointers(paths), wholeValueBudget: 0)
        return (whole.map(DiffFormatting.plainText), prefix.map(DiffFormatting.plainText))
    }

    private static func item(_ index: Int) -> JSONValue {
        ["id": .integer(Int64(index)), "title": .string("item \(index)"), "tags": ["a", "b"], "meta": ["done": .bool(index % 2 == 0)]]
    }

    private static func items(_ count: Int) -> JSONValue { .array((0..<count).map(item)) }

    @Test func aListFilledFromEmptyIsCutAtTheSameLineReadingOnlyItsStart() {
        let count = DiffLines.treeLineLimit * 2
        let lines = Self.bothWays(["items": []], ["items": Self.items(count)], ["/items"])
        #expect(lines.prefix == lines.whole)
        #expect(lines.whole.count == 1 + DiffLines.treeLineLimit + 1)
        #expect(lines.whole.last == "  … (the diff goes on: cut at \(DiffLines.treeLineLimit) lines)")
        // Only as many items as the lines show are read.
        let operands = DiffOperands.treeDiff(from: JSONNode([]), to: JSONNode(Self.items(count)), lineLimit: DiffLines.treeLineLimit, budget: 0)
        #expect(operands.new.arrayValue?.count == DiffLines.treeLineLimit)
    }

    @Test func aListEmptiedIsCutAtTheSameLine() {
        let lines = Self.bothWays(["items": Self.items(DiffLines.treeLineLimit + 5)], ["items": []], ["/items"])
        #expect(lines.prefix == lines.whole)
        #expect(lines.whole.last == "  … (the diff goes on: cut at \(DiffLines.treeLineLimit) lines)")
    }

    @Test func listsAroundTheLineLimitGiveTheSameLines() {
        for count in [0, 1, DiffLines.treeLineLimit - 2, DiffLines.treeLineLimit - 1, DiffLines.treeLineLimit, DiffLines.treeLineLimit + 1] {
            let lines = Self.bothWays(["items": []], ["items": .array((0..<count).map { .integer(Int64($0)) })], ["/items"])
            #expect(lines.prefix == lines.whole, "\(count) items")
        }
    }

    @Test func anObjectWhoseMemberFillsTheDiffPairsItsOtherMembersAsTheWholeDoes() {
        let old: JSONValue = ["count": 0, "items": [], "name": "list", "gone": ["x": 1], "same": ["deep": [1, 2, 3]]]
        let new: JSONValue = ["added": ["a": 1], "count": 1, "items": Self.items(DiffLines.treeLineLimit + 10), "name": "list",
                              "same": ["deep": [1, 2, 3]]]
        let root = Self.bothWays(old, new, [""])
        #expect(root.prefix == root.whole)
        #expect(root.whole.prefix(5) == ["@ /", "  {", "+   \"added\": {\"a\":1}", "-   \"count\": 0", "+   \"count\": 1"])
        #expect(root.whole.last == "  … (the diff goes on: cut at \(DiffLines.treeLineLimit) lines)")
        // A smaller list: the diff goes to its end, the removed member and the closing brace included.
        let small: JSONValue = ["count": 1, "items": Self.items(3), "name": "list", "same": ["deep": [1, 2, 3]]]
        let whole = Self.bothWays(old, small, [""])
        #expect(whole.prefix == whole.whole)
        #expect(whole.whole.suffix(4) == ["    ]", "    … (2 unchanged)", "-   \"gone\": {\"x\":1}", "  }"])
    }

    @Test func listsChangedInPlaceAndNestedObjectsGiveTheSameLines() {
        let old: JSONValue = ["a": ["list": [1, 2, 3], "o": ["k": "v", "n": ["m": [true]]]], "b": [["id": 1], ["id": 2]]]
        let new: JSONValue = ["a": ["list": [1, 5, 3, 4], "o": ["k": "w", "n": ["m": [false]]]], "b": [["id": 2], ["id": 3]]]
        for paths in [[""], ["/a"], ["/a/list", "/b"], ["/a/o/n"]] {
            let lines = Self.bothWays(old, new, paths)
            #expect(lines.prefix == lines.whole, "\(paths)")
        }
    }

    @Test func aHugeValueAddedWholeShowsItsFirstLinesReadingOnlyThem() {
        let nested: JSONValue = ["lists": .array((0..<30).map { row in .array((0..<(row % 4)).map { Self.item($0 + row) }) })]
        let values: [JSONValue] = [Self.items(500), nested, .array((0..<60).map { .integer(Int64($0)) }), ["only": Self.items(2)], "text", []]
        for value in values {
            let added = Self.bothWays(["x": 1], ["x": 1, "v": value], ["/v"])
            #expect(added.prefix == added.whole, "added \(value.description.prefix(60))")
            let replaced = Self.bothWays(["v": 7], ["v": value], ["/v"])
            #expect(replaced.prefix == replaced.whole, "replaced \(value.description.prefix(60))")
            let removed = Self.bothWays(["v": value], [:], ["/v"])
            #expect(removed.prefix == removed.whole, "removed \(value.description.prefix(60))")
        }
        // 11 lines an item: the 40 lines shown end inside the fourth.
        #expect(DiffOperands.prettyPrefix(of: JSONNode(Self.items(500)), lines: DiffLines.valueLineLimit, budget: 0).arrayValue?.count == 4)
    }

    @Test func valuesWhoseLinesEndRightAtTheLimitKeepTheCommaAfterTheirLastShownLine() {
        // Lists whose elements' lines end on, just before and just after the last line shown.
        for size in 0...5 {
            for count in 1...(DiffLines.valueLineLimit + 2) {
                let element: JSONValue = size == 0 ? 1 : .array((0..<size).map { .integer(Int64($0)) })
                let lines = Self.bothWays(nil, ["v": .array(Array(repeating: element, count: count))], ["/v"])
                #expect(lines.prefix == lines.whole, "\(count) elements of \(size)")
            }
        }
    }

    @Test func equalHugeValuesAreUnchangedWithoutBeingCompared() {
        let state: JSONValue = ["items": Self.items(50), "n": 1.5]
        let same = Self.bothWays(state, state, ["/items", "/n"])
        #expect(same.prefix == same.whole)
        #expect(same.whole == ["@ /items", "  (unchanged)", "@ /n", "  (unchanged)"])
        let pairs: [(JSONValue, JSONValue)] = [
            (Self.items(50), Self.items(49)), (Self.items(3), Self.items(3)), (["a": 1, "b": [2]], ["b": [2], "a": 1]),
            (["a": 1], ["a": 1.0]), (["a": [1, 2]], ["a": [2, 1]]), (["a": [:]], ["a": []]), ([1, "x"], [1, "y"]), (["a": nil], ["b": nil]),
        ]
        for (a, b) in pairs {
            #expect((JSONNode(a) == JSONNode(b)) == (a == b), "\(a) and \(b)")
        }
    }
}
