import Foundation
import SampleDomains
import Testing
import RewindTestSupport
@testable import Inspector
@testable import Recorder

/// State-pane search, the value viewer, a value's history and the sparkline read the
/// state through ``JSONNode``: whatever form a node is held in, they give what a walk
/// of the whole tree gives.
@Suite struct NodeReadersTests {
    /// `value` as each form of node the readers meet: a tree, and held lazily as its compact
    /// JSON (a keyframe's) and as pretty JSON (space between the values).
    static func heldEachWay(_ value: JSONValue) -> [JSONNode] {
        [JSONNode(value)] + [JSONWriter.compact(value), Array(JSONWriter.prettyString(value).utf8)].map(heldLazily)
    }

    /// The JSON `bytes` held as the log reader holds a huge keyframe's state, but with
    /// containers over 64 bytes as their children's nodes, so a small value has every form in it.
    static func heldLazily(_ bytes: [UInt8]) -> JSONNode {
        try! JSONNode.reading(bytes, 0..<bytes.count, containersOver: 64)
    }

    static let values: [JSONValue] = [
        ["todos": [["title": "Buy milk", "done": true], ["title": "Write \"tests\"\n", "done": false, "tags": []]],
         "filter": "all", "user": ["name": "Ada", "emails": ["a@example.com", "b@example.com"], "nothing": .null],
         "é\u{301}": 1.5, "deep": [[[[1, [2, [3]]]]]], "Total": 12],
        .array((0..<600).map { index in
            index % 3 == 0 ? ["id": .integer(Int64(index)), "items": .array((0..<300).map { .integer($0) })] : .string("item \(index)")
        }),
    ]

    // MARK: State-pane search

    /// Every node but the root, in display order: its path, and whether it matches `needle` (lowercased).
    static func nodesInDisplayOrder(_ value: JSONValue, needle: String, path: [String] = []) -> [(path: [String], matches: Bool)] {
        func matches(_ key: String?, _ child: JSONValue) -> Bool {
            if let key, key.lowercased().contains(needle) { return true }
            switch child {
            case .object, .array: return false
            case .string(let text): return text.lowercased().contains(needle)
            default: return child.description.lowercased().contains(needle)
            }
        }
        var nodes: [(path: [String], matches: Bool)] = []
        switch value {
        case .object(let object):
            for (key, child) in object.members {
                nodes.append((path + [key], matches(key, child)))
                nodes += nodesInDisplayOrder(child, needle: needle, path: path + [key])
            }
        case .array(let elements):
            for (index, child) in elements.enumerated() {
                nodes.append((path + [String(index)], matches(nil, child)))
                nodes += nodesInDisplayOrder(child, needle: needle, path: path + [String(index)])
            }
        default:
            break
        }
        return nodes
    }

    /// Where `/` (forward) or `N` (backward) lands from `cursor` among `nodes`, by the definition:
    /// the next match past the cursor's node, around the end when there is none; its number among all.
    static func expectedLanding(_ nodes: [(path: [String], matches: Bool)], forward: Bool, cursor: [String]?) -> (path: [String], index: Int, total: Int)? {
        let cursorPosition = cursor.flatMap { cursor in nodes.firstIndex { $0.path == cursor } } ?? -1
        let matching = nodes.indices.filter { nodes[$0].matches }
        guard !matching.isEmpty else { return nil }
        let target = forward ? (matching.first { $0 > cursorPosition } ?? matching[0])
                             : (matching.last { $0 < cursorPosition } ?? matching[matching.count - 1])
        return (nodes[target].path, matching.firstIndex(of: target)! + 1, matching.count)
    }

    @Test func theSearchLandsWhereAWalkOfTheTreeSaysWithTheSameCount() {
        let queries = ["item 4", "TITLE", "a", "1", "é\u{301}", "null", "nothing like it"]
        let values = [Self.values[0], .array((0..<60).map { index in
            index % 3 == 0 ? ["id": .integer(Int64(index)), "items": .array((0..<30).map { .integer($0) })] : .string("item \(index)")
        })]
        for value in values {
            let everyNode = Self.nodesInDisplayOrder(value, needle: "").map(\.path)
            let cursors: [[String]?] = [nil] + stride(from: 0, to: everyNode.count, by: 23).map { everyNode[$0] }
            for query in queries {
                let nodes = Self.nodesInDisplayOrder(value, needle: query.lowercased())
                for node in Self.heldEachWay(value) {
                    for cursor in cursors {
                        for forward in [true, false] {
                            var search = StateSearch(query: query, forward: forward, state: node, cursor: cursor.map { JSONPointer(tokens: $0) }, request: nil)
                            // A few nodes a slice, as on a busy event loop.
                            while !search.isDone {
                                var allowance = ScanAllowance(ScanBudget(entriesPerEvent: 37, timePerEvent: nil))
                                search.advance(allowance: &allowance)
                            }
                            let expected = Self.expectedLanding(nodes, forward: forward, cursor: cursor)
                            #expect(search.landed?.path.tokens == expected?.path, "\(query) from \(cursor ?? [])")
                            #expect(search.landed?.index == expected?.index, "\(query) from \(cursor ?? [])")
                            #expect(search.total == expected?.total ?? 0, "\(query) from \(cursor ?? [])")
                        }
                    }
                }
            }
        }
    }

    @Test func theWalkHandsOutEachNodeWithItsKeyAndPath() {
        for value in Self.values {
            let expected = Self.nodesInDisplayOrder(value, needle: "").map(\.path)
            for node in Self.heldEachWay(value) {
                var walk = NodeWalk(node)
                var paths: [[String]] = []
                var keysAreTheLastTokenOfObjectMembers = true
                while let step = walk.next() {
                    paths.append(step.tokens)
                    if let key = step.key, key != step.tokens.last { keysAreTheLastTokenOfObjectMembers = false }
                }
                #expect(paths == expected)
                #expect(keysAreTheLastTokenOfObjectMembers)
            }
        }
    }

    // MARK: The value viewer

    @Test func theViewersLinesAreThePrettyWritersForANodeHeldEitherWay() {
        for value in Self.values {
            let expected = JSONWriter.prettyString(value).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            for node in Self.heldEachWay(value) {
                var lines = PrettyJSONLines(node)
                #expect(lines.count == expected.count)
                // From the end, then every third line: the caches are built in an order they would not be by scrolling.
                let order = Array(expected.indices.reversed()) + expected.indices.filter { $0 % 3 == 0 }
                #expect(order.allSatisfy { lines.line($0) == expected[$0] })
            }
        }
    }

    @Test func aStringNodeIsShownAsItsText() {
        for node in Self.heldEachWay(["note": "first line\nsecond \"line\""]) {
            let viewer = ValueViewer(path: JSONPointer(tokens: ["note"]), node: node[pointer: JSONPointer(tokens: ["note"])]!)
            #expect(viewer.allRows(width: 40) == ["first line", "second \"line\""])
        }
    }

    // MARK: A value's history

    /// Arrays of a few distinct values (so elements repeat), and a random edit of each.
    static func editedArrays() -> [(old: [JSONValue], new: [JSONValue])] {
        var generator = SplitMix64(seed: 34)
        return (0..<400).map { _ in
            let old = (0..<Int.random(in: 0...12, using: &generator)).map { _ in JSONValue.integer(Int64.random(in: 0...3, using: &generator)) }
            var new = old
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                switch Int.random(in: 0...3, using: &generator) {
                case 0: new.insert(.integer(Int64.random(in: 0...3, using: &generator)), at: Int.random(in: 0...new.count, using: &generator))
                case 1 where !new.isEmpty: new.remove(at: Int.random(in: 0..<new.count, using: &generator))
                case 2: new.append(.integer(9))
                default: if new.count > 1 { new.swapAt(0, new.count - 1) }
                }
            }
            return (old, new)
        }
    }

    @Test func anElementIsFollowedToTheIndexTheAlignmentOfTheWholeArraysGives() {
        for (old, new) in Self.editedArrays() {
            for (oldNode, newNode) in zip(Self.heldEachWay(.array(old)), Self.heldEachWay(.array(new))) {
                for index in old.indices {
                    #expect(ValueHistory.mapIndex(index, from: oldNode, to: newNode) == ValueHistory.mapIndex(index, from: old, to: new),
                            "\(index) of \(old) → \(new)")
                }
            }
        }
    }

    @Test func theStateBeforeAnEntryAsANodeIsTheStateBeforeIt() throws {
        // Gaps, a second session and (kept as rows) a damaged record.
        let gapped = try LogTimeline(path: try GappedCounter.writeLog())
        let damaged = try LogTimeline(path: try LogFixture.todoLog(damageLine: 5), keepsDamagedRows: true)
        // A replay branch's first entry follows its fork, not the log's last entry.
        let log = try ReplayLogs.todo()
        let timeline = try LogTimeline(path: log.path)
        let workbench = ReplayWorkbench(reader: timeline.reader, reducer: TodoDomain.reduce)
        let replay = ReplayTimeline(base: timeline, engine: workbench)
        let branchEntry = try workbench.dispatch(actionJSON: #"{"add":{"title":"Edited"}}"#, at: 2)
        #expect(replay.stateBefore(branchEntry) != (try replay.state(at: branchEntry - 1)))

        for source in [gapped, damaged, replay] as [any TimelineSource] {
            for index in 0..<source.count {
                #expect(source.stateNodeBefore(index)?.value == source.stateBefore(index), "\(source.name), entry \(index + 1)")
            }
        }
    }

    /// A list whose items move (an insert at the front, a removal), a count inside an object
    /// that is replaced whole, a value created and removed.
    static func editedTimeline() -> InMemoryTimeline {
        let items: [JSONValue] = (0..<30).map { ["id": .integer(Int64($0)), "name": .string("item \($0)")] }
        var state: JSONValue = ["items": .array(items), "stats": ["count": 30, "note": "first"]]
        var steps = [InMemoryTimeline.Step("load", state: state)]
        func step(_ name: String, _ operation: JSONPatchOperation) {
            state = try! JSONPatch([operation]).applied(to: state)
            steps.append(.init(name, state: state))
        }
        func at(_ path: String) -> JSONPointer { try! JSONPointer(parsing: path) }
        step("count", .replace(path: at("/stats/count"), value: 31))
        step("insertFirst", .add(path: at("/items/0"), value: ["id": 99, "name": "new"]))
        step("rename", .replace(path: at("/items/4/name"), value: "renamed"))
        step("replaceStats", .replace(path: at("/stats"), value: ["count": 7, "note": "again"]))
        step("removeSecond", .remove(path: at("/items/1")))
        step("append", .add(path: at("/items/-"), value: ["id": 100, "name": "last"]))
        step("flag", .add(path: at("/stats/flag"), value: true))
        step("unflag", .remove(path: at("/stats/flag")))
        return InMemoryTimeline(name: "edited.jsonl", steps: steps)
    }

    @Test func aValuesHistoryReadsOnlyTheNodesOnItsWayAndIsTheTreesHistory() throws {
        let trees = Self.editedTimeline()
        let nodes = LazyStatesTimeline(trees)
        for (path, origin) in [("/stats/count", 3), ("/items/3", 2), ("/items/29", 8), ("/stats/flag", 6), ("/stats", 0)] {
            var expected = ValueHistory(path: try JSONPointer(parsing: path), origin: origin, source: trees)
            expected.runToCompletion(source: trees)
            var history = ValueHistory(path: try JSONPointer(parsing: path), origin: origin, source: nodes)
            history.runToCompletion(source: nodes)
            #expect(history.changes == expected.changes, "\(path)")
            #expect(!history.changes.isEmpty, "\(path)")
            #expect(history.changes.map { ValueChangeText.values(of: $0, source: nodes) }
                    == expected.changes.map { ValueChangeText.values(of: $0, source: trees) }, "\(path)")
        }
        #expect(nodes.wholeStatesRead == 0)
    }

    // MARK: The sparkline

    @Test func eachBarIsTheSampledStatesCompactSize() {
        let states: [JSONValue] = [["n": 1], ["n": 22, "note": "a longer state"], Self.values[0], ["list": .array((0..<40).map { .integer($0) })]]
        let timeline = InMemoryTimeline(name: "sizes.jsonl", steps: states.map { .init("set", state: $0) })
        var sparkline = Sparkline()
        sparkline.update(count: states.count, columns: states.count, source: timeline, quickStateBytes: 1 << 20)
        #expect(sparkline.samples.map { $0?.stateBytes } == states.map { JSONWriter.compact($0).count })
        // Measured without the states as trees.
        let lazily = LazyStatesTimeline(timeline)
        var measured = Sparkline()
        measured.update(count: states.count, columns: states.count, source: lazily, quickStateBytes: 1 << 20)
        #expect(measured.samples == sparkline.samples)
        #expect(lazily.wholeStatesRead == 0)
    }
}

/// A timeline whose states are handed out held lazily, as the log reader holds a huge
/// keyframe's (containers over 64 bytes as their children's nodes, the rest as bytes),
/// counting the reads of a state as a whole tree.
final class LazyStatesTimeline: TimelineSource {
    let trees: InMemoryTimeline
    private(set) var wholeStatesRead = 0

    init(_ trees: InMemoryTimeline) { self.trees = trees }

    var name: String { trees.name }
    var count: Int { trees.count }
    var indexing: IndexingProgress { trees.indexing }
    var damage: [DamagedRecord] { trees.damage }
    var tornTail: DamagedRecord? { trees.tornTail }
    var initialState: JSONValue? { trees.initialState }
    func entry(at index: Int) -> TimelineEntry? { trees.entry(at: index) }
    func refresh() -> FollowNotice? { trees.refresh() }

    func state(at index: Int) throws -> JSONValue {
        wholeStatesRead += 1
        return try trees.state(at: index)
    }

    func stateNode(at index: Int) throws -> JSONNode {
        NodeReadersTests.heldLazily(JSONWriter.compact(try trees.state(at: index)))
    }

    func stateNodeBefore(_ index: Int) -> JSONNode? {
        index > 0 ? try? stateNode(at: index - 1) : initialState.map(JSONNode.init)
    }
}
