/// Tests on eight bytes at once (a `UInt64` loaded from a string's bytes),
/// so scanning runs of plain text costs one check per word instead of per byte.
package enum ByteWords {

    /// True when a byte of `word` is '"', '\\' or below 0x20: what ends a
    /// JSON string's plain run, for reading and for writing alike.
    @inline(__always)
    package static func hasQuoteBackslashOrControl(_ word: UInt64) -> Bool {
        quoteBackslashOrControlMask(word) != 0
    }

    /// The high bit of each byte of `word` (little-endian: byte 0 lowest) that is
    /// '"', '\\' or below 0x20. A byte after a match may be flagged falsely
    /// (the subtraction borrows), but the lowest flagged byte is always a match.
    /// (Inlinable: the record readers of other modules call it once per eight bytes.)
    @inlinable @inline(__always)
    package static func quoteBackslashOrControlMask(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let zeroInQuote = (quote &- ones) & ~quote & highs
        let zeroInBackslash = (backslash &- ones) & ~backslash & highs
        let control = (word &- ones &* 0x20) & ~word & highs  // bytes >= 0x80 are excluded by ~word
        return zeroInQuote | zeroInBackslash | control
    }
}
