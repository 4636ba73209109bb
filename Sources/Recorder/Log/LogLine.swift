/// How one record is framed on its line (see docs/FORMAT.md, "Checksums").
///
/// Every record is a JSON object on one line whose last member is
/// `"crc":"xxxxxxxx"`: eight lowercase hex digits of the CRC-32 of the line's
/// bytes up to, not including, the final `,"crc":"xxxxxxxx"}` (18 bytes). The
/// checksum therefore comes from the bytes as written, never from a re-encoding.
package enum LogLine {
    static let formatName = "rewind"
    static let formatVersion = 1

    /// `,"crc":"` + 8 hex digits + `"}`.
    static let checksumSuffixLength = 18
    private static let checksumMarker = Array(#","crc":""#.utf8)
    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Records start with their kind, so the reader classifies a line without parsing it.
    package static let headerPrefix = Array(#"{"kind":"header""#.utf8)
    static let entryPrefix = Array(#"{"kind":"entry""#.utf8)
    /// Keyframe entries say so first, so the index knows them without parsing.
    package static let keyframePrefix = Array(#"{"kind":"entry","keyframe":true"#.utf8)
    static let gapPrefix = Array(#"{"kind":"gap""#.utf8)

    /// Closes the record that starts at `start` in `buffer` (an object missing
    /// its closing brace) with its checksum member, `}` and the newline.
    package static func seal(_ buffer: inout [UInt8], recordStart start: Int) {
        let crc = buffer.withUnsafeBytes { bytes in
            CRC32.checksum(UnsafeRawBufferPointer(rebasing: bytes[start...]))
        }
        buffer.append(contentsOf: checksumMarker)
        for shift in stride(from: 28, through: 0, by: -4) {
            buffer.append(hexDigits[Int((crc >> UInt32(shift)) & 0xF)])
        }
        buffer.append(UInt8(ascii: "\""))
        buffer.append(UInt8(ascii: "}"))
        buffer.append(UInt8(ascii: "\n"))
    }

    /// True when `line` (without its newline) ends with a checksum member that
    /// matches the bytes before it.
    package static func verify(_ line: UnsafeRawBufferPointer) -> Bool {
        let count = line.count
        guard count > checksumSuffixLength + 1 else { return false }
        let suffixStart = count - checksumSuffixLength
        for (offset, byte) in checksumMarker.enumerated() where line[suffixStart + offset] != byte { return false }
        guard line[count - 2] == UInt8(ascii: "\""), line[count - 1] == UInt8(ascii: "}") else { return false }
        var stored: UInt32 = 0
        for index in (suffixStart + checksumMarker.count)..<(count - 2) {
            let byte = line[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            default: return false
            }
            stored = stored << 4 | UInt32(digit)
        }
        return CRC32.checksum(UnsafeRawBufferPointer(rebasing: line[..<suffixStart])) == stored
    }

    package static func hasPrefix(_ line: UnsafeRawBufferPointer, _ prefix: [UInt8]) -> Bool {
        guard line.count >= prefix.count else { return false }
        for (offset, byte) in prefix.enumerated() where line[offset] != byte { return false }
        return true
    }
}
