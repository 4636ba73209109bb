import Foundation
import Testing
@testable import RewindJSON

@Suite struct JSONParserTests {
    @Test func parsesNestedDocumentsKeepingKeyOrder() throws {
        let value = try JSONParser.parse(#"{"b":1,"a":[true,null,"x\n",2.5,-0,1e3]}"#)
        #expect(value.objectValue?.keys == ["b", "a"])
        #expect(JSONWriter.compactString(value) == #"{"b":1,"a":[true,null,"x\n",2.5,-0,1000]}"#)
    }

    @Test func readsBackWhatTheWriterWrites() throws {
        var generator = SplitMix64(seed: 99)
        for _ in 0..<300 {
            let value = RandomJSON.document(using: &generator)
            #expect(try JSONParser.parse(JSONWriter.compact(value)) == value)
            #expect(try JSONParser.parse(JSONWriter.prettyString(value)) == value)
        }
        let nested: JSONValue = [["a": [["b": [1, ["c": "d"]]], 2]], ["e": []], [], [:]]
        #expect(try JSONParser.parse(JSONWriter.compact(nested)) == nested)
    }

    @Test func decodesEscapesAndValidatesUTF8() throws {
        #expect(try JSONParser.parse(#""a\"b\\c\/d\b\f\n\r\t\u00e9\ud83e\udd8a long enough to use the wide scan""#)
                == .string("a\"b\\c/d\u{08}\u{0C}\n\r\té🦊 long enough to use the wide scan"))
        #expect(try JSONParser.parse("\"Zoë 🦊 and more than eight bytes\"") == .string("Zoë 🦊 and more than eight bytes"))
        #expect(throws: JSONParseError.self) { try JSONParser.parse([0x22, 0xC3, 0x28, 0x22]) }  // invalid UTF-8
        #expect(throws: JSONParseError.self) { try JSONParser.parse(#""\ud800""#) }  // lone surrogate
        #expect(throws: JSONParseError.self) { try JSONParser.parse("\"tab\tinside\"") }
    }

    @Test func repeatedKeysKeepTheirFirstPositionAndLastValue() throws {
        #expect(JSONWriter.compactString(try JSONParser.parse(#"{"a":1,"b":2,"a":3}"#)) == #"{"a":3,"b":2}"#)
        let many = "{" + (0..<40).map { "\"k\($0 % 20)\":\($0)" }.joined(separator: ",") + "}"
        let object = try JSONParser.parse(many).objectValue!
        #expect(object.count == 20)
        #expect(object["k0"] == 20)
        #expect(object.keys.first == "k0")
    }

    @Test func numbersStayExactWhenTheyFitAnInteger() throws {
        #expect(try JSONParser.parse("9223372036854775807") == .integer(.max))
        #expect(try JSONParser.parse("-9223372036854775808") == .integer(.min))
        // Beyond Int64, an integer keeps its digits (not the nearest double, 9.223372036854776e+18).
        #expect(try JSONParser.parse("9223372036854775808") == .number(JSONNumber("9223372036854775808")!))
        #expect(try JSONParser.parse("0.1") == .double(0.1))
        #expect(try JSONParser.parse("1E2") == .double(100))
        #expect(try JSONParser.parse("[-0,999999999999999999,-999999999999999999,1000000000000000000]")
                == [.double(-0.0), .integer(999_999_999_999_999_999), .integer(-999_999_999_999_999_999), .integer(1_000_000_000_000_000_000)])
        var generator = SplitMix64(seed: 5)
        for _ in 0..<2_000 {
            let value = Int64(bitPattern: generator.next()) >> (generator.next() % 64)
            #expect(try JSONParser.parse(String(value)) == .integer(value))
        }
        #expect(throws: JSONParseError.self) { try JSONParser.parse("01") }
        #expect(throws: JSONParseError.self) { try JSONParser.parse("1.") }
    }

    @Test func reportsLineAndColumnOfTheProblem() {
        #expect(throws: JSONParseError.self) { try JSONParser.parse("{\n  \"a\": 1,\n}") }
        do {
            _ = try JSONParser.parse("{\n  \"a\": 1,\n}")
        } catch {
            #expect(error.line == 3)
            #expect(error.column == 1)
            #expect(error.offset == 12)
            #expect(error.description == "line 3, column 1 (byte 12): expected a string key in an object")
        }
        do {
            _ = try JSONParser.parse("[1, 2]   x")
        } catch {
            #expect(error.description == "line 1, column 10 (byte 9): unexpected data after the JSON value")
        }
    }

    @Test func nestingDeeperThanTheLimitIsAnErrorNotAStackOverflow() {
        let limit = JSONParser.maximumDepth
        #expect(throws: Never.self) { try JSONParser.parse(String(repeating: "[", count: limit) + String(repeating: "]", count: limit)) }
        do {
            _ = try JSONParser.parse(String(repeating: "[", count: 100_000))
            Issue.record("expected a depth error")
        } catch {
            #expect(error.reason == "nesting deeper than \(limit) levels")
            #expect(error.offset == limit)
        }
    }

    // The parser shares one keys array among objects of the same shape and
    // recognises their keys from the raw bytes; none of that may change what
    // is parsed, whatever mix of shapes, orders and awkward keys comes along.
    @Test func objectsOfChangingShapesKeepTheirExactKeysAndOrder() throws {
        let pool = ["id", "title", "notes", "done", "a key longer than fifteen bytes", "quote\"d", "back\\slash", "zoë", "x"]
        var generator = SplitMix64(seed: 7)
        var objects: [JSONValue] = []
        for index in 0..<3_000 {
            var keys = pool.filter { _ in generator.next() % 4 != 0 }
            if generator.next() % 3 == 0 { keys.shuffle(using: &generator) }
            objects.append(.object(JSONObject(keys.map { ($0, JSONValue.integer(Int64(index))) })))
        }
        let document = JSONValue.array([.array(objects), ["nested": .array(objects)]])
        let parsed = try JSONParser.parse(JSONWriter.compact(document))
        #expect(parsed == document)
        let parsedObjects = parsed[0]?.arrayValue ?? []
        #expect(parsedObjects.count == objects.count)
        for (parsedObject, object) in zip(parsedObjects, objects) where parsedObject.objectValue?.keys != object.objectValue?.keys {
            Issue.record("keys \(parsedObject.objectValue?.keys ?? []) differ from \(object.objectValue?.keys ?? [])")
            break
        }
    }

    // A scan parses keyframe after keyframe with the shapes the ones before
    // taught it (`JSONParser.ShapeMemory`): each document still reads exactly
    // as it does alone, whatever shapes the earlier ones had, and editing an
    // object parsed earlier changes nothing parsed later.
    @Test func shapesCarriedFromOneParseToTheNextChangeNothingParsed() throws {
        let pool = ["id", "name", "value", "a key longer than fifteen bytes", "quote\"d", "zoë", "x"]
        var generator = SplitMix64(seed: 17)
        var shapes = JSONParser.ShapeMemory()
        var kept: [(parsed: JSONValue, alone: JSONValue)] = []
        for round in 0..<200 {
            var keys = pool.filter { _ in generator.next() % 3 != 0 }
            if generator.next() % 4 == 0 { keys.shuffle(using: &generator) }
            let items = (0..<Int(generator.next() % 6)).map { index in
                JSONValue.object(JSONObject(keys.map { ($0, JSONValue.integer(Int64(round * 10 + index))) }))
            }
            let bytes = JSONWriter.compact(["counter": .integer(Int64(round)), "items": .array(items), "deep": ["items": .array(items)]])
            let alone = try JSONParser.parse(bytes)
            let parsed = try bytes.withUnsafeBufferPointer { try JSONParser.parse(buffer: $0, shapes: &shapes) }
            #expect(parsed == alone)
            #expect(JSONWriter.compact(parsed) == bytes, "round \(round): keys or their order changed")
            if var first = parsed[pointer: JSONPointer(tokens: ["items", "0"])]?.objectValue {
                first["added"] = .bool(true)
                first["id"] = nil
            }
            kept.append((parsed, alone))
        }
        for (parsed, alone) in kept { #expect(parsed == alone) }
    }

    @Test func aKeyThatOnlyStartsLikeAKnownOneIsNotMistakenForIt() throws {
        let text = #"[{"ab":1,"c":2},{"ab":3,"c":4},{"abc":5,"c":6},{"a":7,"c":8},{"ab":9},{"ab":10,"c":11,"d":12},{"a\u0062":13,"c":14}]"#
        #expect(JSONWriter.compactString(try JSONParser.parse(text))
                == #"[{"ab":1,"c":2},{"ab":3,"c":4},{"abc":5,"c":6},{"a":7,"c":8},{"ab":9},{"ab":10,"c":11,"d":12},{"ab":13,"c":14}]"#)
    }

    @Test func repeatedKeysCanBeRejected() throws {
        #expect(throws: Never.self) { try JSONParser.parse(#"[{"a":1,"b":2},{"a":1,"b":2}]"#, duplicateKeys: .reject) }
        do {
            _ = try JSONParser.parse(#"[{"a":1},{"b":{"c":1,"c":2}}]"#, duplicateKeys: .reject)
            Issue.record("expected an error for the repeated key")
        } catch {
            #expect(error.description == #"line 1, column 15 (byte 14): the key "c" appears twice in one object"#)
        }
        let large = "{" + (0..<30).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + ",\"k3\":0}"
        #expect(throws: JSONParseError.self) { try JSONParser.parse(large, duplicateKeys: .reject) }
    }

    @Test func decimalNumbersParseToTheNearestDouble() throws {
        var generator = SplitMix64(seed: 21)
        for _ in 0..<5_000 {
            let digits = String((0..<Int(generator.next() % 18 + 1)).map { _ in Character(String(generator.next() % 10)) })
            let point = Int(generator.next() % UInt64(digits.count + 1))
            var text = String(digits.prefix(point).isEmpty ? "0" : digits.prefix(point)).replacing(/^0+(?=\d)/, with: "")
            if point < digits.count { text += "." + digits.dropFirst(point) }
            if generator.next() % 2 == 0 { text += "e\(Int(generator.next() % 61) - 30)" }
            if generator.next() % 2 == 0 { text = "-" + text }
            let parsed = try JSONParser.parse(text)
            let expected = Double(text)!
            let value = parsed.doubleValue ?? .nan
            if value.bitPattern != expected.bitPattern && !(parsed.int64Value != nil && Double(parsed.int64Value!) == expected) {
                Issue.record("\(text) parsed as \(value), expected \(expected)")
                break
            }
        }
        for _ in 0..<5_000 {
            let double = Double(bitPattern: generator.next())
            guard double.isFinite else { continue }
            #expect(try JSONParser.parse(JSONWriter.compact(.double(double))).doubleValue?.bitPattern == double.bitPattern)
        }
        #expect(try JSONParser.parse("-0.0").doubleValue?.sign == .minus)
        #expect(try JSONParser.parse("0e-400") == .double(0))
        // What a double cannot hold as written stays the number that was written; its nearest double is still there.
        #expect(try JSONParser.parse("1e-400") == .number(JSONNumber("1e-400")!))
        #expect(try JSONParser.parse("1e-400").doubleValue == 0)
        #expect(try JSONParser.parse("123456789012345678e-5") == .number(JSONNumber("123456789012345678e-5")!))
        #expect(try JSONParser.parse("123456789012345678e-5").doubleValue == 1234567890123.45678)
    }

    @Test func malformedUTF8IsRejectedInStringsOfEveryLength() throws {
        let malformed: [[UInt8]] = [
            [0xC0, 0xAF],              // overlong '/'
            [0xE0, 0x80, 0xAF],        // overlong 3-byte
            [0xED, 0xA0, 0x80],        // UTF-16 surrogate
            [0xF4, 0x90, 0x80, 0x80],  // above U+10FFFF
            [0xE2, 0x82],              // truncated
            [0x80],                    // lone continuation byte
            [0xF8, 0x88, 0x80, 0x80, 0x80],
        ]
        for bad in malformed {
            for padding in [0, 20, 100] {  // short, shared-medium and long strings take different paths
                let text = [0x22] + Array(repeating: UInt8(ascii: "a"), count: padding) + bad + [0x22]
                #expect(throws: JSONParseError.self, "\(bad) after \(padding) bytes") { try JSONParser.parse(text) }
                let escaped = [0x22, UInt8(ascii: "\\"), UInt8(ascii: "n")] + Array(repeating: UInt8(ascii: "a"), count: padding) + bad + [0x22]
                #expect(throws: JSONParseError.self, "\(bad) in an escaped string") { try JSONParser.parse(escaped) }
            }
        }
        #expect(try JSONParser.parse([0x22, 0xF0, 0x9F, 0xA6, 0x8A, 0xE2, 0x82, 0xAC, 0xC3, 0xA9, 0x22]) == .string("🦊€é"))
    }

    @Test func repeatedStringsOfMediumLengthComeBackIntact() throws {
        var generator = SplitMix64(seed: 3)
        let pool = (0..<700).map { index in "user\(index)@example.com" + String(repeating: "x", count: index % 40) }
        let values = (0..<6_000).map { _ in JSONValue.string(pool[Int(generator.next() % UInt64(pool.count))]) }
        #expect(try JSONParser.parse(JSONWriter.compact(.array(values))) == .array(values))
    }
}

