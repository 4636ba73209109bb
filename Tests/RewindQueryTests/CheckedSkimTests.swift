import Foundation
import Testing
@testable import RewindJSON
import CJSONScan
@testable @_spi(Fuzzing) import RewindQuery

/// The checked skim (`rewind_json_skip_checked`, the fast path that judges a
/// value as the parser reads it without building it: what a record's members,
/// a patch's values and a keyframe's tape are checked with) against the parser,
/// its reference: it accepts only what the parser accepts, ending where the
/// value ends; everything the parser rejects it rejects; what it leaves to the
/// parser is only what it says it leaves; and what it calls compact as written
/// is byte for byte what the writer writes.
@Suite struct CheckedSkimTests {
    /// Where the skim ends the value at `position`; nil when it does not judge it accepted.
    static func skim(_ bytes: [UInt8], at position: Int = 0, depth: Int = 0) -> Int? {
        bytes.withUnsafeBufferPointer { buffer in
            // A valid pointer even for no bytes.
            let end = buffer.baseAddress.map { rewind_json_skip_checked($0, buffer.count, position, Int32(depth), nil) } ?? -1
            return end >= 0 ? end : nil
        }
    }

    /// Whether the skim accepts `bytes` as one document (space may follow it, as the parser allows).
    static func skimAccepts(_ bytes: [UInt8]) -> Bool {
        guard let end = skim(bytes) else { return false }
        return bytes[end...].allSatisfy { [0x20, 0x0A, 0x0D, 0x09].contains($0) }
    }

    static func parses(_ bytes: [UInt8]) -> Bool { (try? JSONParser.parse(bytes)) != nil }

    /// What the skim leaves to the parser: an integer of more than 18 digits, a decimal
    /// of more than 15 digits or with a longer exponent, nesting past its depth, a
    /// value after space at the start. (Found in the text: a run of digits and points,
    /// an exponent, the brackets.)
    static func holdsWhatTheSkimLeavesToTheParser(_ bytes: [UInt8]) -> Bool {
        var run = 0, depth = 0, deepest = 0
        var afterExponent = false
        for byte in bytes {
            if (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: ".") {
                run += 1
                if run > 15 { return true }
                if afterExponent, run > 1 { return true }
            } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                afterExponent = true
                run = 0
            } else if (byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")) && afterExponent && run == 0 {
                continue
            } else {
                afterExponent = false
                run = 0
            }
            if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") { depth += 1; deepest = max(deepest, depth) }
            if byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") { depth -= 1 }
        }
        return deepest > Int(REWIND_JSON_SKIM_MAX_DEPTH) || [0x20, 0x0A, 0x0D, 0x09].contains(bytes.first ?? 0)
    }

    /// The skim's verdict against the parser's on `bytes`; nil when they agree.
    static func disagreement(_ bytes: [UInt8]) -> String? {
        let skimmed = skimAccepts(bytes), parsed = parses(bytes)
        if skimmed && !parsed { return "the skim accepts what the parser rejects" }
        if parsed && !skimmed && !holdsWhatTheSkimLeavesToTheParser(bytes) { return "the skim rejects what the parser accepts" }
        return nil
    }

    @Test func randomDocumentsAndEveryChangeToThemGetTheParsersVerdict() throws {
        var generator = SplitMix64(seed: 8259)
        let significant = Array(#"{}[],:"\ "#.utf8) + [UInt8(ascii: "0"), UInt8(ascii: "e"), UInt8(ascii: "."), UInt8(ascii: "-"),
                                                       UInt8(ascii: "u"), 0x09, 0x01, 0xC3, 0xA9, 0x80, 0xED, 0xF4, 0xFF]
        var accepted = 0, rejected = 0
        for _ in 0..<400 {
            let document = LazyJSONDocumentTests.randomDocument(&generator)
            let text = Array(LazyJSONDocumentTests.write(document, &generator).utf8)
            #expect(Self.skim(text) == text.count, "\(String(decoding: text, as: UTF8.self))")
            for round in 0..<30 {
                var changed = text
                let position = Int(generator.next() % UInt64(changed.count))
                switch round % 4 {
                case 0: changed[position] = significant[Int(generator.next() % UInt64(significant.count))]
                case 1: changed.insert(significant[Int(generator.next() % UInt64(significant.count))], at: position)
                case 2: changed.remove(at: position)
                default: changed.removeSubrange(position...)
                }
                #expect(Self.disagreement(changed) == nil, "\(Self.disagreement(changed) ?? ""): \(String(decoding: changed, as: UTF8.self))")
                if Self.skimAccepts(changed) { accepted += 1 } else { rejected += 1 }
            }
        }
        #expect(accepted > 1000 && rejected > 1000, "both verdicts are reached (\(accepted), \(rejected))")
    }

    /// The edges of what the skim judges itself, one at a time.
    @Test(arguments: [
        // Numbers: 18 digits are judged, 19 left to the parser; decimals of up to 15 digits with a one-digit exponent.
        "0", "-0", "01", "-", "-a", "123456789012345678", "1234567890123456789", "-123456789012345678",
        "1.5", "1.", ".5", "1e5", "1E+5", "1e-5", "1e", "1e+", "1.5e10", "1.5e1", "123456789012345.5", "1234567890123456.5",
        "12345678901234567.5", "1.25e-7", "0.0", "-0.0e0",
        // Strings: escapes, surrogates, control bytes, UTF-8.
        #""""#, #""a""#, #""\"""#, #""\\""#, #""\/\b\f\n\r\t""#, #""\x""#, #""\u00e9""#, #""\u00E9""#, #""\u00g9""#, #""\u00""#,
        #""\ud83d\ude00""#, #""\ud83d""#, #""\ud83dx""#, #""\ud83d\u0041""#, #""\ude00""#, "\"é\"", "\"\u{1F600}\"", "\"a",
        "\"\u{7F}\"", "\"a string longer than thirty-two bytes, so vectors read it\"",
        // Literals and containers, with and without space.
        "true", "tru", "false", "null", "nul", "[]", "[ ]", "[1,]", "[,1]", "[1 , 2]", "{}", "{ }", #"{"a":1}"#, #"{"a" : 1 }"#,
        #"{"a":1,}"#, #"{"a"}"#, #"{1:2}"#, #"{"a":1 "b":2}"#, "[[[]]]", "[", "{", "x",
    ])
    func edgeCasesGetTheParsersVerdict(text: String) {
        #expect(Self.disagreement(Array(text.utf8)) == nil)
    }

    /// Bytes the Swift string type cannot hold: invalid UTF-8 inside a string, short and long.
    @Test(arguments: [[0xC0, 0x80], [0xC2], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xF0, 0x8F, 0xBF, 0xBF],
                      [0xF4, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF], [0xF5, 0x80, 0x80, 0x80], [0xFF], [0xC3, 0x28]] as [[UInt8]])
    func invalidUTF8GetsTheParsersVerdict(inside: [UInt8]) {
        for padding in [0, 40] {
            let bytes = [UInt8(ascii: "\"")] + Array(repeating: UInt8(ascii: "a"), count: padding) + inside + [UInt8(ascii: "\"")]
            #expect(Self.skimAccepts(bytes) == Self.parses(bytes))
            // The reference for UTF-8: decoding replaces nothing.
            #expect(rewind_json_valid_utf8(bytes, bytes.count) == String(decoding: bytes, as: UTF8.self).utf8.elementsEqual(bytes))
        }
    }

    @Test func nestingPastWhatTheSkimJudgesIsLeftToTheParser() {
        let depth = Int(REWIND_JSON_SKIM_MAX_DEPTH)
        #expect(depth < JSONParser.maximumDepth)
        let deepest = Array((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
        #expect(Self.skim(deepest) == deepest.count)
        let deeper = Array((String(repeating: "[", count: depth + 1) + String(repeating: "]", count: depth + 1)).utf8)
        #expect(Self.skim(deeper) == nil)
        #expect(Self.parses(deeper))
        // Containers around the value count too.
        #expect(Self.skim(deepest, depth: 1) == nil)
    }

    @Test func aValueIsSkimmedWhereItStartsAndEndsAtItsLastByte() {
        let bytes = Array(#"{"seq":12,"x":[1,"a"]}"#.utf8)
        #expect(Self.skim(bytes, at: 7) == 9)
        #expect(Self.skim(bytes, at: 14) == 21)
        #expect(Self.skim(bytes, at: 22) == nil)
    }

    /// "Compact as written" must mean the bytes are what the writer writes for
    /// the parsed value, on valid and broken JSON alike (a search copies such a
    /// payload as it is, and parses and writes any other).
    @Test func whatTheSkimCallsCompactIsWhatTheWriterWrites() {
        let seeds = [
            #"{"a":[1,-2,3.5e2,true,false,null],"b":{"c":"d\u00e9\n","c":"é"},"e":"\ud83d\ude00"}"#,
            #"[{"op":"add","path":"/a~1b","value":{"x":[[],{}]}}, 0 , "-0", -0, 0.0, 1E+2 ]"#,
            #"{"text":"日本語 \"q\" \/ \\","n":123456789012345678,"m":-12}"#,
            #"{"add":{"title":"Buy milk","tags":["a","b"],"due":null,"done":false}}"#,
        ]
        var generator = SplitMix64(seed: 2026)
        let alphabet = Array(#"{}[]",:\/ -+.0123456789eEtrufalsn"#.utf8) + [0x00, 0x1F, 0x7F, 0xC3, 0xA9, 0xE6, 0x97, 0xFF]
        var compact = 0, accepted = 0
        for iteration in 0..<6_000 {
            var bytes = Array(seeds[iteration % seeds.count].utf8)
            for _ in 0..<Int(generator.next() % 3) {
                let position = Int(generator.next() % UInt64(bytes.count))
                let byte = alphabet[Int(generator.next() % UInt64(alphabet.count))]
                switch generator.next() % 3 {
                case 0: bytes[position] = byte
                case 1: bytes.insert(byte, at: position)
                default: bytes.remove(at: position)
                }
            }
            var isCompact = false
            let end = rewind_json_skip_checked(bytes, bytes.count, 0, 0, &isCompact)
            guard end == bytes.count else { continue }
            accepted += 1
            let parsed = try? JSONParser.parse(bytes)
            #expect(parsed != nil, "\(String(decoding: bytes, as: UTF8.self))")
            if isCompact, let parsed {
                compact += 1
                #expect(JSONWriter.compact(parsed) == bytes, "\(String(decoding: bytes, as: UTF8.self))")
            }
        }
        #expect(accepted > 1_000 && compact > 300, "\(accepted) accepted, \(compact) compact")
    }
}

/// The `fast-readers` fuzz target's checks (`FastPathAgreement`) on its seeds and
/// on a recorder's lines and every change to them: no fast path disagrees with
/// its reference, so what the fuzzer finds is a new input, not a known one.
@Suite struct FastPathAgreementTests {
    @Test func theFuzzTargetsSeedsAndARecordersLinesAgree() throws {
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Fuzz/Corpus/fast-readers").standardized
        var inputs = try FileManager.default.contentsOfDirectory(atPath: corpus.path).map { name in
            Array(try Data(contentsOf: corpus.appendingPathComponent(name)))
        }
        #expect(inputs.count >= 10)
        inputs += try EntryScanReadingTests.recorderLinesAndChanges().prefix(3_000)
        var disagreements: [String] = []
        for input in inputs {
            let found = input.withUnsafeBufferPointer { FastPathAgreement.disagreements($0) }
            if !found.isEmpty { disagreements.append("\(String(decoding: input, as: UTF8.self).prefix(200)): \(found)") }
        }
        #expect(disagreements.isEmpty, "\(disagreements.count) disagree, first: \(disagreements.prefix(2).joined(separator: "\n"))")
    }
}
