import Testing
import Recorder
@testable import Inspector

/// `/` in the state pane looks through a state in slices, as the scans over entries do:
/// here a slice is 50 nodes, so a state of 1,000 items takes many events, each showing
/// how far the search got; the cursor lands as soon as the match is found and Esc stops it.
@Suite struct StateSearchTests {
    static func model() -> InspectorModel {
        let items = JSONValue.array((0..<1_000).map { ["id": .integer(Int64($0)), "name": .string("item \($0)")] })
        var model = InspectorFixtures.model(InMemoryTimeline(name: "items.jsonl", steps: [.init("load", state: ["items": items, "total": 1_000])]),
                                            columns: 100)
        model.scans.scanBudget = ScanBudget(entriesPerEvent: 50, timePerEvent: nil)
        return model
    }

    static func statusLine(_ model: InspectorModel) -> String {
        let lines = model.screenText.split(separator: "\n", omittingEmptySubsequences: false)
        return String(lines[lines.count - 2]).trimmingCharacters(in: .whitespaces)
    }

    @Test func theSearchShowsHowFarItGotLandsOnTheMatchAndCountsTheRest() {
        var model = Self.model()
        model.type("\t/item 500\n")
        #expect(Self.statusLine(model) == "items.jsonl  │  entry 1/1  │  state  │  searching the state… 0%")
        for _ in 0..<20 { reduce(&model, .tick) }        // 1,050 nodes: 350 of the 1,000 items, the first of two members
        #expect(Self.statusLine(model) == "items.jsonl  │  entry 1/1  │  state  │  searching the state… 17%")
        while model.cursorRow?.path.description != "/items/500/name" && model.hasPendingScan { reduce(&model, .tick) }
        #expect(model.cursorRow?.path.description == "/items/500/name")
        #expect(Self.statusLine(model) == "items.jsonl  │  entry 1/1  │  state  │  match 1/… (counting 25%)")
        while model.hasPendingScan { reduce(&model, .tick) }
        #expect(Self.statusLine(model) == "items.jsonl  │  entry 1/1  │  state  │  match 1/1")
        model.type("/item\n")                              // forward from the cursor: item 501 (after /items and 501 names)
        while model.hasPendingScan { reduce(&model, .tick) }
        #expect(model.cursorRow?.path.description == "/items/501/name")
        #expect(Self.statusLine(model) == "items.jsonl  │  entry 1/1  │  state  │  match 503/1001")
        model.type("N")                                    // backward: the one before the cursor
        while model.hasPendingScan { reduce(&model, .tick) }
        #expect(model.cursorRow?.path.description == "/items/500/name")
        #expect(Self.statusLine(model) == "items.jsonl  │  entry 1/1  │  state  │  match 502/1001")
    }

    @Test func escStopsASearchThatIsStillLookingAndOneThatIsCounting() {
        var model = Self.model()
        model.type("\t/item 999\n")
        reduce(&model, .tick)
        model.type("\u{1b}")
        #expect(!model.hasPendingScan)
        #expect(model.screenText.hasSuffix("Search for \"item 999\" cancelled"))
        #expect(model.cursorRow?.path.description == "/items")
        model.type("/item 3\n")
        while model.scans.stateSearch?.landed == nil && model.hasPendingScan { reduce(&model, .tick) }
        model.type("\u{1b}")
        #expect(model.screenText.hasSuffix("Stopped counting the matches of \"item 3\""))
        #expect(model.cursorRow?.path.description == "/items/3/name")
        #expect(!Self.statusLine(model).contains("match"))
    }

    @Test func noMatchAndWrappingAreSaidOnceEveryNodeIsSeen() {
        var model = Self.model()
        model.type("\t/nothing like it\n")
        while model.hasPendingScan { reduce(&model, .tick) }
        #expect(model.screenText.hasSuffix("No match for \"nothing like it\" in the state pane"))
        model.type("/total\n")
        while model.hasPendingScan { reduce(&model, .tick) }
        #expect(model.cursorRow?.path.description == "/total")
        model.type("n")                                    // the only match: around the end to itself
        while model.hasPendingScan { reduce(&model, .tick) }
        #expect(model.cursorRow?.path.description == "/total")
        #expect(model.screenText.hasSuffix("Search wrapped around"))
    }

    @Test func noMatchInADiffThatIsCutSaysWhereTheRestIsSearched() {
        // A list of 1,000 items loaded where there was none: the diff shows its first 40 lines.
        let items = JSONValue.array((0..<1_000).map { ["id": .integer(Int64($0)), "name": .string("item \($0)")] })
        var load = InMemoryTimeline.Step("load", state: ["items": items])
        load.changedPaths = [JSONPointer(tokens: ["items"])]
        var model = InspectorFixtures.model(InMemoryTimeline(name: "items.jsonl", steps: [.init("start", state: ["items": .null]), load]),
                                            columns: 100)
        model.type("j\t\t/item 1\n")
        #expect(model.screenText.contains("│ Diff"))
        #expect(model.panes.diffMatchLine != nil)
        model.type("/item 999\n")                            // in the list, past what the diff shows
        #expect(model.screenText.hasSuffix("No match for \"item 999\" in the diff shown (it is cut; / in the state pane searches all)"))
        model.type("/nothing like it\n")
        #expect(model.screenText.hasSuffix("No match for \"nothing like it\" in the diff shown (it is cut; / in the state pane searches all)"))
        model.type("\t\t/item 999\n")                       // the state pane finds it
        while model.hasPendingScan { reduce(&model, .tick) }
        #expect(model.cursorRow?.path.description == "/items/999/name")
    }

    @Test func theWalkHandsOutEveryNodeInDisplayOrderWithItsPath() {
        let value: JSONValue = ["a": ["x": 1, "y": [2, [3]]], "b": [], "c": "z"]
        var walk = NodeWalk(value)
        var paths: [String] = []
        while let node = walk.next() { paths.append(JSONPointer(tokens: node.tokens).description) }
        #expect(paths == ["/a", "/a/x", "/a/y", "/a/y/0", "/a/y/1", "/a/y/1/0", "/b", "/c"])
    }
}
