import Foundation
import Testing
import CJSONScan
@testable import RewindJSON

/// Where a string's plain run ends, the fast path (`rewind_json_plain_run`:
/// 64 bytes a branch in the compiler's portable vectors, what the parser, the
/// checked skim and a patch's paths run) against the reference
/// (`rewind_json_plain_run_reference`, a byte at a time); and strings judged by
/// the checked skim end, fail and count as written exactly where the parser
/// says. A wrong answer would end an action's text early or late, or let a
/// control character or invalid UTF-8 through a search that the parser rejects.
@Suite struct JSONStringScanTests {
    static func run(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> (plain: Int, hasHighByte: Bool) {
        let run = rewind_json_plain_run(bytes, count)
        return (run.plain, run.hasHighByte)
    }

    /// The reference: the first '"', '\\' or byte below 0x20, and whether a byte before it is 0x80 or more.
    static func scalarRun(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> (plain: Int, hasHighByte: Bool) {
        let run = rewind_json_plain_run_reference(bytes, count)
        return (run.plain, run.hasHighByte)
    }

    /// Plain bytes of every kind, the neighbours of the special ones included
    /// (space, '!', '#', '[', ']', DEL).
    static let filler: [UInt8] = (0x20...0x7F).filter { $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
    static let stops: [UInt8] = [UInt8(ascii: "\""), UInt8(ascii: "\\")] + Array(0x00...0x1F)

    /// Every length 0–300 at 16 alignments, with a stop byte at every
    /// position: each of the 34 at the first alignment, a quote at the others
    /// (a byte's place in a vector is its offset from the start, so the other
    /// alignments differ only in the address); and with a byte of 0x80 or more
    /// just before, long before, or just after the stop, or with no stop.
    /// A 0x00 before the start and a 0xFF after the end catch reads outside.
    @Test func thePlainRunEndsWhereTheByteByByteDefinitionSays() {
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: 64 + 16 + 300 + 64)
        defer { buffer.deallocate() }
        var mismatches: [String] = []
        var checked = 0
        func check(_ start: UnsafeMutablePointer<UInt8>, _ length: Int, _ what: @autoclosure () -> String) {
            let actual = Self.run(start, length)
            let expected = Self.scalarRun(start, length)
            checked += 1
            if actual != expected, mismatches.count < 20 { mismatches.append("\(what()): \(actual), expected \(expected)") }
        }
        let aligned = buffer + (64 - Int(bitPattern: buffer) % 64)
        for alignment in 0..<16 {
            let start = aligned + alignment
            for length in 0...300 {
                start[-1] = 0x00
                for index in 0..<length { start[index] = Self.filler[(index * 7 + length) % Self.filler.count] }
                start[length] = 0xFF
                check(start, length, "alignment \(alignment), length \(length), no stop")
                for position in 0..<length {
                    let plain = start[position]
                    for stop in alignment == 0 ? Self.stops : [UInt8(ascii: "\"")] {
                        start[position] = stop
                        check(start, length, "alignment \(alignment), length \(length), \(stop) at \(position)")
                    }
                    guard alignment == 0 else { start[position] = plain; continue }
                    // High bytes around a quote, and with no stop.
                    for high in [position - 1, position / 2, position + 1] where high >= 0 && high < length && high != position {
                        let kept = start[high]
                        start[high] = [0x80, 0xC3, 0xFF][high % 3]
                        check(start, length, "length \(length), quote at \(position), high byte at \(high)")
                        start[high] = kept
                    }
                    start[position] = 0xE2
                    check(start, length, "length \(length), no stop, high byte at \(position)")
                    start[position] = plain
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
        #expect(checked > 2_000_000)
    }

    /// Every byte value (0x00–0xFF) at every place of a 200-byte run: the first
    /// sixteen bytes, each vector of the 64-byte steps and of the sixteen-byte steps
    /// after them, and the tail. The fast path finds '"' and control bytes by
    /// `(byte xor 2) <= 0x20` and '\\' by `byte xor '\\' == 0`: a byte next to them in
    /// value, or equal to one but for its high bit (0xA2, 0xDC, 0x80–0x9F), must not stop it.
    @Test func everyByteValueStopsTheRunExactlyWhenTheDefinitionSays() {
        let length = 200
        var bytes = (0..<length).map { Self.filler[($0 * 7) % Self.filler.count] }
        var mismatches: [String] = []
        for value in 0...255 {
            for position in 0..<length {
                let plain = bytes[position]
                bytes[position] = UInt8(value)
                bytes.withUnsafeBufferPointer { buffer in
                    let actual = Self.run(buffer.baseAddress!, length), expected = Self.scalarRun(buffer.baseAddress!, length)
                    if actual != expected, mismatches.count < 20 {
                        mismatches.append("byte \(value) at \(position): \(actual), expected \(expected)")
                    }
                }
                bytes[position] = plain
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
    }

    /// Strings that end exactly at an unreadable page: any read past the
    /// given count would crash the test run.
    @Test func neverReadsPastTheEnd() throws {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let mapped = try #require(mmap(nil, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0))
        try #require(mapped != UnsafeMutableRawPointer(bitPattern: -1))
        defer { munmap(mapped, 2 * page) }
        try #require(mprotect(mapped + page, page, PROT_NONE) == 0)
        let end = mapped.assumingMemoryBound(to: UInt8.self) + page
        for length in 0...300 {
            let start = end - length
            for index in 0..<length { start[index] = UInt8(ascii: "a") }
            #expect(Self.run(start, length) == (length, false), "length \(length)")
            if length > 0 {
                start[length - 1] = UInt8(ascii: "\"")
                #expect(Self.run(start, length) == (length - 1, false), "length \(length), quote last")
            }
        }
    }

    // MARK: Strings through the checked skim and the parser

    /// What may sit inside a string: the stops, escapes good and bad, and
    /// UTF-8 good and bad (each decides whether the string needs validating).
    static let specials: [[UInt8]] = [
        [UInt8(ascii: "\"")], [0x00], [0x0A], [0x1F], [0x7F],
        Array(#"\n"#.utf8), Array(#"\""#.utf8), Array(#"\u00e9"#.utf8), Array(#"\ud83e\udd8a"#.utf8), Array(#"\q"#.utf8), Array(#"\ud800"#.utf8),
        [0xC3, 0xA9], [0xF0, 0x9F, 0xA6, 0x8A], [0xC3], [0xFF], [0xED, 0xA0, 0x80],
    ]

    /// Where a string at byte 0 ends, byte by byte (after the first quote no
    /// backslash escapes), and whether it has an escape; nil when it does not end.
    static func closingQuote(_ bytes: [UInt8]) -> (end: Int, hasEscape: Bool)? {
        var index = 1
        var hasEscape = false
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""): return (index + 1, hasEscape)
            case UInt8(ascii: "\\"): hasEscape = true; index += 2
            default: index += 1
            }
        }
        return nil
    }

    /// Every length 0–300 with each special at every position, alone and after
    /// an escape (the scan starts again after it), followed by another value:
    /// the checked skim accepts the string exactly when the parser does, ends it
    /// after its closing quote, and calls it as written exactly when it has no
    /// escape; the parser reads a plain string's bytes as its text. (The parser
    /// judges each string up to 64 bytes and every 25th length; past that, its
    /// verdict on the special alone stands in: a debug build parses slowly.)
    @Test(arguments: Array(specials.indices))
    func skimmedStringsEndAndFailWhereTheParserSays(special: Int) {
        let special = Self.specials[special]
        let tail = Array(#"","next"]"#.utf8)
        var mismatches: [String] = []
        var checked = 0
        var parsedCount = 0
        for escapeFirst in [false, true] {
            let alone = [UInt8(ascii: "\"")] + (escapeFirst ? Array(#"\t"#.utf8) : []) + special + [UInt8(ascii: "\"")]
            let accepts = special == [UInt8(ascii: "\"")] || (try? JSONParser.parse(alone)) != nil
            for length in 0...300 where !escapeFirst || length % 3 == 0 {
                let plain = (0..<length).map { Self.filler[($0 * 5 + length) % Self.filler.count] }
                for position in 0...length {
                    var bytes = [UInt8(ascii: "\"")]
                    bytes.reserveCapacity(length + special.count + 16)
                    bytes += plain[0..<(position / 2)]
                    if escapeFirst { bytes += Array(#"\t"#.utf8) }
                    bytes += plain[(position / 2)..<position]
                    bytes += special
                    bytes += plain[position...]
                    bytes += tail
                    guard let (end, hasEscape) = Self.closingQuote(bytes) else { continue }
                    let what = "length \(length), \(special) at \(position)\(escapeFirst ? " after an escape" : "")"
                    checked += 1
                    bytes.withUnsafeBufferPointer { buffer in
                        var expected = accepts
                        if length <= 64 || length % 25 == 0 {
                            parsedCount += 1
                            let parsed = try? JSONParser.parse(buffer: UnsafeBufferPointer(rebasing: buffer[0..<end]))
                            expected = parsed != nil
                            if let parsed, !hasEscape {
                                let text = String(bytes: buffer[1..<(end - 1)], encoding: .utf8)
                                if text == nil || parsed != .string(text!) { mismatches.append("\(what): parsed \(parsed)") }
                            }
                        }
                        var compact = false
                        let skimmedEnd = rewind_json_skip_checked(buffer.baseAddress!, buffer.count, 0, 0, &compact)
                        let skimmed = skimmedEnd >= 0
                        if skimmed != expected {
                            mismatches.append("\(what): skimmed \(skimmed), parsed \(expected)")
                        } else if skimmed && (skimmedEnd != end || compact == hasEscape) {
                            mismatches.append("\(what): ended at \(skimmedEnd) (expected \(end)), as written \(compact)")
                        }
                    }
                    if mismatches.count >= 20 { break }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
        #expect(checked > 55_000 && parsedCount > 2_000)
    }
}
