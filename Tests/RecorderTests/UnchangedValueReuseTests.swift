import Foundation
import RewindTestSupport
import SampleDomains
import Testing
@testable import Recorder
@testable import RewindJSON

/// A state with the shapes reuse must line up between two documents: arrays of
/// structs, enums with payloads, optionals, dictionaries of structs, nested
/// arrays, keys left out by `encodeIfPresent`, and an empty struct.
private struct Shelf: Codable, Equatable {
    var books: [Book] = []
    var byTitle: [String: Book] = [:]
    var pinned: Book?
    var mode = Mode.browsing
    var matrix: [[Int]] = []
    var nothing = Empty()
    var note: String?

    struct Book: Codable, Equatable {
        var id: Int
        var title: String
        var state = Mode.browsing
        var pages: [Page] = []
        var subtitle: String?
    }

    struct Page: Codable, Equatable {
        var number: Int
        var text: String
    }

    enum Mode: Codable, Equatable {
        case browsing
        case reading(Int)
        case lending(to: String, Page)
    }

    struct Empty: Codable, Equatable {}
}

private func mutate(_ shelf: inout Shelf, _ generator: inout SplitMix64) {
    func book(_ id: Int) -> Shelf.Book {
        Shelf.Book(id: id, title: "book \(id)", pages: (0..<Int.random(in: 0..<3, using: &generator)).map { Shelf.Page(number: $0, text: "p\($0)") })
    }
    for _ in 0..<Int.random(in: 1...3, using: &generator) {
        let count = shelf.books.count
        switch Int.random(in: 0..<13, using: &generator) {
        case 0: shelf.books.append(book((shelf.books.map(\.id).max() ?? 0) + 1))
        case 1 where count > 0: shelf.books.remove(at: Int.random(in: 0..<count, using: &generator))
        case 2: shelf.books.insert(book(100 + Int.random(in: 0..<50, using: &generator)), at: Int.random(in: 0...count, using: &generator))
        case 3 where count > 0: shelf.books[Int.random(in: 0..<count, using: &generator)].title += "!"
        case 4 where count > 0:
            let index = Int.random(in: 0..<count, using: &generator)
            shelf.books[index].state = [.browsing, .reading(index), .lending(to: "ann", Shelf.Page(number: 1, text: "x"))][Int.random(in: 0..<3, using: &generator)]
        case 5 where count > 0:
            let index = Int.random(in: 0..<count, using: &generator)
            shelf.books[index].subtitle = shelf.books[index].subtitle == nil ? "sub" : nil
        case 6 where count > 0: shelf.books[Int.random(in: 0..<count, using: &generator)].pages.append(Shelf.Page(number: 9, text: "new"))
        case 7 where count > 1: shelf.books.swapAt(0, count - 1)
        case 8: shelf.byTitle["t\(Int.random(in: 0..<5, using: &generator))"] = book(Int.random(in: 0..<9, using: &generator))
        case 9 where !shelf.byTitle.isEmpty: shelf.byTitle.removeValue(forKey: shelf.byTitle.keys.sorted()[0])
        case 10: shelf.pinned = shelf.pinned == nil && count > 0 ? shelf.books[0] : nil
        case 11: shelf.matrix.append((0..<Int.random(in: 0..<3, using: &generator)).map { $0 })
        default: shelf.mode = .reading(Int.random(in: 0..<3, using: &generator))
        }
    }
}

/// Encodes a sequence of states the way the recorder does: two encoders taking
/// turns, each document reusing what it can of the one before.
private struct ReusingEncoders {
    private var previous: _StreamingEncoder?
    private var next = ReusingEncoders.make()
    private(set) var reused = 0

    private static func make() -> _StreamingEncoder {
        let encoder = _StreamingEncoder()
        encoder.indexing = true
        encoder.keepsValueCopies = true
        return encoder
    }

    mutating func encode<T: Encodable>(_ value: T) throws -> (bytes: [UInt8], nodes: [_IndexNode]) {
        let encoder = next
        encoder.prepareForNextDocument(keepingCapacityUpTo: 1 << 20)
        let before = encoder.reusedValueCount
        encoder.reusingUnchangedValues(from: previous)
        try encoder.encodeTopLevel(value)
        reused += encoder.reusedValueCount - before
        next = previous ?? Self.make()
        previous = encoder
        return (encoder.bytes, Array(encoder.nodes.unsafeElements))
    }
}

private func fresh<T: Encodable>(_ value: T) throws -> (bytes: [UInt8], nodes: [_IndexNode]) {
    let encoder = _StreamingEncoder()
    encoder.indexing = true
    try encoder.encodeTopLevel(value)
    return (encoder.bytes, Array(encoder.nodes.unsafeElements))
}

private final class Counter: Codable {
    var count = 0
}

private struct Panel: Codable {
    var title = "panel"
    var counter = Counter()
}

@Suite struct UnchangedValueReuseTests {
    @Test func reusingUnchangedValuesGivesTheBytesAndIndexOfAFreshEncode() throws {
        var generator = SplitMix64(seed: 11)
        var encoders = ReusingEncoders()
        var shelf = Shelf()
        for step in 0..<600 {
            mutate(&shelf, &generator)
            let reused = try encoders.encode(shelf), expected = try fresh(shelf)
            #expect(String(decoding: reused.bytes, as: UTF8.self) == String(decoding: expected.bytes, as: UTF8.self), "step \(step)")
            #expect(reused.nodes == expected.nodes, "step \(step)")
        }
        // Most of each state is unchanged from one step to the next: reuse must have happened.
        #expect(encoders.reused > 1_000)
    }

    @Test func theSampleDomainsEncodeTheSameWithReuse() throws {
        var encoders = ReusingEncoders()
        var state = SampleDomains.TodoState()
        for _ in 0..<3 {
            for action in TodoDomain.script {
                TodoDomain.reduce(&state, action)
                #expect(try encoders.encode(state).bytes == fresh(state).bytes)
            }
        }
        #expect(encoders.reused > 0)
    }

    @Test func aValueHoldingAClassInstanceIsEncodedAgainEveryTime() throws {
        var encoders = ReusingEncoders()
        let panels = [Panel(), Panel()]
        _ = try encoders.encode(panels)
        // The app mutates the instance; the struct holding it keeps the same bits.
        panels[1].counter.count = 7
        let second = try encoders.encode(panels)
        #expect(String(decoding: second.bytes, as: UTF8.self) == #"[{"title":"panel","counter":{"count":0}},{"title":"panel","counter":{"count":7}}]"#)
    }

    @Test func aRecordingWithReuseIsByteForByteTheRecordingWithout() throws {
        let directory = TemporaryDirectory()
        let actions = randomTodoActions(count: 600, seed: 5)
        // Fresh options for each: the fixed clock counts its readings.
        func options(reusing: Bool) -> ActionRecorder.Options {
            var options = testOptions()
            options.sessionID = "reuse"
            options.reusesUnchangedValues = reusing
            return options
        }
        try recordTodos(actions, to: directory.file("with.jsonl"), options: options(reusing: true))
        try recordTodos(actions, to: directory.file("without.jsonl"), options: options(reusing: false))
        let with = try Data(contentsOf: URL(fileURLWithPath: directory.file("with.jsonl")))
        let without = try Data(contentsOf: URL(fileURLWithPath: directory.file("without.jsonl")))
        #expect(with.count > 10_000)
        #expect(with == without)
    }
}

private final class Delegate {}

/// A value type that cannot be moved bit by bit (it holds a `weak` reference).
private struct Row: Codable {
    var title: String
    weak var delegate: Delegate?
    enum CodingKeys: String, CodingKey { case title }
}

extension UnchangedValueReuseTests {
    @Test func valuesThatCannotMoveBitByBitAreCopiedAndStillReused() throws {
        let delegate = Delegate()
        var encoders = ReusingEncoders()
        var rows = (0..<20).map { Row(title: "row \($0)", delegate: delegate) }
        for step in 0..<30 {
            rows[step % rows.count].title += "."
            #expect(try encoders.encode(rows).bytes == fresh(rows).bytes)
        }
        #expect(encoders.reused > 0)
        withExtendedLifetime(delegate) {}
    }
}

private struct Padded {
    var flag: Bool        // 0, then 7 bytes of padding
    var count: Int        // 8..<16
    var inner: Inner      // 16..<32: a Bool, 7 bytes of padding, an Int
    var choice: Choice?   // 32..<49: counts in full
    struct Inner { var on: Bool; var value: Int }
    enum Choice { case small(Int8), large(Int, Int) }
}

extension UnchangedValueReuseTests {
    @Test func paddingIsTheBytesNoFieldOfAStructHolds() {
        #expect(_PaddingLayout(of: Padded.self).gaps == [1..<8, 17..<24])
        #expect(_PaddingLayout(of: Padded.Choice.self).gaps == [])
        #expect(_PaddingLayout(of: String.self).gaps == [])
        #expect(_PaddingLayout(of: (Bool, Int).self).gaps == [1..<8])
    }
}
