import Foundation
import Testing
@testable import RewindJSON
@testable import RewindQuery

/// A keyframe's state kept as bytes with its tape (`LazyJSONDocument`, what
/// `rewind find` looks values up in; the tape is the fast path, `rewind_json_tape`)
/// against the parsed document, the reference: the same value at every path, and
/// read exactly when the parser reads the bytes.
@Suite struct LazyJSONDocumentTests {
    /// Writes `value` as JSON the way people and other tools might: random
    /// spaces, keys with escapes, a key written twice (the first one a decoy:
    /// the parser keeps the last).
    static func write(_ value: JSONValue, _ generator: inout SplitMix64) -> String {
        func space() -> String { ["", "", " ", "\n  ", "\t"][Int(generator.next() % 5)] }
        switch value {
        case .object(let object):
            var members: [String] = []
            for (key, member) in object.members {
                let written = generator.next() % 4 == 0 ? escaped(key) : String(decoding: JSONWriter.compact(.string(key)), as: UTF8.self)
                if generator.next() % 6 == 0 { members.append(space() + written + space() + ":" + space() + "\"decoy\"") }
                members.append(space() + written + space() + ":" + space() + write(member, &generator) + space())
            }
            return "{" + members.joined(separator: ",") + space() + "}"
        case .array(let elements):
            return "[" + elements.map { space() + write($0, &generator) + space() }.joined(separator: ",") + "]"
        default:
            return String(decoding: JSONWriter.compact(value), as: UTF8.self)
        }
    }

    /// A key with every character written as a `\u` escape.
    static func escaped(_ key: String) -> String {
        "\"" + key.utf16.map { String(format: "\\u%04x", $0) }.joined() + "\""
    }

    /// Values of every kind: keys and strings with escapes to write, non-ASCII text,
    /// strings long enough for the vector steps, decimals and 18-digit integers.
    static func randomDocument(_ generator: inout SplitMix64, depth: Int = 0) -> JSONValue {
        let keys = ["a", "b", "items", "é", "x y", "", "~1", "0", "long key number seventeen"]
        let strings = ["", "hi", "ü\u{1F600}", "a\"b\\c", "a string longer than thirty-two bytes, so vectors read it"]
        switch depth > 3 ? generator.next() % 4 : generator.next() % 7 {
        case 0: return .integer(Int64(generator.next() % 100))
        case 1: return .string(strings[Int(generator.next() % UInt64(strings.count))])
        case 2: return [.null, .bool(true), .bool(false), .double(1.5), .integer(123_456_789_012_345_678)][Int(generator.next() % 5)]
        case 3: return .integer(-Int64(generator.next() % 1000))
        case 4, 5:
            var object = JSONObject()
            for _ in 0..<Int(generator.next() % 5) {
                object[keys[Int(generator.next() % UInt64(keys.count))]] = randomDocument(&generator, depth: depth + 1)
            }
            return .object(object)
        default:
            return .array((0..<Int(generator.next() % 5)).map { _ in randomDocument(&generator, depth: depth + 1) })
        }
    }

    /// Every path into `value`, and some beside it that are not there.
    static func paths(in value: JSONValue, under prefix: [String] = []) -> [[String]] {
        var paths = [prefix, prefix + ["missing"], prefix + ["-"], prefix + ["01"], prefix + ["9"]]
        switch value {
        case .object(let object):
            for (key, member) in object.members { paths += Self.paths(in: member, under: prefix + [key]) }
        case .array(let elements):
            for (index, element) in elements.enumerated() { paths += Self.paths(in: element, under: prefix + [String(index)]) }
        default:
            break
        }
        return paths
    }

    static func read(_ text: String) -> LazyJSONDocument.Reading? {
        Array(text.utf8).withUnsafeBufferPointer { LazyJSONDocument.read($0) }
    }

    @Test func everyPathGivesTheValueOfTheParsedDocument() throws {
        var generator = SplitMix64(seed: 6901)
        var compared = 0, lazy = 0
        for round in 0..<600 {
            let document = Self.randomDocument(&generator)
            let text = Self.write(document, &generator)
            let parsed = try JSONParser.parse(text)
            guard case .lazy(let bytes)? = Self.read(text) else {
                Issue.record("round \(round): not kept as bytes: \(text)")
                continue
            }
            lazy += 1
            // Asked in a random order, so containers are met first from any side.
            var paths = Self.paths(in: parsed)
            paths.shuffle(using: &generator)
            for path in paths {
                #expect(bytes.value(atTokens: path) == parsed[pointer: JSONPointer(tokens: path)], "round \(round), \(path) in \(text)")
                compared += 1
            }
            #expect(bytes.whole == parsed, "round \(round): \(text)")
        }
        #expect(lazy == 600 && compared > 9_000, "\(compared) paths compared")
    }

    @Test func theLastOfRepeatedKeysWinsAsInTheParser() throws {
        let text = #"{"a":1,"b":{"c":2},"a":3,"\u0062":{"c":4}}"#
        guard case .lazy(let document)? = Self.read(text) else { Issue.record("not kept as bytes"); return }
        #expect(document.value(atTokens: ["a"]) == .integer(3))
        #expect(document.value(atTokens: ["b", "c"]) == .integer(4))
        #expect(try JSONParser.parse(text)[pointer: JSONPointer(tokens: ["b", "c"])] == .integer(4))
    }

    @Test func keysAreComparedByTheirScalars() {
        // "é" as one scalar and as "e" with a combining accent: equal Strings, different keys.
        guard case .lazy(let document)? = Self.read("{\"\u{E9}\":1,\"e\u{301}\":2}") else { Issue.record("not kept as bytes"); return }
        #expect(document.value(atTokens: ["\u{E9}"]) == .integer(1))
        #expect(document.value(atTokens: ["e\u{301}"]) == .integer(2))
    }

    /// Bytes put in place of others: JSON's structure, a raw newline and tab
    /// (invalid inside strings), a digit after which a zero leads, letters.
    static let replacements = Array(#"{}[],:"\ 0a-.e"#.utf8) + [0x0A, 0x09]

    @Test func bytesAreReadExactlyWhenTheParserReadsThem() {
        // Every one-byte deletion, change and cut of some valid documents: many invalid, some still valid.
        // Plain ones (the C tape judges them) and others (the Swift one does).
        let documents = [#"{"a":[1,2,{"b":"c"}],"d":null,"e":true}"#, #"[{"k":"v\u00e9"},-1.5e3,[],{}]"#, #" {"x" : [ 0 , "\\" ] } "#,
                         #" { "k" : [ 10 , -3 , "x y" , [ ] , { } ], "a string longer than sixteen" : false } "#]
        var generator = SplitMix64(seed: 8259)
        var invalid = 0, checked = 0
        for document in documents {
            let bytes = Array(document.utf8)
            var variants: [[UInt8]] = []
            for position in bytes.indices {
                var deleted = bytes
                deleted.remove(at: position)
                variants.append(deleted)
                var changed = bytes
                changed[position] = Self.replacements[Int(generator.next() % UInt64(Self.replacements.count))]
                variants.append(changed)
                variants.append(Array(bytes[..<position]))
                // A raw newline: space between values, invalid inside a string;
                // a zero: before a digit, a leading zero.
                for byte in [UInt8(0x0A), UInt8(ascii: "0")] {
                    var inserted = bytes
                    inserted.insert(byte, at: position)
                    variants.append(inserted)
                }
            }
            for variant in variants {
                let parsed = try? variant.withUnsafeBufferPointer { try JSONParser.parse(buffer: $0) }
                let reading = variant.withUnsafeBufferPointer { LazyJSONDocument.read($0) }
                let text = String(decoding: variant, as: UTF8.self)
                switch reading {
                case nil: #expect(parsed == nil, "\(text) parses")
                case .lazy(let document)?: #expect(parsed != nil && document.whole == parsed, "\(text)")
                case .parsed(let value)?: #expect(value == parsed, "\(text)")
                }
                if parsed == nil { invalid += 1 }
                checked += 1
            }
        }
        #expect(invalid > checked / 3, "\(invalid) of \(checked) invalid")
    }

    @Test func whatTheSkimmerLeavesToTheParserIsParsed() {
        // 19 digits: more than the skimmer judges; deep nesting: beyond its depth.
        for text in [#"{"big":1234567890123456789}"#, String(repeating: "[", count: 507) + String(repeating: "]", count: 507)] {
            guard case .parsed(let value)? = Self.read(text) else { Issue.record("not parsed: \(text.prefix(40))"); continue }
            #expect(value == (try? JSONParser.parse(text)))
        }
        #expect(Self.read(#"{"a":1"#) == nil)
    }
}
