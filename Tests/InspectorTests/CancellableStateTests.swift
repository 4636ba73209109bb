import Testing
import Recorder
@testable import Inspector

/// `e` reads a huge state with a look at Esc every 64 of a big container's children, and
/// builds exactly the value it would have read without looking.
@Suite struct CancellableStateTests {
    static let documents: [JSONValue] = [
        ["items": .array((0..<500).map { ["id": .integer(Int64($0)), "tags": ["a", "b"], "note": .string("n\($0)")] }), "count": 500],
        [["nested": [[1, 2], [:], []]], "x", .null, true, 1.5],
        ["": 1, "a/b": ["~": []], "é": "e\u{301}"],
        [], [:], "scalar", 7,
    ]

    /// Held as a huge keyframe's state is, with containers over 64 bytes as their children's nodes.
    static func heldLazily(_ value: JSONValue) throws -> JSONNode {
        let bytes = JSONWriter.compact(value)
        return try JSONNode.reading(bytes, 0..<bytes.count, containersOver: 64)
    }

    @Test func aStateReadWithLooksAtEscIsTheStateReadWithout() throws {
        for document in Self.documents {
            for node in [JSONNode(document), try Self.heldLazily(document)] {
                let read = node.value(unlessCancelled: { false })
                #expect(read == document)
                // Key order is kept too (equality ignores it).
                #expect(read.map(JSONWriter.compactString) == JSONWriter.compactString(document))
            }
        }
    }

    @Test func escStopsTheReadingWithinSixtyFourChildren() throws {
        let node = try Self.heldLazily(Self.documents[0])
        var looks = 0
        #expect(node.value(unlessCancelled: { looks += 1; return looks > 3 }) == nil)
        // The fourth look said stop: at the root, then every 64 of the 500 items, so 192 items at most were read.
        #expect(looks == 4)
    }

    @Test func aStateInMemoryIsHandedOverWithoutALook() {
        var looks = 0
        #expect(JSONNode(Self.documents[0]).value(unlessCancelled: { looks += 1; return true }) == Self.documents[0])
        #expect(looks == 0)
    }
}
