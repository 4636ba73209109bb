import Testing
import Recorder
@testable import Inspector

/// `e` reads a huge state a child at a time, looking at Esc between children, and builds
/// exactly the value it would have read whole.
@Suite struct CancellableStateTests {
    static let documents: [JSONValue] = [
        ["items": .array((0..<50).map { ["id": .integer(Int64($0)), "tags": ["a", "b"], "note": .string("n\($0)")] }), "count": 50],
        [["nested": [[1, 2], [:], []]], "x", .null, true, 1.5],
        ["": 1, "a/b": ["~": []], "é": "e\u{301}"],
        [], [:], "scalar", 7,
    ]

    @Test func aStateReadAChildAtATimeIsTheStateReadWhole() {
        for document in Self.documents {
            let node = JSONNode(document)
            #expect(node.value(childWiseAbove: 0, unlessCancelled: { false }) == document)
            // Key order is kept too (equality ignores it).
            #expect(node.value(childWiseAbove: 0, unlessCancelled: { false }).map(JSONWriter.compactString) == JSONWriter.compactString(document))
        }
    }

    @Test func escBetweenTwoChildrenStopsTheReadingThere() {
        let node = JSONNode(Self.documents[0])
        var looks = 0
        let read = node.value(childWiseAbove: 0, unlessCancelled: { looks += 1; return looks > 10 })
        #expect(read == nil)
        // Stopped at the eleventh look: the rest of the 50 items were never read.
        #expect(looks == 11)
    }

    @Test func aSmallStateIsReadWholeWithoutALook() {
        var looks = 0
        let node = JSONNode(Self.documents[0])
        #expect(node.value(unlessCancelled: { looks += 1; return true }) == Self.documents[0])
        #expect(looks == 0)
    }
}
