import Testing
@testable import RewindJSON
@testable import RewindQuery

/// The values a path scan keeps (`PatchedPathValues`, what `rewind find`
/// reads) against the definition: the whole document patched with
/// `JSONPatch.apply`, read at the same paths. Random documents and operations
/// of every kind, at, above, under and beside the watched paths, arrays
/// growing and shrinking before and after watched elements, operations that fail.
@Suite struct PatchedPathValuesTests {
    /// Paths in and around the random documents, some never there.
    static let pool: [[String]] = [
        [], ["n"], ["items"], ["items", "0"], ["items", "1"], ["items", "2"], ["items", "4"], ["items", "-"], ["items", "01"],
        ["items", "0", "v"], ["items", "1", "v"], ["items", "3", "v"], ["user"], ["user", "name"], ["tags"], ["tags", "0"],
        ["tags", "1"], ["nowhere", "x"], ["n", "x"],
    ]

    static func randomValue(_ generator: inout SplitMix64) -> JSONValue {
        switch generator.next() % 6 {
        case 0: return .integer(Int64(generator.next() % 5))
        case 1: return ["v": .integer(Int64(generator.next() % 5))]
        case 2: return [.integer(1), ["v": 2]]
        case 3: return ["name": .string(generator.next() % 2 == 0 ? "ann" : "bob")]
        case 4: return .string("t\(generator.next() % 3)")
        default: return ["n": 1, "items": [["v": 1], ["v": 2]], "tags": []]
        }
    }

    static func randomOperation(_ generator: inout SplitMix64) -> JSONPatchOperation {
        func path() -> JSONPointer { JSONPointer(tokens: pool[Int(generator.next() % UInt64(pool.count))]) }
        switch generator.next() % 10 {
        case 0, 1: return .replace(path: path(), value: randomValue(&generator))
        case 2, 3: return .add(path: path(), value: randomValue(&generator))
        case 4, 5: return .remove(path: path())
        case 6: return .test(path: path(), value: randomValue(&generator))
        case 7: return .move(from: path(), path: path())
        case 8: return .copy(from: path(), path: path())
        default:
            // Inserts and removals in the middle of the array, before and after watched elements.
            let index = String(generator.next() % 3)
            return generator.next() % 2 == 0 ? .add(path: JSONPointer(tokens: ["items", index]), value: randomValue(&generator))
                : .remove(path: JSONPointer(tokens: ["items", index]))
        }
    }

    static let start: JSONValue = ["n": 0, "items": [["v": 1], ["v": 2], ["v": 3], ["v": 4]], "user": ["name": "ann"], "tags": ["t0"]]

    /// A keyframe's state as `rewind find` hands it over: kept as its bytes.
    static func lazy(_ document: JSONValue) -> LazyJSONDocument {
        guard case .lazy(let lazy)? = JSONWriter.compact(document).withUnsafeBufferPointer(LazyJSONDocument.read) else {
            fatalError("a compact document is kept as bytes")
        }
        return lazy
    }

    @Test(arguments: [false, true])
    func theValuesAreThoseOfTheWholePatchedDocument(keyframesAsBytes: Bool) {
        var generator = SplitMix64(seed: 6902)
        var compared = 0, failed = 0, rebuilds = 0, operations = 0
        for round in 0..<400 {
            let watched = (0..<(1 + Int(generator.next() % 3))).map { _ in JSONPointer(tokens: Self.pool[Int(generator.next() % UInt64(Self.pool.count))]) }
            var document = Self.start
            var values = PatchedPathValues(watching: watched, in: document)
            if keyframesAsBytes { values.reset(to: Self.lazy(document)) }
            for step in 0..<60 {
                let operation = Self.randomOperation(&generator)
                operations += 1
                var expected = true
                do { try JSONPatch.apply(operation, to: &document) } catch { expected = false }
                let applied = values.apply(operation)
                #expect(applied == expected, "round \(round), step \(step): \(operation) on \(watched)")
                guard expected, applied else {
                    // As a scan does after a failure: start again from a whole state.
                    failed += 1
                    document = Self.start
                    if keyframesAsBytes { values.reset(to: Self.lazy(document)) } else { values.reset(to: document) }
                    continue
                }
                for (position, path) in watched.enumerated() {
                    #expect(values.value(at: position) == document[pointer: path], "round \(round), step \(step): \(operation), \(path)")
                    compared += 1
                }
            }
            rebuilds += values.rebuilds
        }
        #expect(compared > 10_000)
        #expect(failed > 1_000, "operations that fail are in the mix")
        // Both ways are taken: most operations on the values alone, some by rebuilding the document.
        #expect(rebuilds > 500 && rebuilds < operations / 2, "\(rebuilds) rebuilds in \(operations) operations")
    }

    @Test func aReplaceBesideTheWatchedPathsNeedsNoRebuild() {
        var values = PatchedPathValues(watching: [JSONPointer(tokens: ["n"])], in: Self.start)
        for index in 0..<100 {
            let beside = values.apply(.replace(path: JSONPointer(tokens: ["items", String(index % 4), "v"]), value: .integer(Int64(index))))
            let watched = values.apply(.replace(path: JSONPointer(tokens: ["n"]), value: .integer(Int64(index))))
            #expect(beside && watched)
            #expect(values.value(at: 0) == .integer(Int64(index)))
        }
        let missing = values.apply(.replace(path: JSONPointer(tokens: ["items", "9", "v"]), value: 1))
        #expect(!missing, "a path that is not there")
        #expect(values.rebuilds == 0)
    }

    /// A path of 16,000 tokens (a query may hold one; a patch may name any) is
    /// known with a table entry per level holding its tokens once: when each
    /// ancestor kept a pointer of its own, it held 128 million tokens (44 s, 2 GB).
    @Test func aDeepPathIsKnownInProportionToItsLength() {
        let deep = JSONPointer(tokens: Array(repeating: "a", count: 16_000))
        var values = PatchedPathValues(watching: [deep, JSONPointer(tokens: ["n"])], in: Self.start)
        #expect(values.value(at: 0) == nil)
        let replaced = values.apply(.replace(path: JSONPointer(tokens: ["n"]), value: 3))
        let removed = values.apply(.remove(path: JSONPointer(tokens: Array(repeating: "a", count: 15_000))))
        #expect(replaced && !removed, "a path that is not there cannot be removed")
        #expect(values.value(at: 1) == 3)
        let known = values.knownPaths
        #expect(known.count == 16_000 + 2, "the document, 16,000 levels and /n")
        #expect(known.tokens <= 16_000 + 15_000 + 1, "\(known.tokens) tokens held")
    }
}
