import Foundation
import Testing
@testable import Recorder
import RewindJSON

/// Numbers keep their exact value and strings their exact scalars through
/// encode, parse, write, diff, patch, record and replay (docs/JSON.md, "Exact values").
@Suite struct ExactValuesTests {
    // The NFC and NFD spellings of "é": canonically equivalent, so Swift's `==` calls them equal; JSON does not.
    static let composed = "caf\u{E9}"
    static let decomposed = "cafe\u{301}"

    struct Ledger: Codable, Equatable {
        var id: UInt64
        var balance: Decimal
        var offset: Double
    }

    static let ledger = Ledger(id: .max, balance: Decimal(string: "1234567890123456789.0123456789012345678")!, offset: -0.0)

    @Test func aUInt64AboveInt64MaxKeepsEveryDigit() throws {
        let value = try JSONEncoding.value(of: UInt64.max)
        #expect(value == .number(JSONNumber("18446744073709551615")!))
        #expect(JSONWriter.compactString(value) == "18446744073709551615")
        #expect(String(decoding: try JSONEncoding.compact(UInt64.max), as: UTF8.self) == "18446744073709551615")
        let reparsed = try JSONParser.parse(JSONWriter.compact(value))
        #expect(reparsed == value)
        #expect(try JSONValueDecoder().decode(UInt64.self, from: reparsed) == .max)
        #expect(try JSONValueDecoder().decode(UInt64.self, from: JSONEncoding.value(of: UInt64(Int64.max) + 1)) == UInt64(Int64.max) + 1)
        #expect(throws: JSONValueDecodingError.self) { try JSONValueDecoder().decode(Int64.self, from: reparsed) }
    }

    @Test func aDecimalKeepsAll38Digits() throws {
        let decimal = Self.ledger.balance
        let text = "1234567890123456789.0123456789012345678"
        let value = try JSONEncoding.value(of: decimal)
        #expect(JSONWriter.compactString(value) == text)
        #expect(String(decoding: try JSONEncoding.compact(decimal), as: UTF8.self) == text)
        let reparsed = try JSONParser.parse(text)
        #expect(reparsed == value)
        #expect(try JSONValueDecoder().decode(Decimal.self, from: reparsed) == decimal)
        // A decimal a double holds exactly is a double, and decodes to the same decimal (not 0.1000000000000000055…).
        #expect(try JSONEncoding.value(of: Decimal(string: "0.1")!) == .double(0.1))
        #expect(try JSONValueDecoder().decode(Decimal.self, from: .double(0.1)) == Decimal(string: "0.1")!)
    }

    @Test func negativeZeroIsNotZero() throws {
        let value = try JSONEncoding.value(of: -0.0)
        #expect(JSONWriter.compactString(value) == "-0")
        for text in ["-0", "-0.0", "-0e3"] {
            let parsed = try JSONParser.parse(text)
            #expect(parsed == .double(-0.0), "\(text)")
            #expect(parsed.doubleValue?.sign == .minus, "\(text)")
            #expect(try JSONValueDecoder().decode(Double.self, from: parsed).sign == .minus, "\(text)")
        }
        #expect(JSONValue.double(-0.0) != .double(0.0))
        #expect(JSONValue.double(-0.0) != .integer(0))
        let patch = JSONDiff.patch(from: ["offset": 0], to: ["offset": .double(-0.0)])
        #expect(patch.operations == [.replace(path: JSONPointer(tokens: ["offset"]), value: .double(-0.0))])
        #expect(try patch.applied(to: ["offset": 0])["offset"]?.doubleValue?.sign == .minus)
    }

    @Test func aStructOfExactValuesRoundTripsThroughTextAndReplayDecoding() throws {
        let bytes = try JSONEncoding.compact(Self.ledger)
        #expect(String(decoding: bytes, as: UTF8.self)
                == #"{"id":18446744073709551615,"balance":1234567890123456789.0123456789012345678,"offset":-0}"#)
        let tree = try JSONEncoding.value(of: Self.ledger)
        #expect(JSONWriter.compact(tree) == bytes)
        let parsed = try JSONParser.parse(bytes)
        #expect(parsed == tree)
        let decoded = try JSONValueDecoder().decode(Ledger.self, from: parsed)
        #expect(decoded == Self.ledger)
        #expect(decoded.offset.sign == .minus)
    }

    @Test func literalsBeyondADoubleStayNumbers() throws {
        let huge = try JSONParser.parse("[1e400, -1E+400, 1e-400, 123456789012345678901234567890]")
        #expect(JSONWriter.compactString(huge) == "[1e400,-1E+400,1e-400,123456789012345678901234567890]")
        #expect(huge[0] == .number(JSONNumber("10e399")!))   // equal by value, whatever the notation
        #expect(huge[0] != .double(.infinity))
        #expect(huge[0] != .string("Infinity"))
        #expect(huge[0]?.doubleValue == .infinity)
        #expect(throws: JSONValueDecodingError.self) { try JSONValueDecoder().decode(Double.self, from: huge[0]!) }
        let patch = JSONDiff.patch(from: huge, to: try JSONParser.parse("[1e401, -1E+400, 1e-400, 123456789012345678901234567890]"))
        #expect(JSONWriter.compactString(patch.jsonValue) == #"[{"op":"replace","path":"/0","value":1e401}]"#)
        #expect(JSONNumber("1e400") != nil && JSONNumber("+1") == nil && JSONNumber("Infinity") == nil && JSONNumber("01") == nil)
    }

    @Test func equalNumbersOfDifferentCasesAreEqualAndHashAlike() throws {
        let groups: [[JSONValue]] = [
            [.integer(1), .double(1.0), .number(JSONNumber("1.0e0")!), .number(JSONNumber("10e-1")!)],
            [.double(0.1), .number(JSONNumber("0.1")!), .number(JSONNumber("1e-1")!)],
            [.number(JSONNumber("18446744073709551615")!), .number(JSONNumber("1.8446744073709551615e19")!)],
            [.double(1e19), .number(JSONNumber("10000000000000000000")!)],
            [.double(-0.0), .number(JSONNumber("-0")!)],
            [.double(.nan), .double(-.nan), .string("NaN")],
            [.double(.infinity), .string("Infinity")],
        ]
        for (index, group) in groups.enumerated() {
            for a in group {
                for b in group {
                    #expect(a == b, "\(a) == \(b)")
                    #expect(a.hashValue == b.hashValue, "hash of \(a) and \(b)")
                }
                for other in groups[(index + 1)...].joined() { #expect(a != other, "\(a) != \(other)") }
            }
        }
        // Not equal, though their nearest doubles are: 0.1 as written and a digit past a double's precision.
        #expect(JSONValue.double(0.1) != .number(JSONNumber("0.10000000000000001")!))
        #expect(JSONValue.integer(9_007_199_254_740_993) != .double(9_007_199_254_740_992))
        #expect(Set<JSONValue>([.integer(1), .double(1), .number(JSONNumber("1e0")!), .double(.nan), .double(.nan)]).count == 2)
    }

    @Test func nonFiniteDoublesEqualThemselvesSoDiffsAreEmpty() throws {
        struct Gauge: Codable { var reading = Double.nan; var high = Double.infinity; var low = -Double.infinity; var count = 0 }
        let state = try JSONEncoding.value(of: Gauge())
        #expect(state == state)
        #expect(JSONDiff.patch(from: state, to: state).isEmpty)
        #expect(JSONDiff.treeText(from: state, to: state) == nil)
        // What the log holds (the strings) is the same state as what encoding gives (the doubles).
        let written = try JSONParser.parse(JSONWriter.compact(state))
        #expect(written["reading"] == .string("NaN"))
        #expect(written == state)
        #expect(JSONDiff.patch(from: written, to: state).isEmpty)
        #expect(try JSONPatch([.test(path: JSONPointer(tokens: ["reading"]), value: .double(.nan))]).applied(to: written) == written)
    }

    @Test func aNaNStateRecordedTwiceWritesNoPatchAndReplaysWithoutDivergence() throws {
        struct Meter: Codable { var reading = Double.nan; var limit = Double.infinity; var ticks = 0 }
        enum Tick: Codable { case tick }
        func reduce(_ state: inout Meter, _ action: Tick) { state.ticks += 1 }
        let directory = TemporaryDirectory()
        let path = directory.file("meter.jsonl")
        var options = testOptions()
        options.keyframesByCost = false  // keyframes only where a patch would not do: a false change would make one
        let recorder = try ActionRecorder(file: path, options: options)
        let reducer = recorder.recording(reduce)
        var state = Meter()
        for _ in 0..<5 { reducer(&state, .tick) }
        try recorder.close()

        let reader = try LogReader(path: path)
        #expect(reader.entryCount == 5)
        for index in 1..<5 {
            #expect(try reader.entry(at: index).changedPaths == [JSONPointer(tokens: ["ticks"])])
            #expect(!reader.isKeyframe(at: index))
        }
        try Replay(log: path).verify(reducer: reduce)
    }

    @Test func composedAndDecomposedStringsAreDifferentValues() throws {
        let old: JSONValue = ["name": .string(Self.composed)]
        let new: JSONValue = ["name": .string(Self.decomposed)]
        #expect(Self.composed == Self.decomposed)   // Swift's canonical equivalence, which JSON does not use
        #expect(old != new)
        let patch = JSONDiff.patch(from: old, to: new)
        #expect(patch.operations == [.replace(path: JSONPointer(tokens: ["name"]), value: .string(Self.decomposed))])
        let applied = try patch.applied(to: old)
        #expect(Array(applied["name"]!.stringValue!.unicodeScalars) == Array(Self.decomposed.unicodeScalars))
        #expect(JSONDiff.treeText(from: old, to: new) != nil)
        // The two lines differ too (`contains` would compare canonically, so count the changed lines).
        let unified = JSONDiff.unifiedText(from: old, to: new)?.split(separator: "\n") ?? []
        #expect(unified.filter { $0.hasPrefix("-") && !$0.hasPrefix("---") }.count == 1)
        #expect(unified.filter { $0.hasPrefix("+") && !$0.hasPrefix("+++") }.count == 1)
    }

    @Test func composedAndDecomposedKeysAreDifferentMembers() throws {
        let old: JSONValue = .object(JSONObject([(Self.composed, JSONValue.integer(1))]))
        let new: JSONValue = .object(JSONObject([(Self.decomposed, JSONValue.integer(1))]))
        #expect(old != new)
        let patch = JSONDiff.patch(from: old, to: new)
        #expect(patch.operations == [.remove(path: JSONPointer(tokens: [Self.composed])),
                                     .add(path: JSONPointer(tokens: [Self.decomposed]), value: 1)])
        let applied = try patch.applied(to: old)
        #expect(applied == new)
        #expect(applied.objectValue!.keys.map { Array($0.unicodeScalars) } == [Array(Self.decomposed.unicodeScalars)])
        var inPlace = old
        try patch.apply(to: &inPlace)
        #expect(inPlace == new)

        // Both keys in one object are two members, small or indexed, parsed or built.
        let both = JSONObject([(Self.composed, JSONValue.integer(1)), (Self.decomposed, JSONValue.integer(2))])
        #expect(both.count == 2 && both[Self.composed] == 1 && both[Self.decomposed] == 2)
        var large = JSONObject((0..<20).map { ("k\($0)", JSONValue.integer(Int64($0))) })
        large[Self.composed] = 1
        large[Self.decomposed] = 2
        #expect(large.count == 22 && large[Self.composed] == 1 && large[Self.decomposed] == 2)
        let text = #"{"\#(Self.composed)":1,"\#(Self.decomposed)":2}"#
        let parsed = try JSONParser.parse(text, duplicateKeys: .reject)
        #expect(parsed.objectValue?.count == 2)
        #expect(JSONWriter.compactString(parsed).utf8.elementsEqual(text.utf8))
        // An object with the NFD key after one with the NFC key (the parser's shape cache must not reuse the NFC key).
        let array = try JSONParser.parse(#"[{"\#(Self.composed)":1},{"\#(Self.decomposed)":1}]"#)
        #expect(array[0] != array[1])
        #expect(JSONPointer(tokens: [Self.composed]) != JSONPointer(tokens: [Self.decomposed]))
        #expect(!JSONPointer(tokens: [Self.composed, "x"]).hasPrefix(JSONPointer(tokens: [Self.decomposed])))
    }

    @Test func aRecordedStringChangingFromNFCToNFDIsRebuiltWithTheNewScalars() throws {
        struct Profile: Codable { var name: String }
        enum Rename: Codable { case to(String) }
        func reduce(_ state: inout Profile, _ action: Rename) { if case .to(let name) = action { state.name = name } }
        let directory = TemporaryDirectory()
        let path = directory.file("profile.jsonl")
        let recorder = try ActionRecorder(file: path, options: testOptions())
        let reducer = recorder.recording(reduce)
        var state = Profile(name: Self.composed)
        reducer(&state, .to(Self.composed))
        reducer(&state, .to(Self.decomposed))
        try recorder.close()

        let reader = try LogReader(path: path)
        #expect(try reader.entry(at: 1).changedPaths == [JSONPointer(tokens: ["name"])])
        let rebuilt = try reader.state(at: 1)["name"]?.stringValue
        #expect(rebuilt.map { Array($0.unicodeScalars) } == Array(Self.decomposed.unicodeScalars))
        try Replay(log: path).verify(reducer: reduce)
    }

    @Test func randomExactValuesSurviveWriteParseDiffAndPatch() throws {
        var generator = SplitMix64(seed: 14)
        for _ in 0..<300 {
            let old = ExactJSON.document(using: &generator)
            let new = ExactJSON.document(using: &generator)
            #expect(try JSONParser.parse(JSONWriter.compact(old)) == old)
            #expect(try JSONParser.parse(JSONWriter.prettyString(old)) == old)
            let patch = JSONDiff.patch(from: old, to: new)
            #expect(patch.isEmpty == (old == new))
            let applied = try patch.applied(to: old)
            #expect(applied == new)
        }
    }
}

/// Documents made of the values that used to be lost: big and long numbers,
/// negative zero, non-finite doubles, NFC and NFD strings and keys.
enum ExactJSON {
    static let atoms: [JSONValue] = [
        .integer(0), .double(-0.0), .double(0.5), .double(.nan), .double(.infinity),
        .number(JSONNumber("18446744073709551615")!), .number(JSONNumber("18446744073709551614")!),
        .number(JSONNumber("3.14159265358979323846264338327950288")!), .number(JSONNumber("1e400")!),
        .string(ExactValuesTests.composed), .string(ExactValuesTests.decomposed), .string("NaN"),
    ]
    static let keys = ["a", ExactValuesTests.composed, ExactValuesTests.decomposed]

    static func document(using generator: inout SplitMix64, depth: Int = 0) -> JSONValue {
        switch generator.next() % (depth > 2 ? 1 : 3) {
        case 0: return atoms[Int(generator.next() % UInt64(atoms.count))]
        case 1: return .array((0..<Int(generator.next() % 4)).map { _ in document(using: &generator, depth: depth + 1) })
        default:
            var object = JSONObject()
            for _ in 0..<Int(generator.next() % 4) { object[keys[Int(generator.next() % UInt64(keys.count))]] = document(using: &generator, depth: depth + 1) }
            return .object(object)
        }
    }
}
