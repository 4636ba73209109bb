import Foundation

/// How one record is framed on its line (see docs/FORMAT.md, "Checksums").
///
/// Every record is a JSON object on one line whose last member is
/// `"crc":"xxxxxxxx"`: eight lowercase hex digits of the CRC-32 of the line's
/// bytes up to, not including, the final `,"crc":"xxxxxxxx"}` (18 bytes). The
/// checksum therefore comes from the bytes as written, never from a re-encoding.
///
/// Format 2 chains records to their session (``LogChain``): the member before
/// the checksum is `"n":N`, the record's number in its session (the header is 0),
/// and every record after the header stores its CRC-32 XOR the header's, so a
/// line copied from another log or session does not verify, and a duplicated,
/// moved or deleted line shows as a number out of order.
package enum LogLine {
    static let formatName = "rewind"
    /// 3: entries that hold a patch leave out `kind` and write `t` for `time`.
    package static let formatVersion = 3

    /// `,"crc":"` + 8 hex digits + `"}`.
    static let checksumSuffixLength = 18
    private static let checksumMarker = Array(#","crc":""#.utf8)
    private static let numberMarker = Array(#","n":"#.utf8)
    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Records start with their kind (or, an entry holding a patch, its `seq`), so the
    /// reader classifies a line without parsing it.
    package static let headerPrefix = Array(Kind.header.description.utf8)
    package static let entryPrefix = Array(Kind.entry.description.utf8)
    /// Keyframe entries say so first, so the index knows them without parsing.
    package static let keyframePrefix = Array(Kind.keyframe.description.utf8)
    /// An entry that holds a patch leaves out its kind (format 3): it starts with its sequence number.
    package static let patchEntryPrefix = Array(Kind.patchEntry.description.utf8)
    package static let gapPrefix = Array(Kind.gap.description.utf8)

    /// The same prefixes as static text, for the index's look at every line
    /// (no array to load and retain: a few percent of a search's CPU).
    package enum Kind {
        static let header: StaticString = #"{"kind":"header""#
        package static let entry: StaticString = #"{"kind":"entry""#
        static let keyframe: StaticString = #"{"kind":"entry","keyframe":true"#
        /// A record without `kind` whose first member is `seq`: an entry that holds a patch
        /// (format 3: fifteen bytes of every such entry; a reader before it skips the line
        /// as a record of a later kind, and reads the keyframes around it as before).
        package static let patchEntry: StaticString = #"{"seq":"#
        static let gap: StaticString = #"{"kind":"gap""#
    }

    /// Closes the record that starts at `start` in `buffer` (an object missing
    /// its closing brace) with its checksum member, `}` and the newline, unchained
    /// (format 1 framing: test fixtures and tools that write single records).
    package static func seal(_ buffer: inout [UInt8], recordStart start: Int) {
        appendChecksum(&buffer, crc: checksum(buffer, from: start))
    }

    /// Closes a record of a chained session: `,"n":N` (its number in `chain`),
    /// then the checksum (XOR the session's key for every record after the header).
    /// The first record sealed with a fresh chain must be the session's header.
    ///
    /// This is the one place a writer's records get their chain; the recorder's
    /// writer and ``LogBuilder`` call it for every record.
    package static func seal(_ buffer: inout [UInt8], recordStart start: Int, chain: inout LogChain) {
        buffer.append(contentsOf: numberMarker)
        JSONWriter.appendInteger(chain.nextNumber, to: &buffer)
        let crc = checksum(buffer, from: start)
        if chain.nextNumber == 0 {
            chain.key = crc
            appendChecksum(&buffer, crc: crc)
        } else {
            appendChecksum(&buffer, crc: crc ^ chain.key)
        }
        chain.nextNumber += 1
    }

    private static func checksum(_ buffer: [UInt8], from start: Int) -> UInt32 {
        buffer.withUnsafeBytes { bytes in CRC32.checksum(UnsafeRawBufferPointer(rebasing: bytes[start...])) }
    }

    private static func appendChecksum(_ buffer: inout [UInt8], crc: UInt32) {
        buffer.append(contentsOf: checksumMarker)
        for shift in stride(from: 28, through: 0, by: -4) {
            buffer.append(hexDigits[Int((crc >> UInt32(shift)) & 0xF)])
        }
        buffer.append(UInt8(ascii: "\""))
        buffer.append(UInt8(ascii: "}"))
        buffer.append(UInt8(ascii: "\n"))
    }

    /// What a line's framing says, before knowing its session.
    package struct Seal: Equatable {
        /// The stored checksum XOR the CRC-32 of the bytes it covers: 0 for a header
        /// and for unchained (format 1) records, the session's key for chained ones;
        /// anything else means the bytes changed (or belong to another session).
        package var key: UInt32
        /// The stored checksum.
        package var stored: UInt32
        /// `"n"`: the record's number in its session (nil for format 1 records).
        package var number: Int64?
    }

    /// Reads a line's framing (without its newline); nil when it does not end
    /// with a well-formed checksum member (an incomplete or mangled record).
    package static func unseal(_ line: UnsafeRawBufferPointer) -> Seal? {
        let count = line.count
        guard count > checksumSuffixLength + 1 else { return nil }
        let suffixStart = count - checksumSuffixLength
        // memcmp and raw reads: the index unseals every line of every log it opens.
        let base = line.baseAddress!.assumingMemoryBound(to: UInt8.self)
        guard checksumMarker.withUnsafeBufferPointer({ memcmp(base + suffixStart, $0.baseAddress!, $0.count) == 0 }),
              base[count - 2] == UInt8(ascii: "\""), base[count - 1] == UInt8(ascii: "}") else { return nil }
        var stored: UInt32 = 0
        for index in (suffixStart + checksumMarker.count)..<(count - 2) {
            let byte = base[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            default: return nil
            }
            stored = stored << 4 | UInt32(digit)
        }
        let crc = CRC32.checksum(UnsafeRawBufferPointer(rebasing: line[..<suffixStart]))
        return Seal(key: stored ^ crc, stored: stored, number: number(line, before: suffixStart))
    }

    /// Appends `line` (a verified record without its newline) sealed anew in `chain`:
    /// its framing (`"n"` and `"crc"`) replaced. For a writer that stores records
    /// another writer sealed, as `rewind listen` stores what an app streams: its file
    /// is then one chain of its own, whatever the stream dropped or added.
    package static func reseal(_ line: UnsafeRawBufferPointer, into buffer: inout [UInt8], chain: inout LogChain) {
        var end = line.count - checksumSuffixLength
        var digits = end
        while digits > 0, line[digits - 1] >= UInt8(ascii: "0"), line[digits - 1] <= UInt8(ascii: "9") { digits -= 1 }
        if digits < end, digits >= numberMarker.count,
            numberMarker.enumerated().allSatisfy({ line[digits - numberMarker.count + $0.offset] == $0.element }) {
            end = digits - numberMarker.count
        }
        let start = buffer.count
        buffer.append(contentsOf: line[..<end])
        seal(&buffer, recordStart: start, chain: &chain)
    }

    /// Where a sealed record's own members end: at its `,"n":N` member, or at
    /// its checksum member in format 1; nil when the line does not end with one.
    /// (The checksum itself is not checked here: the index checked it.)
    static func membersEnd(_ line: UnsafeRawBufferPointer) -> Int? {
        guard line.count > checksumSuffixLength + 1 else { return nil }
        let suffixStart = line.count - checksumSuffixLength
        for (offset, byte) in checksumMarker.enumerated() where line[suffixStart + offset] != byte { return nil }
        var digits = suffixStart
        while digits > 0, line[digits - 1] >= UInt8(ascii: "0"), line[digits - 1] <= UInt8(ascii: "9") { digits -= 1 }
        if digits < suffixStart, digits >= numberMarker.count,
            numberMarker.enumerated().allSatisfy({ line[digits - numberMarker.count + $0.offset] == $0.element }) {
            return digits - numberMarker.count
        }
        return suffixStart
    }

    /// The `"n":N` member that ends at `end`, read backwards; nil when absent.
    private static func number(_ line: UnsafeRawBufferPointer, before end: Int) -> Int64? {
        var start = end
        while start > 0, start > end - 19, line[start - 1] >= UInt8(ascii: "0"), line[start - 1] <= UInt8(ascii: "9") { start -= 1 }
        guard start < end, start >= numberMarker.count else { return nil }
        for (offset, byte) in numberMarker.enumerated() where line[start - numberMarker.count + offset] != byte { return nil }
        var value: Int64 = 0
        for index in start..<end {
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times.addingReportingOverflow(Int64(line[index] - UInt8(ascii: "0")))
            if overflow || carry { return nil }
            value = sum
        }
        return value
    }

    /// True when `line` (without its newline) ends with a checksum member that
    /// matches the bytes before it, unchained (a header or a format 1 record).
    package static func verify(_ line: UnsafeRawBufferPointer) -> Bool {
        unseal(line)?.key == 0
    }

    /// True when `line` is an entry record: it starts `{"kind":"entry"` or, an entry
    /// holding a patch (format 3), `{"seq":`.
    package static func isEntry(_ line: UnsafeRawBufferPointer) -> Bool {
        hasPrefix(line, Kind.entry) || hasPrefix(line, Kind.patchEntry)
    }

    static func hasPrefix(_ line: UnsafeRawBufferPointer, _ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        return line.count >= count && (count == 0 || memcmp(line.baseAddress!, prefix.utf8Start, count) == 0)
    }

    package static func hasPrefix(_ line: UnsafeRawBufferPointer, _ prefix: [UInt8]) -> Bool {
        guard line.count >= prefix.count else { return false }
        guard !prefix.isEmpty else { return true }
        // memcmp: the index asks this three times of every line.
        return prefix.withUnsafeBytes { memcmp(line.baseAddress!, $0.baseAddress!, prefix.count) == 0 }
    }
}

/// A writer's place in its session's chain (format 2): the number of the
/// next record and the key (the header's checksum) every later record's
/// checksum is XORed with. A new session starts with a fresh chain.
package struct LogChain: Sendable {
    package var nextNumber: Int64 = 0
    package var key: UInt32 = 0
    package init() {}
}
