import Foundation

/// The types `JSONEncoder` (default strategies) writes differently from their
/// own `encode(to:)`, and number conversions shared by both encoders.
enum _SpecialEncodable {
    /// JSON for `Date` (seconds since 2001, `deferredToDate`), `Data` (base64),
    /// `URL` (absolute string) and `Decimal` (a number); `nil` for other types.
    @inline(__always)
    static func value<T>(of value: T) -> JSONValue? {
        if T.self == Date.self { return .double(unsafeBitCast(value, to: Date.self).timeIntervalSinceReferenceDate) }
        if T.self == Data.self { return .string(unsafeBitCast(value, to: Data.self).base64EncodedString()) }
        if T.self == URL.self { return .string(unsafeBitCast(value, to: URL.self).absoluteString) }
        if T.self == Decimal.self { return decimal(unsafeBitCast(value, to: Decimal.self)) }
        return nil
    }

    /// Every digit of a decimal: an `.integer` when it fits, a `.double` when
    /// that writes back the same digits (0.1), else its text (a `.number`).
    /// `Decimal.nan` is a `Double`'s NaN, written `"NaN"`.
    static func decimal(_ value: Decimal) -> JSONValue {
        if value.isNaN { return .double(.nan) }
        var text = value.description
        return text.withUTF8 { bytes in
            guard !bytes.isEmpty, let syntax = try? JSONNumberSyntax.scan(bytes, from: 0), syntax.end == bytes.count else {
                return .double(.nan)  // not a number Decimal writes
            }
            return _Parser.exactValue(ofNumber: bytes, isInteger: syntax.isInteger)
        }
    }

    /// A `Float` as the `Double` with the same shortest decimal text, so 0.1 stays "0.1"
    /// and every float is written as that double is (``JSONWriter`` does the same).
    static func float(_ value: Float) -> JSONValue {
        .double(double(of: value))
    }

    /// The `Double` whose shortest text is the float's (0.1 for 0.1f, not 0.10000000149…).
    @inline(__always)
    static func double(of value: Float) -> Double {
        guard value.isFinite else { return Double(value) }
        return Double(value.description) ?? Double(value)
    }

    /// A wider integer (`Int128`, `UInt128`): an `.integer` when it fits, else every digit as a `.number`.
    static func wide<T: BinaryInteger>(_ value: T) -> JSONValue {
        Int64(exactly: value).map(JSONValue.integer) ?? .number(JSONNumber(validated: String(value)))
    }

    /// Values above `Int64.max` keep their digits as a `.number`.
    static func unsigned(_ value: UInt64) -> JSONValue {
        value <= UInt64(Int64.max) ? .integer(Int64(value)) : .number(JSONNumber(validated: String(value)))
    }
}
