import Foundation
internal import CJSONScan

/// Reads JSON without building it: the Swift face of the skim in `CJSONScan`,
/// with two ways over a value.
///
/// - Unchecked (``skipUnchecked()``): only finds where a value ends (a string
///   at its first unescaped quote, a container at its matching bracket), so the
///   reference reader delimits a record's members (`RecordScanner`) and a
///   keyframe is listed without reading its megabyte state twice. Whatever is
///   read later is validated by the parser.
/// - Checked (``skipChecked(depth:)``): judges a value the way ``JSONParser``
///   reads it, without building it. Conservative: it says yes only when the
///   parser certainly accepts the value; no for anything invalid, and for the few
///   valid things it leaves to the parser (integers of more than 18 digits,
///   nesting near ``JSONParser/maximumDepth``).
package struct JSONSkimmer {
    package let bytes: UnsafeBufferPointer<UInt8>
    package var position: Int

    package init(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int = 0) {
        self.bytes = bytes
        self.position = position
    }

    package mutating func skipSpace() {
        while position < bytes.count, bytes[position] == 0x20 || bytes[position] == 0x0A || bytes[position] == 0x0D || bytes[position] == 0x09 {
            position += 1
        }
    }

    /// Moves past the value at `position` without checking it: strings end at
    /// their first unescaped quote, containers at their matching bracket,
    /// scalars at the next delimiter. False when the bytes end first.
    package mutating func skipUnchecked() -> Bool {
        guard let base = bytes.baseAddress else { return false }
        let end = rewind_json_skip_unchecked(base, bytes.count, position)
        guard end >= 0 else { return false }
        position = end
        return true
    }

    /// Moves past the value at `position` (no leading space), `depth` containers
    /// around it, when the parser certainly accepts it; false (not moved) otherwise.
    package mutating func skipChecked(depth: Int) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        let end = rewind_json_skip_checked(base, bytes.count, position, Int32(depth), nil)
        guard end >= 0 else { return false }
        position = end
        return true
    }

    /// The bytes of a (skimmed) string value without escapes, the common case,
    /// which are its text; nil for anything else.
    @inlinable package static func plainText(_ value: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
        guard value.count >= 2, value[0] == UInt8(ascii: "\"") else { return nil }
        let inside = UnsafeBufferPointer(rebasing: value[1..<(value.count - 1)])
        return inside.contains(UInt8(ascii: "\\")) ? nil : inside
    }

    /// The value of a scalar already checked (by the checked skim, or as strictly:
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
}
