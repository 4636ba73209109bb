/// A JSON number that neither `Int64` nor `Double` holds exactly, kept as the
/// text it was written with, and written back as that text.
///
/// The parser and the encoders make one for an integer beyond `Int64`
/// (`UInt64.max`), a `Decimal` with more digits than a `Double` keeps, and a
/// literal outside `Double`'s range (`1e400`, `1e-400`); every other number is
/// a ``JSONValue/integer(_:)`` or a ``JSONValue/double(_:)``.
///
/// ```swift
/// let value = try JSONParser.parse("18446744073709551615")  // .number(JSONNumber("18446744073709551615"))
/// JSONWriter.compactString(value)                            // "18446744073709551615"
/// ```
///
/// Numbers are equal when their values are, whatever the notation: `1e400`
/// equals `10e399`, and `.number(JSONNumber("1.5")!)` equals `.double(1.5)`.
public struct JSONNumber: Sendable, CustomStringConvertible {
    /// The number as JSON text, for example `18446744073709551615` or `1e400`.
    public let text: String

    /// `nil` unless `text` is a number as RFC 8259 spells it (no `+` sign,
    /// leading zeros, `.5`, `NaN` or `Infinity`).
    public init?(_ text: String) {
        var text = text
        let valid = text.withUTF8 { bytes in
            guard !bytes.isEmpty, let syntax = try? JSONNumberSyntax.scan(bytes, from: 0) else { return false }
            return syntax.end == bytes.count
        }
        guard valid else { return nil }
        self.text = text
    }

    /// `text` must be valid number syntax.
    init(validated text: String) { self.text = text }

    /// The nearest `Double`: ±infinity beyond its range, ±0 below it.
    public var doubleValue: Double { Double(text) ?? .nan }

    public var description: String { text }

    /// Whether the text is an integer literal (no fraction, no exponent).
    var isIntegerLiteral: Bool { !text.utf8.contains { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") } }
}

extension JSONNumber: Hashable {
    public static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        if lhs.text.hasSameScalars(as: rhs.text) { return true }
        // By exact value, as `JSONValue.numberOrder` orders them: `1e400 == 10e399`, whatever the exponent's size.
        return _ExactDecimal(text: lhs.text).order(_ExactDecimal(text: rhs.text)) == 0
    }

    // The nearest Double: equal values round to the same one (`JSONValue`
    // hashes its integers and doubles the same way, so equal numbers of
    // different cases hash alike).
    public func hash(into hasher: inout Hasher) { hasher.combine(doubleValue) }
}

/// A number's exact value, in a form where equal values are equal:
/// ±(leading · 10^rest.count + rest) · 10^exponent, with no leading or
/// trailing zeros; `leading` holds the first 19 significant digits, so up to
/// 19 digits take no allocation. Zero keeps its sign: -0 is not 0.
struct _DecimalValue: Equatable {
    var isNegative: Bool
    var leading: UInt64 = 0
    var leadingCount = 0
    /// Digits (ASCII) after the first 19.
    var rest: [UInt8] = []
    var exponent = 0

    var digitCount: Int { leadingCount + rest.count }

    /// The value of valid JSON number text; nil when the exponent has more
    /// than 17 significant digits (no arithmetic on it would be exact).
    init?(jsonNumber bytes: UnsafeBufferPointer<UInt8>) {
        var index = 0
        isNegative = !bytes.isEmpty && bytes[0] == UInt8(ascii: "-")
        if isNegative { index = 1 }
        var fractionDigits = 0
        var pendingZeros = 0  // zeros after the last non-zero digit: trailing unless another digit comes
        var seenPoint = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") {
                seenPoint = true
            } else if byte >= 0x30 && byte <= 0x39 {
                if seenPoint { fractionDigits += 1 }
                if byte == 0x30 {
                    if digitCount > 0 { pendingZeros += 1 }  // leading zeros count for nothing
                } else {
                    for _ in 0..<pendingZeros { append(0) }
                    pendingZeros = 0
                    append(byte &- 0x30)
                }
            } else {
                break
            }
            index += 1
        }
        var written = 0
        if index < bytes.count {
            // 'e' or 'E', an optional sign, digits.
            index += 1
            var negativeExponent = false
            if bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                negativeExponent = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            var significant = 0
            while index < bytes.count {
                let digit = Int(bytes[index] &- 0x30)
                if written != 0 || digit != 0 { significant += 1 }
                guard significant <= 17 else { return nil }
                written = written * 10 + digit
                index += 1
            }
            if negativeExponent { written = -written }
        }
        exponent = digitCount == 0 ? 0 : written - fractionDigits + pendingZeros
    }

    private mutating func append(_ digit: UInt8) {
        if leadingCount < 19 {
            leading = leading * 10 + UInt64(digit)
            leadingCount += 1
        } else {
            rest.append(digit + 0x30)
        }
    }

    init(_ integer: Int64) {
        isNegative = integer < 0
        var magnitude = integer.magnitude
        while magnitude != 0 && magnitude % 10 == 0 {
            magnitude /= 10
            exponent += 1
        }
        leading = magnitude
        var remaining = magnitude
        while remaining != 0 {
            leadingCount += 1
            remaining /= 10
        }
    }

    /// The value of a finite double's shortest text, which is what
    /// ``JSONWriter`` writes for it.
    init(_ double: Double) {
        var text = double.description
        self = text.withUTF8 { _DecimalValue(jsonNumber: $0)! }
    }
}
