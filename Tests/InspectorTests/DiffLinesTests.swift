import Testing
import Recorder
@testable import Inspector

@Suite struct DiffLinesTests {
    private func text(_ old: JSONValue?, _ new: JSONValue?, _ paths: [String]) -> [String] {
        DiffLines.lines(from: old.map(JSONNode.init), to: new.map(JSONNode.init), changedPaths: paths.map { try! JSONPointer(parsing: $0) }).map(DiffFormatting.plainText)
    }

    @Test func changedContainersShowATreeDiffOfThatSubtreeOnly() {
        let old: JSONValue = ["a": ["x": 1, "y": 2], "big": .array((0..<1000).map { .integer($0) })]
        let new: JSONValue = ["a": ["x": 1, "y": 3], "big": .array((0..<1000).map { .integer($0) })]
        #expect(text(old, new, ["/a"]) == [
            "@ /a",
            "  {",
            "    … (1 unchanged)",
            "-   \"y\": 2",
            "+   \"y\": 3",
            "  }",
        ])
    }

    @Test func scalarsAndAddedOrRemovedValuesArePrettyPrinted() {
        #expect(text(["n": 1], ["n": 2], ["/n"]) == ["@ /n", "- 1", "+ 2"])
        #expect(text(["l": []], ["l": [["t": "a"]]], ["/l/0"]) == ["@ /l/0", "+ {", "+   \"t\": \"a\"", "+ }"])
        #expect(text(["k": true], [:], ["/k"]) == ["@ /k", "- true"])
        // A path inside another listed path is covered by it.
        #expect(text(["a": ["b": 1]], ["a": ["b": 2]], ["/a/b", "/a"]) == ["@ /a", "  {", "-   \"b\": 1", "+   \"b\": 2", "  }"])
    }

    @Test func longValuesFold() {
        let long: JSONValue = .array((0..<100).map { .integer($0) })
        let lines = text(nil, ["v": long], ["/v"])
        #expect(lines.count == 1 + DiffLines.valueLineLimit + 1)
        #expect(lines.last == "  … 62 more lines")
    }
}
