import Foundation
import Testing
@testable import RewindJSON

private struct Address: Codable, Equatable {
    var street: String
    var zip: Int
}

private enum Mood: String, Codable { case happy, grumpy }

private struct Profile: Codable, Equatable {
    var name: String
    var age: Int
    var score: Double
    var ratio: Float
    var active: Bool
    var nickname: String?
    var missing: String?
    var tags: [String]
    var address: Address
    var history: [Address]
    var mood: Mood
    var joined: Date
    var avatar: Data
    var homepage: URL
    var balance: Decimal
    var byName: [String: Int]
    var byNumber: [Int: String]
    var byMood: [Mood: Bool]
    var byAddress: [Address: Int]?
    var big: UInt64
    var small: Int64
    var bytes: [UInt8]
    var nested: [[Int?]]
}

extension Address: Hashable {}

private let profile = Profile(
    name: "Zoë \"Z\" O'Neil\n\t\u{01}/\\ 🦊", age: 42, score: 0.1 + 0.2, ratio: 0.1, active: true,
    nickname: "zee", missing: nil, tags: ["a", "", "long tag that is longer than eight bytes"],
    address: Address(street: "Main", zip: 12345), history: [Address(street: "Old", zip: 1)],
    mood: .grumpy, joined: Date(timeIntervalSinceReferenceDate: 123_456.789), avatar: Data([0, 1, 2, 255]),
    homepage: URL(string: "https://example.com/a?b=c")!, balance: Decimal(string: "12.5")!,
    byName: ["x": 1], byNumber: [7: "seven"], byMood: [.happy: true], byAddress: [Address(street: "K", zip: 2): 3],
    big: UInt64.max, small: Int64.min, bytes: [1, 2, 3], nested: [[1, nil], []])

@Suite struct JSONEncodingTests {
    @Test func bytesDecodeBackWithFoundationsDefaultDecoder() throws {
        let bytes = try JSONEncoding.compact(profile)
        #expect(try JSONDecoder().decode(Profile.self, from: Data(bytes)) == profile)
    }

    @Test func valueTreeWritesTheSameJSONAsTheByteEncoder() throws {
        let tree = try JSONEncoding.value(of: profile)
        // The tree keeps UInt64.max as the nearest Double, so compare everything else exactly.
        var withoutBig = profile
        withoutBig.big = 7
        #expect(JSONWriter.compact(try JSONEncoding.value(of: withoutBig)) == (try JSONEncoding.compact(withoutBig)))
        #expect(tree["name"] == .string(profile.name))
        #expect(tree["missing"] == nil)
    }

    @Test func agreesWithJSONEncoderOnEveryValue() throws {
        var withoutBig = profile
        withoutBig.big = 7
        let ours = try JSONParser.parse(try JSONEncoding.compact(withoutBig))
        let foundation = try JSONParser.parse(try JSONEncoder().encode(withoutBig))
        #expect(ours == foundation)
    }

    @Test func keepsKeysInEncodingOrderAndOmitsNilOptionals() throws {
        struct Point: Encodable { var y = 2; var x = 1; var label: String? = nil; var z: Int? = 3 }
        #expect(String(decoding: try JSONEncoding.compact(Point()), as: UTF8.self) == #"{"y":2,"x":1,"z":3}"#)
        #expect(try JSONEncoding.value(of: Point()).objectValue?.keys == ["y", "x", "z"])
    }

    @Test func encodeNilWritesNull() throws {
        struct Explicit: Encodable {
            enum CodingKeys: String, CodingKey { case gone }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encodeNil(forKey: .gone)
            }
        }
        #expect(String(decoding: try JSONEncoding.compact(Explicit()), as: UTF8.self) == #"{"gone":null}"#)
        #expect(String(decoding: try JSONEncoding.compact([1, nil, 3] as [Int?]), as: UTF8.self) == "[1,null,3]")
    }

    @Test func doublesRoundTripExactly() throws {
        var generator = SplitMix64(seed: 7)
        var values: [Double] = [0, -0.0, 1, -1, 0.1, 1e-7, Double.leastNonzeroMagnitude, 1.7976931348623157e308, 123456789012345680, 1e15, 1e16, 3.0]
        for _ in 0..<2_000 { values.append(Double(bitPattern: generator.next() & 0x7FEF_FFFF_FFFF_FFFF)) }
        let bytes = try JSONEncoding.compact(values)
        let decoded = try JSONDecoder().decode([Double].self, from: Data(bytes))
        #expect(decoded.map(\.bitPattern) == values.map(\.bitPattern))
        let floats: [Float] = [0.1, 1.5, 3, 1e-8, .greatestFiniteMagnitude]
        #expect(try JSONDecoder().decode([Float].self, from: Data(try JSONEncoding.compact(floats))) == floats)
        #expect(String(decoding: try JSONEncoding.compact([Float(0.1), 3]), as: UTF8.self) == "[0.1,3]")
    }

    // Short decimals are written without going through `description`; the text
    // must still be exactly Swift's shortest round-tripping one.
    @Test func decimalsReadTheSameAsSwiftsOwnShortestText() throws {
        var generator = SplitMix64(seed: 11)
        var values: [Double] = [0.1, 0.25, 13.5, -2.75, 0.0001, 0.0001.nextDown, 0.3 - 0.1, 0.1 + 0.2,
                                99_999_999_999_999.9, 123_456_789_012_345.6, 999_999_999_999_999.9, 1e15 + 0.5]
        let scales: [Double] = [10, 100, 1_000, 1e4, 1e5, 1e7, 1e10, 1e14]
        for _ in 0..<5_000 {
            let value = Double(generator.next() % 100_000_000) / scales[Int(generator.next() % UInt64(scales.count))]
            values += [value, -value.nextUp, value * 0.37 + 0.1]
        }
        // Across the whole range too: exponents, 17 digits, subnormals.
        for _ in 0..<3_000 { values.append(Double(bitPattern: generator.next() & 0xFFEF_FFFF_FFFF_FFFF)) }
        values += [Double.leastNonzeroMagnitude, -Double.leastNormalMagnitude, .greatestFiniteMagnitude, 1e-5, 1e21, -1.2345e-300]
        let expected = values.map { $0.rounded(.towardZero) == $0 && $0.magnitude < 1e15 ? String(Int64($0)) : $0.description }
        #expect(String(decoding: try JSONEncoding.compact(values), as: UTF8.self) == "[" + expected.joined(separator: ",") + "]")
    }

    // Plain strings are checked and copied a word at a time, with separate
    // paths below four, below eight and from eight bytes: put an escapable
    // byte at every position of every length up to 20, in values and in keys
    // (which are written together with their comma and colon).
    @Test func escapesAtEveryPositionOfShortAndLongStrings() throws {
        struct Key: CodingKey {
            var stringValue: String
            init(stringValue: String) { self.stringValue = stringValue }
            var intValue: Int? { nil }
            init?(intValue: Int) { nil }
        }
        struct TwoMembers: Encodable {
            let key: String
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Key.self)
                try container.encode(1, forKey: Key(stringValue: key))
                try container.encode(2, forKey: Key(stringValue: key))
            }
        }
        func escaped(_ text: String) -> String {
            var result = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": result += "\\\""
                case "\\": result += "\\\\"
                case "\n": result += "\\n"
                case "\u{01}": result += "\\u0001"
                default: result.unicodeScalars.append(scalar)
                }
            }
            return result + "\""
        }
        for length in 0...20 {
            let plain = String(repeating: "é", count: length / 2) + String(repeating: "a", count: length % 2)
            #expect(String(decoding: try JSONEncoding.compact(plain), as: UTF8.self) == escaped(plain))
            for position in 0..<length {
                for special in ["\"", "\\", "\n", "\u{01}"] {
                    var characters = Array(repeating: "a", count: length)
                    characters[position] = special
                    let text = characters.joined()
                    #expect(String(decoding: try JSONEncoding.compact(text), as: UTF8.self) == escaped(text))
                    let members = "{" + escaped(text) + ":1," + escaped(text) + ":2}"
                    #expect(String(decoding: try JSONEncoding.compact(TwoMembers(key: text)), as: UTF8.self) == members)
                }
                // Two escapes: the second may fall in the last, partial word.
                for second in position + 1..<max(position + 1, length) {
                    var characters = Array(repeating: "é", count: length)
                    characters[position] = "\""
                    characters[second] = "\n"
                    let text = characters.joined()
                    #expect(String(decoding: try JSONEncoding.compact(text), as: UTF8.self) == escaped(text))
                }
            }
        }
    }

    @Test func nonFiniteNumbersBecomeStringsJSONDecoderCanReadBack() throws {
        let values = [Double.nan, .infinity, -.infinity, 1]
        let bytes = try JSONEncoding.compact(values)
        #expect(String(decoding: bytes, as: UTF8.self) == #"["NaN","Infinity","-Infinity",1]"#)
        #expect(JSONWriter.compact(try JSONEncoding.value(of: values)) == bytes)
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        let decoded = try decoder.decode([Double].self, from: Data(bytes))
        #expect(decoded[0].isNaN && decoded[1] == .infinity && decoded[2] == -.infinity)
    }

    @Test func escapesControlCharactersQuotesAndBackslashesOnly() throws {
        let text = "plain ascii, then \"quoted\" \\ \u{7F} é \u{1F} tab\t" + String(repeating: "x", count: 20) + "\n"
        let bytes = try JSONEncoding.compact(text)
        #expect(String(decoding: bytes, as: UTF8.self) == #""plain ascii, then \"quoted\" \\ \#u{7F} é \u001f tab\t"# + String(repeating: "x", count: 20) + #"\n""#)
        #expect(try JSONParser.parse(bytes) == .string(text))
    }

    @Test func containersWrittenOutOfOrderStillEncodeCorrectly() throws {
        struct Interleaved: Encodable, Equatable {
            enum Keys: String, CodingKey { case first, second, last }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Keys.self)
                var first = container.nestedUnkeyedContainer(forKey: .first)
                var second = container.nestedContainer(keyedBy: Keys.self, forKey: .second)
                try first.encode(1)  // writes into `first` after `second` was opened
                try second.encode("b", forKey: .last)
                try container.encode(true, forKey: .last)
                try first.encode(2)
            }
        }
        let expected: JSONValue = ["first": [1, 2], "second": ["last": "b"], "last": true]
        #expect(try JSONParser.parse(try JSONEncoding.compact(Interleaved())) == expected)
        #expect(try JSONEncoding.value(of: Interleaved()) == expected)
    }

    @Test func superEncoderAndSharedSubclassContainersMatchJSONEncoder() throws {
        class Base: Encodable {
            var id = 1
        }
        final class WithSuper: Base {
            var name = "sub"
            enum Keys: String, CodingKey { case name }
            override func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Keys.self)
                try container.encode(name, forKey: .name)
                try super.encode(to: container.superEncoder())
            }
        }
        final class Shared: Base {
            var extra = [true]
            enum Keys: String, CodingKey { case extra }
            override func encode(to encoder: any Encoder) throws {
                try super.encode(to: encoder)
                var container = encoder.container(keyedBy: Keys.self)
                try container.encode(extra, forKey: .extra)
            }
        }
        for value in [WithSuper(), Shared()] as [Base] {
            let foundation = try JSONParser.parse(try JSONEncoder().encode(value))
            #expect(try JSONParser.parse(try JSONEncoding.compact(value)) == foundation)
            #expect(try JSONEncoding.value(of: value) == foundation)
        }
        #expect(try JSONEncoding.value(of: WithSuper()) == ["name": "sub", "super": ["id": 1]])
    }

    @Test func aKeyEncodedTwiceKeepsItsFirstPlaceAndLastValue() throws {
        struct Twice: Encodable {
            enum Keys: String, CodingKey { case a, b }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Keys.self)
                try container.encode(1, forKey: .a)
                try container.encode(2, forKey: .b)
                try container.encode(3, forKey: .a)
            }
        }
        #expect(JSONWriter.compactString(try JSONEncoding.value(of: Twice())) == #"{"a":3,"b":2}"#)
        // The one-pass byte encoder writes both; Rewind's parser keeps the last, like the tree.
        #expect(String(decoding: try JSONEncoding.compact(Twice()), as: UTF8.self) == #"{"a":1,"b":2,"a":3}"#)
        #expect(JSONWriter.compactString(try JSONParser.parse(JSONEncoding.compact(Twice()))) == #"{"a":3,"b":2}"#)
    }

    @Test func aValueThatEncodesNothingIsAnEmptyObject() throws {
        struct Nothing: Encodable { func encode(to encoder: any Encoder) throws {} }
        #expect(String(decoding: try JSONEncoding.compact([Nothing()]), as: UTF8.self) == "[{}]")
    }

    @Test func tooDeepNestingIsAnErrorNotACrash() {
        final class Node: Encodable { var next: Node?; init(next: Node?) { self.next = next } }
        var chain: Node? = nil
        for _ in 0..<2_000 { chain = Node(next: chain) }
        #expect(throws: EncodingError.self) { try JSONEncoding.compact(chain) }
        #expect(throws: EncodingError.self) { try JSONEncoding.value(of: chain) }
    }

    @Test func encodingErrorsFromTheValueAreRethrown() {
        struct Failing: Encodable {
            struct Boom: Error {}
            func encode(to encoder: any Encoder) throws { throw Boom() }
        }
        #expect(throws: Failing.Boom.self) { try JSONEncoding.compact([Failing()]) }
    }

    // Types that report problems read `codingPath` from their containers; the
    // streaming encoder computes it rather than storing it, so check it agrees
    // with JSONEncoder for value, nested and unkeyed containers.
    @Test func containersReportTheSameCodingPathsAsJSONEncoder() throws {
        final class PathLog: @unchecked Sendable { var paths: [String] = [] }
        struct Probe: Encodable {
            let log: PathLog
            enum Keys: String, CodingKey { case inner, list }
            func encode(to encoder: any Encoder) throws {
                func text(_ path: [any CodingKey]) -> String { path.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: "/") }
                var container = encoder.container(keyedBy: Keys.self)
                log.paths.append("keyed " + text(container.codingPath))
                var nested = container.nestedContainer(keyedBy: Keys.self, forKey: .inner)
                log.paths.append("nested " + text(nested.codingPath))
                try nested.encode(1, forKey: .list)
                var list = container.nestedUnkeyedContainer(forKey: .list)
                log.paths.append("unkeyed " + text(list.codingPath))
                try list.encode(2)
                log.paths.append("after " + text(container.codingPath))
            }
        }
        struct Outer: Encodable {
            let probes: [Probe]
        }
        let ours = PathLog(), foundation = PathLog()
        _ = try JSONEncoding.compact(Outer(probes: [Probe(log: ours), Probe(log: ours)]))
        _ = try JSONEncoder().encode(Outer(probes: [Probe(log: foundation), Probe(log: foundation)]))
        #expect(ours.paths == foundation.paths)
        #expect(ours.paths.first == "keyed probes/0")
    }

    // Values of one key type at one depth share a keyed container (see
    // _KeyedContainerCache). These check that sharing never mixes values up.

    @Test func deepTreesOfOneTypeEncodeLikeJSONEncoder() throws {
        // 150 levels of one type: more key-type-and-depth pairs than the cache
        // has slots, so entries are replaced while outer values still write.
        struct Node: Codable, Equatable {
            var name: String
            var children: [Node]
            var weight: Int?
        }
        func tree(depth: Int, index: Int) -> Node {
            let children = depth == 0 ? [] : (0..<(depth % 3 == 0 ? 2 : 1)).map { tree(depth: depth - 1, index: $0) }
            return Node(name: "node \(depth).\(index)", children: children, weight: index % 2 == 0 ? depth : nil)
        }
        var deep = tree(depth: 12, index: 0)
        for level in 0..<150 { deep = Node(name: "wrap \(level)", children: [deep, Node(name: "leaf", children: [], weight: level)], weight: nil) }
        let ours = try JSONEncoding.compact(deep)
        #expect(try JSONParser.parse(ours) == (try JSONParser.parse(try JSONEncoder().encode(deep))))
        #expect(try JSONDecoder().decode(Node.self, from: Data(ours)) == deep)
    }

    @Test func manyKeyTypesAtOneDepthEncodeLikeJSONEncoder() throws {
        // A generic type's coding keys are a different type for each argument,
        // so these siblings bring 80 key types to one depth.
        struct Tagged<Tag>: Codable, Equatable { var tag: String; var count: Int }
        struct Row: Codable, Equatable {
            var a: Tagged<Int>, b: Tagged<String>, c: Tagged<Double>, d: Tagged<Bool>
            var e: Tagged<[Int]>, f: Tagged<[String]>, g: Tagged<Int8>, h: Tagged<UInt8>
        }
        struct Wide: Codable, Equatable {
            var rows: [Row]
            var more: [Tagged<[[Int]]>]
        }
        func tagged<Tag>(_ index: Int) -> Tagged<Tag> { Tagged(tag: "t\(index)", count: index) }
        let wide = Wide(rows: (0..<10).map { index in
            Row(a: tagged(index), b: tagged(index + 1), c: tagged(index + 2), d: tagged(index + 3),
                e: tagged(index + 4), f: tagged(index + 5), g: tagged(index + 6), h: tagged(index + 7))
        }, more: (0..<3).map(tagged))
        let ours = try JSONEncoding.compact(wide)
        #expect(try JSONParser.parse(ours) == (try JSONParser.parse(try JSONEncoder().encode(wide))))
        #expect(try JSONDecoder().decode(Wide.self, from: Data(ours)) == wide)
    }

    @Test func arraysOfPrimitivesWriteWhatTheirContainersWould() throws {
        // These skip the unkeyed container; the text must not change.
        struct Lists: Codable, Equatable {
            var words = ["", "plain", "quote \" and \\ and \n", "Zoë 🦊"]
            var numbers = [0, -1, Int.max, Int.min]
            var measures = [0.1, -2.5, 1e-7, 3.0, .pi]
            var flags = [true, false]
            var empty: [String] = []
            var nested = [[1, 2], []]
        }
        let ours = try JSONEncoding.compact(Lists())
        #expect(try JSONParser.parse(ours) == (try JSONParser.parse(try JSONEncoder().encode(Lists()))))
        #expect(try JSONDecoder().decode(Lists.self, from: Data(ours)) == Lists())
        #expect(JSONWriter.compact(try JSONEncoding.value(of: Lists())) == ours)
        #expect(String(decoding: try JSONEncoding.compact([true, false]), as: UTF8.self) == "[true,false]")
        #expect(String(decoding: try JSONEncoding.compact([String]()), as: UTF8.self) == "[]")
    }

    @Test func keysWrittenFromTheirRenderedTextMatchJSONEncoder() throws {
        // Enum keys are rendered once per type and copied after that: escaped
        // names, a one-case key type (zero bytes), a name too long to keep and
        // more key text than the table holds must all come out as JSONEncoder's.
        struct Odd: Encodable {
            enum Keys: String, CodingKey { case quote = "say \"hi\"", slash = "back\\slash", tab = "tab\there", plain }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Keys.self)
                for key in [Keys.quote, .slash, .tab, .plain, .quote] { try container.encode(key.rawValue, forKey: key) }
            }
        }
        struct Single: Encodable {
            enum Keys: CodingKey { case only }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Keys.self)
                try container.encode(1, forKey: .only)
            }
        }
        struct Long: Encodable {
            enum Keys: Int, CodingKey {
                case k0, k1, k2, k3, k4, k5, k6, k7, k8, k9, k10, k11
                var stringValue: String { String(repeating: "key \(rawValue) ", count: rawValue == 0 ? 50 : 16) }
                init?(stringValue: String) { nil }
            }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Keys.self)
                for round in 0..<2 { for index in 0..<12 { try container.encode(index + round, forKey: Keys(rawValue: index)!) } }
            }
        }
        func expectLikeFoundation<T: Encodable>(_ value: T) throws {
            // Twice, so the second value is written from the rendered text.
            #expect(try JSONParser.parse(try JSONEncoding.compact([value, value])) == (try JSONParser.parse(try JSONEncoder().encode([value, value]))))
        }
        try expectLikeFoundation(Odd())
        try expectLikeFoundation(Single())
        try expectLikeFoundation(Long())
        #expect(String(decoding: try JSONEncoding.compact(Odd()), as: UTF8.self)
                == #"{"say \"hi\"":"say \"hi\"","back\\slash":"back\\slash","tab\there":"tab\there","plain":"plain","say \"hi\"":"say \"hi\""}"#)
    }
}
