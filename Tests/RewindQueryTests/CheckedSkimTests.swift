import Foundation
import Testing
@testable import RewindJSON
import CQueryScan
import CJSONScan
@testable import RewindQuery

/// The checked skim in C (`rewind_json_skip_checked`, which a scan's record
/// head is read with) against the Swift skimmer it stands in for: the same
/// verdict and the same end on every value, valid or broken, except nesting
/// deeper than the C one judges (left to the caller).
@Suite struct CheckedSkimTests {
    /// The Swift verdict: where the value at `position` ends, nil when the parser would not accept it.
    static func swiftEnd(_ bytes: [UInt8], at position: Int = 0, depth: Int = 0) -> Int? {
        bytes.withUnsafeBufferPointer { buffer in
            var skimmer = JSONSkimmer(buffer, at: position)
            skimmer.tracksCompactness = false
            return skimmer.skipValue(depth: depth) ? skimmer.position : nil
        }
    }

    /// The C verdict, the same way.
    static func cEnd(_ bytes: [UInt8], at position: Int = 0, depth: Int = 0) -> Int? {
        let end = bytes.withUnsafeBufferPointer { buffer in
            // A valid pointer even for no bytes.
            buffer.baseAddress.map { rewind_json_skip_checked($0, buffer.count, position, Int32(depth)) } ?? Int(REWIND_JSON_SKIM_UNDECIDED)
        }
        return end == Int(REWIND_JSON_SKIM_UNDECIDED) ? nil : end
    }

    @Test func randomDocumentsAndEveryChangeToThemGetTheSwiftVerdict() throws {
        var generator = SplitMix64(seed: 8259)
        let significant = Array(#"{}[],:"\ "#.utf8) + [UInt8(ascii: "0"), UInt8(ascii: "e"), UInt8(ascii: "."), UInt8(ascii: "-"),
                                                       UInt8(ascii: "u"), 0x09, 0x01, 0xC3, 0xA9, 0x80, 0xED, 0xF4, 0xFF]
        var accepted = 0, rejected = 0
        for _ in 0..<400 {
            let document = LazyJSONDocumentTests.randomDocument(&generator)
            let text = Array(LazyJSONDocumentTests.write(document, &generator).utf8)
            #expect(Self.cEnd(text) == text.count, "\(String(decoding: text, as: UTF8.self))")
            for round in 0..<30 {
                var changed = text
                let position = Int(generator.next() % UInt64(changed.count))
                switch round % 4 {
                case 0: changed[position] = significant[Int(generator.next() % UInt64(significant.count))]
                case 1: changed.insert(significant[Int(generator.next() % UInt64(significant.count))], at: position)
                case 2: changed.remove(at: position)
                default: changed.removeSubrange(position...)
                }
                let swift = Self.swiftEnd(changed)
                #expect(Self.cEnd(changed) == swift, "\(String(decoding: changed, as: UTF8.self))")
                if swift == nil { rejected += 1 } else { accepted += 1 }
            }
        }
        #expect(accepted > 1000 && rejected > 1000, "both verdicts are reached (\(accepted), \(rejected))")
    }

    /// The edges of what the skimmer judges itself, one at a time.
    @Test(arguments: [
        // Numbers: 18 digits are judged, 19 left to the parser; decimals of up to 19 characters with a one-digit exponent.
        "0", "-0", "01", "-", "-a", "123456789012345678", "1234567890123456789", "-123456789012345678",
        "1.5", "1.", ".5", "1e5", "1E+5", "1e-5", "1e", "1e+", "1.5e10", "1.5e1", "123456789012345.5", "1234567890123456.5",
        "12345678901234567.5", "1.25e-7", "0.0", "-0.0e0",
        // Numbers ended by whatever follows them, long runs of digits among them.
        "1234567/", "12345678:", "123456789 ", "1234567890é", "12345678901\u{7F}", "1764400000.032", "17644000001.0327e5",
        "12345678.12345678", "1.234567890123", "9876543210,",
        // Strings: escapes, surrogates, control bytes, UTF-8.
        #""""#, #""a""#, #""\"""#, #""\\""#, #""\/\b\f\n\r\t""#, #""\x""#, #""\u00e9""#, #""\u00E9""#, #""\u00g9""#, #""\u00""#,
        #""\ud83d\ude00""#, #""\ud83d""#, #""\ud83dx""#, #""\ud83d\u0041""#, #""\ude00""#, "\"é\"", "\"\u{1F600}\"", "\"a",
        "\"\u{7F}\"", "\"a string longer than thirty-two bytes, so vectors read it\"",
        // Literals and containers, with and without space.
        "true", "tru", "false", "null", "nul", "[]", "[ ]", "[1,]", "[,1]", "[1 , 2]", "{}", "{ }", #"{"a":1}"#, #"{"a" : 1 }"#,
        #"{"a":1,}"#, #"{"a"}"#, #"{1:2}"#, #"{"a":1 "b":2}"#, "[[[]]]", "[", "{", "x",
    ])
    func edgeCasesGetTheSwiftVerdict(text: String) {
        let bytes = Array(text.utf8)
        #expect(Self.cEnd(bytes) == Self.swiftEnd(bytes))
    }

    /// Bytes the Swift string type cannot hold: invalid UTF-8 inside a string.
    @Test(arguments: [[0xC0, 0x80], [0xC2], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xF0, 0x8F, 0xBF, 0xBF],
                      [0xF4, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF], [0xF5, 0x80, 0x80, 0x80], [0xFF], [0xC3, 0x28]] as [[UInt8]])
    func invalidUTF8GetsTheSwiftVerdict(inside: [UInt8]) {
        let bytes = [UInt8(ascii: "\"")] + inside + [UInt8(ascii: "\"")]
        #expect(Self.cEnd(bytes) == Self.swiftEnd(bytes))
        let long = [UInt8(ascii: "\"")] + Array(repeating: UInt8(ascii: "a"), count: 40) + inside + [UInt8(ascii: "\"")]
        #expect(Self.cEnd(long) == Self.swiftEnd(long))
    }

    @Test func nestingPastWhatCJudgesIsLeftToTheCaller() {
        let depth = Int(REWIND_JSON_SKIM_MAX_DEPTH)
        let deepest = Array((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
        #expect(Self.cEnd(deepest) == deepest.count)
        let deeper = Array((String(repeating: "[", count: depth + 1) + String(repeating: "]", count: depth + 1)).utf8)
        #expect(Self.cEnd(deeper) == nil)
        #expect(Self.swiftEnd(deeper) == deeper.count)
        // Containers around the value count too.
        #expect(Self.cEnd(deepest, depth: 1) == nil)
    }

    @Test func aValueIsSkimmedWhereItStartsAndEndsAtItsLastByte() {
        let bytes = Array(#"{"seq":12,"x":[1,"a"]}"#.utf8)
        #expect(Self.cEnd(bytes, at: 7) == 9)
        #expect(Self.cEnd(bytes, at: 14) == 21)
        #expect(Self.cEnd(bytes, at: 22) == nil)
    }
}
