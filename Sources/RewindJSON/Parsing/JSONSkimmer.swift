import Foundation
internal import CJSONScan

/// Reads JSON without building it: the one "skim" reader of the package,
/// with two ways over a value.
///
/// - Checked (`skipValue`, `skimValue`, `skimMembers`, …): judges a value the
///   way ``JSONParser`` reads it, so a scan over every entry can tell that an
///   action or a patch value would parse without paying for the parse.
///   Conservative: it says yes only when the parser certainly accepts the
///   value. It says no for anything invalid, and also for the few valid things
///   it does not judge itself (numbers the parser leaves to the C library,
///   nesting near ``JSONParser/maximumDepth``); callers then parse in full.
/// - Unchecked (`skipUnchecked`, `skipSpace`, `skipStringUnchecked`): only
///   finds where a value ends (strings with `memchr`, containers by counting
///   brackets), so listing a keyframe never reads its megabyte state twice.
///   Whatever is read later is validated by the parser.
package struct JSONSkimmer {
    package let bytes: UnsafeBufferPointer<UInt8>
    package var position: Int
    /// Stays true while the bytes are exactly what `JSONWriter.compact` writes
    /// for the parsed value: no spaces, no escapes, integers only, no repeated keys.
    package private(set) var isCompactAsWritten = true
    /// False when nobody reads ``isCompactAsWritten`` (a state scan's record check):
    /// then keys are not collected to spot repeated ones, a cost on every member.
    package var tracksCompactness = true
    /// Keys of the objects being skimmed, innermost last (to find repeated ones).
    private var keys: [UnsafeBufferPointer<UInt8>] = []

    /// Deepest nesting judged here, with room for the levels around a value
    /// that is skimmed on its own (a patch operation's value sits two deeper).
    package static let maximumDepth = JSONParser.maximumDepth - 8

    package init(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int = 0) {
        self.bytes = bytes
        self.position = position
    }

    /// Skims the object at `position`, handing `visit` each member: its key
    /// (the bytes between the quotes; nil when it has escapes), its value's
    /// bytes, and whether that value is compact as written. False when the object
    /// is invalid or `visit` returns false.
    package mutating func skimMembers(depth: Int, _ visit: (UnsafeBufferPointer<UInt8>?, UnsafeBufferPointer<UInt8>, Bool) -> Bool) -> Bool {
        walkMembers(depth: depth) { key, skimmer in
            guard let value = skimmer.skimValue(depth: depth + 1) else { return false }
            return visit(key, value.bytes, value.isCompactAsWritten)
        }
    }

    /// Skims the value at `position`: its bytes and whether they alone are
    /// compact as written; nil when the parser would not accept it.
    package mutating func skimValue(depth: Int) -> (bytes: UnsafeBufferPointer<UInt8>, isCompactAsWritten: Bool)? {
        let start = position
        let wasCompact = isCompactAsWritten
        isCompactAsWritten = true
        guard skipValue(depth: depth) else { return nil }
        let valueIsCompact = isCompactAsWritten
        isCompactAsWritten = wasCompact && valueIsCompact
        return (UnsafeBufferPointer(rebasing: bytes[start..<position]), valueIsCompact)
    }

    /// Skims the object at `position`, letting `visit` take each member's value:
    /// it is handed the key (nil when it has escapes) and this skimmer at the
    /// value, which it must move past (skimming it, or skipping it unchecked).
    /// False when the object is invalid or `visit` returns false.
    package mutating func walkMembers(depth: Int, _ visit: (UnsafeBufferPointer<UInt8>?, inout JSONSkimmer) -> Bool) -> Bool {
        guard let hasMembers = enter(UInt8(ascii: "{"), UInt8(ascii: "}"), depth: depth + 1) else { return false }
        guard hasMembers else { return true }
        let keyBase = keys.count
        // Only when keys were kept (a record check keeps none: this ran for every object it skims).
        defer { if keys.count > keyBase { keys.removeSubrange(keyBase...) } }
        while true {
            skipSpace()
            let keyStart = position + 1
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\""), skipString() else { return false }
            let key = UnsafeBufferPointer(rebasing: bytes[keyStart..<(position - 1)])
            if isCompactAsWritten && tracksCompactness {
                // A repeated key keeps its first place and its last value when parsed: not as written.
                if keys[keyBase...].contains(where: { $0.count == key.count && memcmp($0.baseAddress!, key.baseAddress!, key.count) == 0 }) {
                    isCompactAsWritten = false
                }
                keys.append(key)
            }
            skipSpace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { return false }
            position += 1
            skipSpace()
            guard visit(key.contains(UInt8(ascii: "\\")) ? nil : key, &self), let more = next(closing: UInt8(ascii: "}")) else { return false }
            if !more { return true }
        }
    }

    /// At a container's opening bracket: passes it and any space; true when a
    /// member or element follows, false when the container closes at once (passed
    /// too), nil when the bracket is not there or `depth` is too deep.
    @inline(__always)
    private mutating func enter(_ opening: UInt8, _ closing: UInt8, depth: Int) -> Bool? {
        guard position < bytes.count, bytes[position] == opening, depth <= Self.maximumDepth else { return nil }
        position += 1
        skipSpace()
        if position < bytes.count, bytes[position] == closing {
            position += 1
            return false
        }
        return true
    }

    /// After a member or element: passes the space and the `,` (true: another
    /// follows) or the closing bracket (false); nil for anything else.
    @inline(__always)
    private mutating func next(closing: UInt8) -> Bool? {
        skipSpace()
        guard position < bytes.count else { return nil }
        let byte = bytes[position]
        position += 1
        if byte == closing { return false }
        return byte == UInt8(ascii: ",") ? true : nil
    }


    /// Skims the array at `position`, letting `visit` skim each element (it is
    /// handed this skimmer at the element and must move past it). False when
    /// the array is invalid or `visit` returns false.
    package mutating func skimElements(depth: Int, _ visit: (inout JSONSkimmer) -> Bool) -> Bool {
        guard let hasElements = enter(UInt8(ascii: "["), UInt8(ascii: "]"), depth: depth + 1) else { return false }
        guard hasElements else { return true }
        while true {
            skipSpace()
            guard visit(&self), let more = next(closing: UInt8(ascii: "]")) else { return false }
            if !more { return true }
        }
    }

    /// The bytes of a (skimmed) string value without escapes, the common case,
    /// which are its text; nil for anything else.
    @inlinable package static func plainText(_ value: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
        guard value.count >= 2, value[0] == UInt8(ascii: "\"") else { return nil }
        let inside = UnsafeBufferPointer(rebasing: value[1..<(value.count - 1)])
        return inside.contains(UInt8(ascii: "\\")) ? nil : inside
    }

    /// The value of a scalar already checked (by this skimmer, or as strictly:
    /// strings' characters; literals are compared here), read without the
    /// parser: a small integer, a string without escapes,
    /// `true`, `false` or `null`, as the parser reads them; nil for the rest
    /// (signs, fractions, exponents, escapes), which the parser should read.
    @inlinable @inline(__always) package static func checkedScalar(_ bytes: UnsafeBufferPointer<UInt8>) -> JSONValue? {
        guard let first = bytes.first else { return nil }
        switch first {
        case UInt8(ascii: "\""):
            return plainText(bytes).map { .string(String(decoding: $0, as: UTF8.self)) }
        case UInt8(ascii: "t"): return bytes.elementsEqual("true".utf8) ? .bool(true) : nil
        case UInt8(ascii: "f"): return bytes.elementsEqual("false".utf8) ? .bool(false) : nil
        case UInt8(ascii: "n"): return bytes.elementsEqual("null".utf8) ? .null : nil
        default:
            // Up to 18 digits always fit in an Int64.
            guard bytes.count <= 18, bytes.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), bytes.count == 1 || first != 0x30 else { return nil }
            var number: Int64 = 0
            for byte in bytes { number = number * 10 + Int64(byte - 0x30) }
            return .integer(number)
        }
    }

    package mutating func skipSpace() {
        while position < bytes.count, bytes[position] == 0x20 || bytes[position] == 0x0A || bytes[position] == 0x0D || bytes[position] == 0x09 {
            position += 1
            isCompactAsWritten = false
        }
    }

    /// Skips the value at `position` (no leading space); false when the parser would not accept it.
    package mutating func skipValue(depth: Int) -> Bool {
        guard position < bytes.count else { return false }
        switch bytes[position] {
        case UInt8(ascii: "{"): return skipObject(depth: depth + 1)
        case UInt8(ascii: "["): return skipArray(depth: depth + 1)
        case UInt8(ascii: "\""): return skipString()
        case UInt8(ascii: "t"): return skipLiteral("true")
        case UInt8(ascii: "f"): return skipLiteral("false")
        case UInt8(ascii: "n"): return skipLiteral("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return skipNumber()
        default: return false
        }
    }

    private mutating func skipLiteral(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        for index in 0..<count where bytes[position + index] != literal.utf8Start[index] { return false }
        position += count
        return true
    }

    private mutating func skipObject(depth: Int) -> Bool {
        guard !tracksCompactness else { return skimMembers(depth: depth - 1) { _, _, _ in true } }
        // Nobody reads compactness (a record check): the member walk's checks in a
        // plain loop, without its closure and per-value bookkeeping (a tenth of a scan's skim).
        guard let hasMembers = enter(UInt8(ascii: "{"), UInt8(ascii: "}"), depth: depth) else { return false }
        guard hasMembers else { return true }
        while true {
            skipSpace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\""), skipString() else { return false }
            skipSpace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { return false }
            position += 1
            skipSpace()
            guard skipValue(depth: depth), let more = next(closing: UInt8(ascii: "}")) else { return false }
            if !more { return true }
        }
    }

    private mutating func skipArray(depth: Int) -> Bool {
        skimElements(depth: depth - 1) { $0.skipValue(depth: depth) }
    }

    /// The number grammar of RFC 8259. Integers of up to 18 digits and decimals
    /// of up to 15 significant digits with a one-digit exponent are judged
    /// here; the parser reads those exactly. Others are left to the parser.
    private mutating func skipNumber() -> Bool {
        let start = position
        guard let syntax = try? JSONNumberSyntax.scan(bytes, from: start) else { return false }
        position = syntax.end
        if syntax.isInteger {
            // `-0` parses as the double -0.0, written `-0`: compact as written too.
            return syntax.integerDigitCount <= 18
        }
        isCompactAsWritten = false
        guard syntax.exponentDigitCount <= 1 else { return false }
        let digits = syntax.end - start - (syntax.isNegative ? 1 : 0)
        return digits <= 16 + 3   // at most 15 digits, the point, and a short exponent
    }

    /// A string at its opening quote: no control characters, valid escapes and
    /// surrogate pairs, valid UTF-8. Plain runs are checked a word at a time,
    /// then by vector compares (`CJSONScan`).
    package mutating func skipString() -> Bool {
        let start = position + 1
        let end = bytes.count
        let base = bytes.baseAddress!
        let raw = UnsafeRawPointer(base)
        var index = start
        var highBits: UInt64 = 0
        while true {
            // Plain runs in locals (the hot loop of a scan). A word with a quote,
            // backslash or control byte goes straight to that byte (the lowest
            // flagged one is always a real match), so a key costs a word or two
            // and no call; past two clean words (an action's long text, most of
            // a record's bytes) the C scan finds the end 32 bytes a compare.
            // Two, not one: measured, the call costs more than a second word
            // on the 9–16-byte strings of a record ("durationNs", "item/update").
            var words = 0
            while index + 8 <= end {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                let mask = ByteWords.quoteBackslashOrControlMask(word)
                if mask != 0 {
                    let plainBytes = mask.trailingZeroBitCount >> 3
                    highBits |= word & ((1 &<< UInt64(plainBytes &* 8)) &- 1)
                    index += plainBytes
                    break
                }
                highBits |= word
                index += 8
                words += 1
                if words == 2 {
                    let run = rewind_json_plain_run(base + index, end - index)
                    index += run.plain
                    if run.hasHighByte { highBits |= 0x80 }
                    break
                }
            }
            guard index < end else { position = index; return false }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                position = index + 1
                let isASCII = highBits & 0x8080_8080_8080_8080 == 0
                return isASCII || UTF8Validation.isValid(UnsafeBufferPointer(rebasing: bytes[start..<index]))
            }
            if byte < 0x20 { return false }
            if byte >= 0x80 { highBits |= 0x80 }
            if byte == UInt8(ascii: "\\") {
                // The writer escapes only quotes, backslashes and control characters, each one way: call any escape rewritten.
                isCompactAsWritten = false
                position = index
                guard skipEscape() else { return false }
                index = position
                continue
            }
            index += 1
        }
    }

    /// At a backslash: one escape (a `\u` high surrogate with its low half).
    private mutating func skipEscape() -> Bool {
        guard position + 1 < bytes.count else { return false }
        let escape = bytes[position + 1]
        position += 2
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
             UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return true
        case UInt8(ascii: "u"):
            guard let first = hex4() else { return false }
            if (0xD800...0xDBFF).contains(first) {
                guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else { return false }
                position += 2
                guard let second = hex4(), (0xDC00...0xDFFF).contains(second) else { return false }
                return true
            }
            return !(0xDC00...0xDFFF).contains(first)
        default:
            return false
        }
    }

    /// Four hex digits, the value of a `\u` escape.
    private mutating func hex4() -> UInt32? {
        guard position + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = JSONEscapes.hexDigit(bytes[position]) else { return nil }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    // MARK: Unchecked: where a value ends

    /// Moves past the value at `position` without checking it (a keyframe's
    /// state, a record's members): strings end at their first unescaped quote,
    /// containers at their matching bracket, scalars at the next delimiter.
    /// False when the bytes end first.
    package mutating func skipUnchecked() -> Bool {
        guard position < bytes.count else { return false }
        switch bytes[position] {
        case UInt8(ascii: "\""):
            return skipStringUnchecked()
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            while position < bytes.count {
                switch bytes[position] {
                case UInt8(ascii: "\""):
                    guard skipStringUnchecked() else { return false }
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 {
                        position += 1
                        return true
                    }
                default:
                    break
                }
                position += 1
            }
            return false
        default:
            while position < bytes.count {
                switch bytes[position] {
                case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D: return true
                default: position += 1
                }
            }
            return true
        }
    }

    /// At an opening quote: moves past the closing one, the first not escaped,
    /// found with `memchr` (the fast path of scans over every record). Checks
    /// nothing inside; false when the bytes end first.
    package mutating func skipStringUnchecked() -> Bool {
        let base = bytes.baseAddress!
        let start = position
        var from = start + 1
        while from < bytes.count {
            guard let found = memchr(base + from, 0x22, bytes.count - from) else { return false }
            let quote = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            // Escaped when an odd number of backslashes precede it.
            var backslashes = 0
            while quote - 1 - backslashes > start, bytes[quote - 1 - backslashes] == UInt8(ascii: "\\") { backslashes += 1 }
            if backslashes % 2 == 0 {
                position = quote + 1
                return true
            }
            from = quote + 1
        }
        return false
    }
}
