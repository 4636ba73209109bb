import Testing
@testable import RewindJSON

private func pointer(_ text: String) -> JSONPointer { try! JSONPointer(parsing: text) }

private func rows(_ ids: [Int]) -> JSONValue {
    .array(ids.map { .object(JSONObject([("id", .integer(Int64($0))), ("title", .string("row \($0)"))])) })
}

@Suite struct JSONDiffTests {
    @Test func objectsAreComparedByKey() throws {
        let old: JSONValue = ["count": 1, "name": "a", "gone": true, "nested": ["x": 1, "y": 2]]
        let new: JSONValue = ["name": "a", "count": 2, "nested": ["x": 1, "y": 3], "added": nil]
        let patch = JSONDiff.patch(from: old, to: new)
        #expect(JSONWriter.compactString(patch.jsonValue) == """
            [{"op":"remove","path":"/gone"},{"op":"replace","path":"/count","value":2},\
            {"op":"replace","path":"/nested/y","value":3},{"op":"add","path":"/added","value":null}]
            """)
        #expect(try patch.applied(to: old) == new)
        #expect(JSONDiff.patch(from: old, to: old).isEmpty)
    }

    @Test func removingOneElementFromTheMiddleOfALongArrayIsOneRemove() throws {
        let old = rows(Array(0..<10_000))
        let new = rows(Array(0..<5_000) + Array(5_001..<10_000))
        let patch = JSONDiff.patch(from: old, to: new)
        #expect(patch.operations == [.remove(path: pointer("/5000"))])
        #expect(try patch.applied(to: old) == new)

        let numbers = JSONValue.array((0..<10_000).map { .integer(Int64($0 % 97)) })
        var fewer = numbers.arrayValue!
        fewer.remove(at: 4_321)
        #expect(JSONDiff.patch(from: numbers, to: .array(fewer)).operations == [.remove(path: pointer("/4321"))])
    }

    @Test func elementsWithAnIdentityAreDiffedInPlace() throws {
        let old: JSONValue = [["id": 1, "done": false], ["id": 2, "done": false], ["id": 3, "done": false]]
        let new: JSONValue = [["id": 1, "done": false], ["id": 3, "done": true]]
        let patch = JSONDiff.patch(from: old, to: new)
        #expect(patch.operations == [.remove(path: pointer("/1")), .replace(path: pointer("/1/done"), value: true)])
        #expect(try patch.applied(to: old) == new)

        var byWholeValue = JSONDiffOptions()
        byWholeValue.identityFields = []
        let wholeValuePatch = JSONDiff.patch(from: old, to: new, options: byWholeValue)
        #expect(try wholeValuePatch.applied(to: old) == new)
        #expect(wholeValuePatch.operations.count > patch.operations.count)

        var custom = JSONDiffOptions()
        custom.identityFields = ["sku"]
        let products: JSONValue = [["sku": "a", "n": 1], ["sku": "b", "n": 1]]
        let restocked: JSONValue = [["sku": "b", "n": 2]]
        #expect(JSONDiff.patch(from: products, to: restocked, options: custom).operations
                == [.remove(path: pointer("/0")), .replace(path: pointer("/0/n"), value: 2)])
    }

    @Test func anElementThatOnlyChangedPlaceIsAMove() throws {
        let old: JSONValue = ["a", "b", "c", "d", "e"]
        let new: JSONValue = ["a", "c", "d", "e", "b"]
        let patch = JSONDiff.patch(from: old, to: new)
        #expect(patch.operations == [.move(from: pointer("/1"), path: pointer("/4"))])
        #expect(try patch.applied(to: old) == new)

        let moved = JSONDiff.patch(from: rows([1, 2, 3, 4]), to: rows([4, 1, 2, 3]))
        #expect(moved.operations == [.move(from: pointer("/3"), path: pointer("/0"))])

        var noMoves = JSONDiffOptions()
        noMoves.detectsMoves = false
        let withoutMoves = JSONDiff.patch(from: old, to: new, options: noMoves)
        #expect(withoutMoves.operations == [.remove(path: pointer("/1")), .add(path: pointer("/-"), value: "b")])
    }

    @Test func elementsWithoutIdentityThatChangedInPlaceAreDiffedInside() throws {
        let old: JSONValue = [["title": "milk", "done": false], ["title": "tests", "done": false], 7]
        let new: JSONValue = [["title": "milk", "done": true], ["title": "tests", "done": false], 8, 9]
        #expect(JSONDiff.patch(from: old, to: new).operations == [
            .replace(path: pointer("/0/done"), value: true), .replace(path: pointer("/2"), value: 8), .add(path: pointer("/-"), value: 9),
        ])
    }

    @Test func pathologicalArraysFallBackToPositionalComparison() throws {
        var options = JSONDiffOptions()
        options.maximumEditDistance = 50
        let old = JSONValue.array((0..<3_000).map { .integer(Int64($0)) })
        let new = JSONValue.array((0..<2_990).reversed().map { .integer(Int64($0)) })
        let patch = JSONDiff.patch(from: old, to: new, options: options)
        #expect(try patch.applied(to: old) == new)
        #expect(patch.operations.count == 2_990 + 10)  // replaced element-wise, tail removed
    }

    @Test func appliesToEveryGeneratedPair() throws {
        var generator = SplitMix64(seed: 2_024)
        var moves = 0
        for _ in 0..<400 {
            let old = RandomJSON.document(using: &generator)
            let new = RandomJSON.mutate(old, using: &generator)
            let patch = JSONDiff.patch(from: old, to: new)
            let result = try patch.applied(to: old)
            #expect(result == new, "patch \(patch.jsonValue) from \(old) gave \(result), not \(new)")
            #expect(try JSONPatch(jsonValue: patch.jsonValue) == patch)
            if old == new { #expect(patch.isEmpty && JSONDiff.treeText(from: old, to: new) == nil) }
            moves += patch.operations.filter { $0.name == "move" }.count
        }
        #expect(moves > 0)  // the generated edits really exercise move detection
    }

    @Test func changedPathsListsEachTouchedLocationOnce() {
        let patch = JSONPatch([
            .replace(path: pointer("/a"), value: 1), .move(from: pointer("/b/0"), path: pointer("/b/2")),
            .replace(path: pointer("/a"), value: 2),
        ])
        #expect(JSONDiff.changedPaths(in: patch) == [pointer("/a"), pointer("/b/0"), pointer("/b/2")])
    }
}

/// Random documents and random edits of them, for property tests.
enum RandomJSON {
    static func document(using generator: inout SplitMix64, depth: Int = 0) -> JSONValue {
        let pick = Int(generator.next() % (depth > 3 ? 5 : 8))
        switch pick {
        case 0: return .null
        case 1: return .bool(generator.next() % 2 == 0)
        case 2: return .integer(Int64(generator.next() % 20))
        case 3: return .double(Double(generator.next() % 1000) / 8)
        case 4: return .string(["a", "b", "c", "~/", "é"][Int(generator.next() % 5)])
        case 5, 6:
            let count = Int(generator.next() % 8)
            let withIDs = generator.next() % 3 == 0
            return .array((0..<count).map { index in
                var element = document(using: &generator, depth: depth + 1)
                if withIDs { element = .object(JSONObject([("id", .integer(Int64(index))), ("v", element)])) }
                return element
            })
        default:
            var object = JSONObject()
            for _ in 0..<Int(generator.next() % 6) {
                object[["k", "l", "m", "n", "a/b", "~"][Int(generator.next() % 6)]] = document(using: &generator, depth: depth + 1)
            }
            return .object(object)
        }
    }

    static func mutate(_ value: JSONValue, using generator: inout SplitMix64, depth: Int = 0) -> JSONValue {
        if generator.next() % 10 == 0 { return document(using: &generator, depth: depth) }
        switch value {
        case .array(var elements):
            for _ in 0..<Int(generator.next() % 4) {
                switch generator.next() % 4 {
                case 0 where !elements.isEmpty: elements.remove(at: Int(generator.next() % UInt64(elements.count)))
                case 1: elements.insert(document(using: &generator, depth: depth + 1), at: Int(generator.next() % UInt64(elements.count + 1)))
                case 2 where !elements.isEmpty:
                    let element = elements.remove(at: Int(generator.next() % UInt64(elements.count)))
                    elements.insert(element, at: Int(generator.next() % UInt64(elements.count + 1)))
                case 3 where !elements.isEmpty:
                    let index = Int(generator.next() % UInt64(elements.count))
                    elements[index] = mutate(elements[index], using: &generator, depth: depth + 1)
                default: break
                }
            }
            return .array(elements)
        case .object(var object):
            for key in object.keys where generator.next() % 3 == 0 {
                object[key] = generator.next() % 4 == 0 ? nil : mutate(object[key]!, using: &generator, depth: depth + 1)
            }
            if generator.next() % 3 == 0 { object["new\(generator.next() % 3)"] = document(using: &generator, depth: depth + 1) }
            return .object(object)
        default:
            return generator.next() % 2 == 0 ? value : document(using: &generator, depth: depth)
        }
    }
}
