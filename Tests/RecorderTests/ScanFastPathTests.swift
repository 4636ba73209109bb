import Foundation
import Testing
@testable import Recorder
import RewindJSON

/// The word-at-a-time paths a scan over every record takes (strings skimmed
/// 8 and 32 bytes at a time, CRC-32 16 bytes a step, patch paths from a cache)
/// give exactly what the byte-at-a-time definitions give.
@Suite struct ScanFastPathTests {
    /// A string long enough for the 32-byte steps, with one special byte at
    /// every position: the skimmer ends it where the parser does, and accepts
    /// it exactly when the parser does.
    @Test func longStringsEndAndFailWhereTheParserSays() {
        let specials: [[UInt8]] = [
            [UInt8(ascii: "\"")], [0x01], [0x1F], [UInt8(ascii: "\\"), UInt8(ascii: "n")], [UInt8(ascii: "\\"), UInt8(ascii: "q")],
            [0xC3, 0xA9], [0xC3], [0xFF], [0x7F], [UInt8(ascii: "\\"), UInt8(ascii: "u"), 0x30, 0x30, 0x65, 0x39],
        ]
        var checked = 0
        for length in [7, 8, 9, 31, 32, 33, 40, 63, 64, 65, 100] {
            for special in specials {
                for position in 0...length {
                    var inside = Array(repeating: UInt8(ascii: "a"), count: length)
                    inside.insert(contentsOf: special, at: position)
                    // A value after the string, so a string that ends early leaves bytes behind.
                    let bytes = [UInt8(ascii: "["), UInt8(ascii: "\"")] + inside + Array(#"",1]"#.utf8)
                    bytes.withUnsafeBufferPointer { buffer in
                        var skimmer = JSONSkimmer(buffer)
                        let skimmed = skimmer.skipValue(depth: 0) && skimmer.position == buffer.count
                        let parsed = (try? JSONParser.parse(buffer: buffer)) != nil
                        #expect(skimmed == parsed, "length \(length), \(special) at \(position)")
                        var string = JSONSkimmer(buffer, at: 1)
                        if string.skipString() {
                            // Where it ended: after the first unescaped quote.
                            let text = String(decoding: bytes, as: UTF8.self)
                            #expect(parsed || special == [UInt8(ascii: "\"")], "\(text)")
                            if special != [UInt8(ascii: "\"")] { #expect(string.position == bytes.count - 3, "\(text)") }
                            else { #expect(string.position == 2 + position + 1, "\(text)") }
                        }
                        checked += 1
                    }
                }
            }
        }
        #expect(checked > 4_000)
    }

    /// The bitwise definition of CRC-32 (zlib's), one bit at a time.
    static func bitwiseCRC32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return crc ^ 0xFFFF_FFFF
    }

    @Test func crc32MatchesItsBitwiseDefinitionAtEveryLengthAndAlignment() {
        var generator = SplitMix64(seed: 19)
        let data = (0..<300).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        for offset in 0..<8 {
            for length in 0..<(data.count - offset) where length < 70 || length % 7 == 0 {
                let slice = Array(data[offset..<(offset + length)])
                let expected = length == 0 ? 0 : Self.bitwiseCRC32(slice)
                let actual = data.withUnsafeBytes { CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[offset..<(offset + length)])) }
                #expect(actual == expected, "offset \(offset), length \(length)")
            }
        }
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926, "the standard check value")
    }

    /// A cache of path pointers gives the pointer of the bytes asked for, even
    /// when it is full and starts over, and never one of other bytes.
    @Test func pathPointersFromTheCacheAreThoseOfTheirBytes() {
        var cache = PathPointerCache()
        var made = 0
        for round in 0..<3 {
            for number in 0..<(PathPointerCache.capacity + 100) {
                let text = Array("/items/\(number)/value".utf8)
                let pointer = text.withUnsafeBufferPointer { bytes in
                    cache.pointer(bytes) { bytes in
                        made += 1
                        return try? JSONPointer(parsing: String(decoding: bytes, as: UTF8.self))
                    }
                }
                #expect(pointer == JSONPointer(tokens: ["items", String(number), "value"]), "round \(round), \(number)")
            }
        }
        #expect(made > PathPointerCache.capacity + 100, "a full cache starts over")
        let empty = [UInt8]().withUnsafeBufferPointer { bytes in cache.pointer(bytes) { _ in JSONPointer() } }
        #expect(empty == JSONPointer())
    }
}
