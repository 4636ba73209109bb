import CRC32Hardware

/// CRC-32 as used by zlib, gzip and PNG (IEEE 802.3 polynomial, reflected,
/// initial value and final XOR 0xFFFFFFFF), so any tool can verify a record:
/// `python3 -c 'import zlib,sys; print("%08x" % zlib.crc32(sys.stdin.buffer.read()))'`.
///
/// The log reader checks every record while indexing, so this runs over the
/// whole file and must keep up with the disk. The reference is the table CRC
/// (slicing-by-16: 16 KB of tables, in L1; what every CPU but x86-64 runs); the
/// one fast path folds the bulk of a buffer by carry-less multiplication on
/// x86-64 (`CRC32Hardware`, several times the tables' speed), the tables doing
/// the tail under 16 bytes. `REWIND_REFERENCE_READERS=crc32` runs the tables alone.
package enum CRC32 {
    package static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard bytes.count > 0, let base = bytes.baseAddress else { return 0 }
        var crc: UInt32 = 0xFFFF_FFFF
        var index = 0
        if usesHardware, bytes.count >= 64 {
            crc = rewind_crc32_fold(crc, base, bytes.count, &index)
        }
        return tableChecksum(continuing: crc, base: base, from: index, count: bytes.count) ^ 0xFFFF_FFFF
    }

    /// The reference: the tables alone (what the fast path is held to).
    package static func tableChecksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard bytes.count > 0, let base = bytes.baseAddress else { return 0 }
        return tableChecksum(continuing: 0xFFFF_FFFF, base: base, from: 0, count: bytes.count) ^ 0xFFFF_FFFF
    }

    /// Whether this CPU folds (read once: `cpuid` is not free per record).
    static let hasHardware = rewind_crc32_hardware_available() != 0
    /// Whether the fast path runs: the CPU has it and the reference was not asked for.
    static let usesHardware = hasHardware && !ReferenceReaders.current.contains(.crc32)

    /// Advances the register `crc` (before the final XOR) over `base[index..<count]`.
    private static func tableChecksum(continuing crc: UInt32, base: UnsafeRawPointer, from start: Int, count: Int) -> UInt32 {
        var crc = crc
        var index = start
        tables.withUnsafeBufferPointer { table in
            while count - index >= 16 {
                let a = base.loadUnaligned(fromByteOffset: index, as: UInt32.self).littleEndian ^ crc
                let b = base.loadUnaligned(fromByteOffset: index + 4, as: UInt32.self).littleEndian
                let c = base.loadUnaligned(fromByteOffset: index + 8, as: UInt32.self).littleEndian
                let d = base.loadUnaligned(fromByteOffset: index + 12, as: UInt32.self).littleEndian
                crc = table[15 * 256 + Int(a & 0xFF)] ^ table[14 * 256 + Int((a >> 8) & 0xFF)]
                    ^ table[13 * 256 + Int((a >> 16) & 0xFF)] ^ table[12 * 256 + Int(a >> 24)]
                    ^ table[11 * 256 + Int(b & 0xFF)] ^ table[10 * 256 + Int((b >> 8) & 0xFF)]
                    ^ table[9 * 256 + Int((b >> 16) & 0xFF)] ^ table[8 * 256 + Int(b >> 24)]
                    ^ table[7 * 256 + Int(c & 0xFF)] ^ table[6 * 256 + Int((c >> 8) & 0xFF)]
                    ^ table[5 * 256 + Int((c >> 16) & 0xFF)] ^ table[4 * 256 + Int(c >> 24)]
                    ^ table[3 * 256 + Int(d & 0xFF)] ^ table[2 * 256 + Int((d >> 8) & 0xFF)]
                    ^ table[1 * 256 + Int((d >> 16) & 0xFF)] ^ table[Int(d >> 24)]
                index += 16
            }
            while count - index >= 8 {
                let low = base.loadUnaligned(fromByteOffset: index, as: UInt32.self).littleEndian ^ crc
                let high = base.loadUnaligned(fromByteOffset: index + 4, as: UInt32.self).littleEndian
                crc = table[7 * 256 + Int(low & 0xFF)]
                    ^ table[6 * 256 + Int((low >> 8) & 0xFF)]
                    ^ table[5 * 256 + Int((low >> 16) & 0xFF)]
                    ^ table[4 * 256 + Int(low >> 24)]
                    ^ table[3 * 256 + Int(high & 0xFF)]
                    ^ table[2 * 256 + Int((high >> 8) & 0xFF)]
                    ^ table[1 * 256 + Int((high >> 16) & 0xFF)]
                    ^ table[Int(high >> 24)]
                index += 8
            }
            while index < count {
                let byte = base.load(fromByteOffset: index, as: UInt8.self)
                crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
                index += 1
            }
        }
        return crc
    }

    package static func checksum(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0) }
    }

    /// Sixteen 256-entry tables: table 0 is the classic byte-at-a-time table,
    /// table k advances a byte through k further zero bytes.
    private static let tables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 16 * 256)
        for byte in 0..<256 {
            var crc = UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            tables[byte] = crc
        }
        for byte in 0..<256 {
            var crc = tables[byte]
            for slice in 1..<16 {
                crc = tables[Int(crc & 0xFF)] ^ (crc >> 8)
                tables[slice * 256 + byte] = crc
            }
        }
        return tables
    }()
}
