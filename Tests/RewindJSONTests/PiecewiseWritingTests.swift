import Testing
@testable import RewindJSON

/// A huge value's pretty text and tree diff come out a piece at a time (the inspector's `e`
/// writes them to a file as they are made): the pieces make the same text, progress only
/// grows, and the consumer can stop them.
@Suite struct PiecewiseWritingTests {
    static let list: JSONValue = ["items": .array((0..<2_000).map { ["id": .integer(Int64($0)), "tags": ["a", "b"]] }), "note": "x"]
    static let edited: JSONValue = ["items": .array((0..<2_000).map { ["id": .integer(Int64($0 % 7 == 0 ? -$0 : $0)), "tags": ["a"]] }), "count": 3]

    @Test func prettyPiecesMakeThePrettyText() {
        var text: [UInt8] = []
        var fractions: [Double] = []
        let finished = JSONWriter.writePretty(Self.list, pieceBytes: 4_096) { piece, fraction in
            text += piece
            fractions.append(fraction)
            return true
        }
        #expect(finished)
        #expect(String(decoding: text, as: UTF8.self) == JSONWriter.prettyString(Self.list))
        #expect(fractions.count > 10 && fractions == fractions.sorted() && fractions.last == 1)

        var pieces = 0
        #expect(!JSONWriter.writePretty(Self.list, pieceBytes: 4_096) { _, _ in pieces += 1; return pieces < 3 })
        #expect(pieces == 3)
    }

    @Test func treeLinesOneByOneAreTheTreeDiff() {
        var lines: [TreeDiffLine] = []
        var fractions: [Double] = []
        #expect(JSONDiff.forEachTreeLine(from: Self.list, to: Self.edited) { line, fraction in
            lines.append(line)
            fractions.append(fraction)
            return true
        })
        #expect(lines == JSONDiff.treeLines(from: Self.list, to: Self.edited))
        // Never back (but for the last bit of a sum of shares): a closing bracket counts its container as done.
        #expect(lines.count > 100 && zip(fractions, fractions.dropFirst()).allSatisfy { $1 > $0 - 1e-12 } && fractions.last! > 0.99)

        var taken = 0
        #expect(!JSONDiff.forEachTreeLine(from: Self.list, to: Self.edited) { _, _ in taken += 1; return taken < 5 })
        #expect(taken == 5)
        #expect(JSONDiff.forEachTreeLine(from: Self.list, to: Self.list) { _, _ in Issue.record("no line for equal documents"); return true })
    }

    @Test func progressIsWhereTheWalkIsInItsContainers() {
        var progress = NestedProgress()
        #expect(progress.fraction == 0)
        progress.enter(count: 2)
        progress.advance()
        progress.enter(count: 10)
        for _ in 0..<5 { progress.advance() }
        #expect(progress.fraction == 0.75)
        progress.leave()
        progress.advance()
        #expect(progress.fraction == 1)
    }
}
