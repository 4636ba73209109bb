import Foundation
import Testing
@testable import Recorder
import RewindJSON

/// CRC-32's reference (the tables, 16 bytes a step) against its bitwise
/// definition, and patch paths from the scans' cache against the pointers of
/// their bytes.
@Suite struct ScanFastPathTests {
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
