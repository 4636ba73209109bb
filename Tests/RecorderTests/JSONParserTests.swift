import Foundation
import Testing
@testable import Recorder

@Suite struct JSONParserTests {
    @Test func parsesNestedDocumentsKeepingKeyOrder() throws {
        let value = try JSONParser.parse(#"{"b":1,"a":[true,null,"x\n",2.5,-0,1e3]}"#)
        #expect(value.objectValue?.keys == ["b", "a"])
        #expect(JSONWriter.compactString(value) == #"{"b":1,"a":[true,null,"x\n",2.5,0,1000]}"#)
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
        #expect(try JSONParser.parse("9223372036854775808") == .double(9223372036854775808))
        #expect(try JSONParser.parse("0.1") == .double(0.1))
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
}
