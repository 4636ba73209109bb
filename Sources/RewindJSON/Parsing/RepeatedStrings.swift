import Foundation  // memcmp

/// Medium-length strings seen recently, so a value repeated through a state
/// (an email on every record, a category, a URL prefix) is one shared String
/// instead of an allocation and a copy per occurrence. Strings of up to 15
/// UTF-8 bytes need no allocation anyway; long ones rarely repeat.
///
/// A slot remembers the hash of the last string that landed in it and keeps
/// a String only once that hash is seen a second time, so strings that never
/// repeat (titles, ids) cost a hash and a store, with no reference counting.
struct RepeatedStrings {
    static let shortestShared = 15
    static let longestShared = 64
    private static let slotCount = 512
    // Allocated on first use: most parses (a record's members) have no such strings.
    private var hashes: [UInt64] = []
    private var strings: [String] = []
    /// Lookups that found nothing, less 8 per one that did: a document whose
    /// strings do not repeat (ids, names with numbers) stops paying for the table.
    private var misses = 0

    /// The string with these (valid UTF-8) bytes, shared with an earlier one when it repeats.
    mutating func string(for bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard misses < 256 else { return String(decoding: bytes, as: UTF8.self) }
        if hashes.isEmpty {
            hashes = [UInt64](repeating: 0, count: Self.slotCount)
            strings = [String](repeating: "", count: Self.slotCount)
        }
        let hash = Self.hash(bytes)
        let slot = Int(truncatingIfNeeded: hash >> 55) & (Self.slotCount - 1)
        guard hashes[slot] == hash else {
            // First sighting (or a collision): remember the hash only.
            hashes[slot] = hash
            misses += 1
            return String(decoding: bytes, as: UTF8.self)
        }
        let same = strings[slot].utf8.withContiguousStorageIfAvailable { stored in
            stored.count == bytes.count && memcmp(stored.baseAddress!, bytes.baseAddress!, bytes.count) == 0
        }
        if same == true {
            misses = max(0, misses - 8)
            return strings[slot]
        }
        // Seen a second time: keep it for the ones after.
        let string = String(decoding: bytes, as: UTF8.self)
        strings[slot] = string
        return string
    }

    /// A fast multiplicative hash, eight bytes at a time.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let raw = UnsafeRawPointer(bytes.baseAddress!)
        var hash = UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15
        var offset = 0
        while offset + 8 <= bytes.count {
            hash = (hash ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
            offset += 8
        }
        if offset < bytes.count {
            var tail: UInt64 = 0
            for index in offset..<bytes.count { tail = tail << 8 | UInt64(bytes[index]) }
            hash = (hash ^ tail) &* 0xC4CE_B9FE_1A85_EC53
        }
        return hash ^ (hash >> 29)
    }
}
