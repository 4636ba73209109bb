import Testing
import Recorder
@testable import Inspector

@Suite struct StateTreeTests {
    let state = JSONNode([
        "a": [1, [2, 3], ["x": [4, 5], "y": []], 6],
        "b": ["c": ["d": "deep"], "e": true],
        "f": "leaf",
        "g": [:],
    ])

    let expansion = TreeExpansion(open: [
        try! JSONPointer(parsing: "/a"), try! JSONPointer(parsing: "/a/1"), try! JSONPointer(parsing: "/a/2"),
        try! JSONPointer(parsing: "/a/2/x"), try! JSONPointer(parsing: "/b/c"),   // /b/c is open but /b is closed
    ])

    @Test func flattensOpenNodesInDisplayOrder() {
        let rows = StateTree.rows(of: state, expansion: expansion, in: 0..<100)
        #expect(rows.map { String(repeating: "  ", count: $0.depth) + $0.path.description } == [
            "/a", "  /a/0", "  /a/1", "    /a/1/0", "    /a/1/1", "  /a/2", "    /a/2/x", "      /a/2/x/0", "      /a/2/x/1",
            "    /a/2/y", "  /a/3", "/b", "/f", "/g",
        ])
        #expect(StateTree.rowCount(of: state, expansion: expansion) == rows.count)
    }

    @Test func everyWindowIsASliceOfTheWholeAndRowIndexFindsEachRow() {
        let all = StateTree.rows(of: state, expansion: expansion, in: 0..<100)
        for start in 0...all.count {
            for length in 1...4 {
                let window = StateTree.rows(of: state, expansion: expansion, in: start..<(start + length))
                #expect(window == Array(all[min(start, all.count)..<min(start + length, all.count)]), "window \(start)+\(length)")
            }
        }
        for (position, row) in all.enumerated() {
            #expect(StateTree.rowIndex(of: row.path, in: state, expansion: expansion) == position, "\(row.path)")
        }
        #expect(StateTree.rowIndex(of: try! JSONPointer(parsing: "/b/c"), in: state, expansion: expansion) == nil)   // parent closed
        #expect(StateTree.rowIndex(of: try! JSONPointer(parsing: "/nope"), in: state, expansion: expansion) == nil)
    }

    @Test func hugeClosedArraysAreSkippedNotWalked() {
        let big = JSONNode(["items": .array((0..<100_000).map { ["id": .integer(Int64($0))] })])
        let open = TreeExpansion(open: [try! JSONPointer(parsing: "/items"), try! JSONPointer(parsing: "/items/99998")])
        #expect(StateTree.rowCount(of: big, expansion: open) == 1 + 100_000 + 1)
        let window = StateTree.rows(of: big, expansion: open, in: 99_998..<100_002)
        #expect(window.map(\.path.description) == ["/items/99997", "/items/99998", "/items/99998/id", "/items/99999"])
        #expect(StateTree.rowIndex(of: try! JSONPointer(parsing: "/items/99999"), in: big, expansion: open) == 100_001)
    }

    @Test func scalarRootIsOneRow() {
        #expect(StateTree.rows(of: JSONNode(42), expansion: TreeExpansion(open: []), in: 0..<10).map(\.node.value) == [42])
        #expect(StateTree.rowCount(of: JSONNode(42), expansion: TreeExpansion(open: [])) == 1)
    }
}
