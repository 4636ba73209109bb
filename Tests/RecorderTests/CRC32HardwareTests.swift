import Foundation
import Testing
@testable import Recorder


/// CRC-32's fast path, carry-less multiplication (`CRC32Hardware`, what
/// `CRC32.checksum` runs on x86-64 with PCLMULQDQ), gives its reference's result
/// (the tables), byte for byte, whatever the length and the alignment: a record
/// checked by one and written by the other must agree, or the reader would call
/// good records damaged.
@Suite struct CRC32HardwareTests {
    static func random(_ count: Int, _ generator: inout SplitMix64) -> [UInt8] {
        (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
    }

    @Test func theHardwarePathIsTakenWhereTheCPUHasIt() throws {
        #if arch(x86_64) && os(Linux)
        let cpuinfo = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
        let flags = cpuinfo.split(separator: "\n").first { $0.hasPrefix("flags") }.map { Set($0.split(separator: " ")) } ?? []
        #expect(CRC32.hasHardware == (flags.contains("pclmulqdq") && flags.contains("sse4_1")))
        #endif
    }

    @Test func everyLengthUpTo800AtEveryAlignmentMatchesTheTables() {
        // Under 64 bytes the tables alone; then 64-byte folding steps, 16-byte ones, and a tail in the tables.
        var generator = SplitMix64(seed: 2026)
        let data = Self.random(800 + 16, &generator)
        data.withUnsafeBytes { all in
            for offset in 0..<16 {
                for length in 0...800 where offset + length <= all.count {
                    let bytes = UnsafeRawBufferPointer(rebasing: all[offset..<(offset + length)])
                    #expect(CRC32.checksum(bytes) == CRC32.tableChecksum(bytes), "offset \(offset), length \(length)")
                }
            }
        }
    }

    @Test func largeBuffersMatchTheTablesAndTheBitwiseDefinition() {
        var generator = SplitMix64(seed: 7)
        let data = Self.random(1 << 20, &generator)
        let lengths = [64, 127, 128, 4095, 65_536, 65_537, 1 << 20] + (0..<40).map { _ in Int(generator.next() % (1 << 20)) }
        data.withUnsafeBytes { all in
            for length in lengths {
                let offset = Int(generator.next() % 16)
                let bytes = UnsafeRawBufferPointer(rebasing: all[offset..<min(all.count, offset + length)])
                #expect(CRC32.checksum(bytes) == CRC32.tableChecksum(bytes), "offset \(offset), length \(length)")
            }
        }
        let slice = Array(data[3..<(3 + 5000)])
        #expect(CRC32.checksum(slice) == ScanFastPathTests.bitwiseCRC32(slice))
    }

    @Test func knownCheckValues() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([UInt8]()) == 0)
        // zlib.crc32 of 64, 100 and 1000 bytes (all zero, all 0xFF, and "a".."z" repeated):
        // lengths that go through the folding, its tail, and both.
        #expect(CRC32.checksum([UInt8](repeating: 0, count: 64)) == 0x758D_6336)
        #expect(CRC32.checksum([UInt8](repeating: 0xFF, count: 100)) == 0x03D2_8681)
        #expect(CRC32.checksum((0..<1000).map { UInt8(ascii: "a") + UInt8($0 % 26) }) == 0x5401_62A7)
    }
}
