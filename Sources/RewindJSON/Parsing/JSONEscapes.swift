/// Pieces of JSON's string escapes shared by the parser (which decodes them)
/// and the log's record skimmer (which only checks them).
package enum JSONEscapes {
    /// The value of one hex digit of a `\u` escape, nil for any other byte.
    @inline(__always)
    package static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - 0x30)
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - 0x61 + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - 0x41 + 10)
        default: nil
        }
    }
}
