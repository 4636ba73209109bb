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

    /// Decimals that fit in 64 bits stay exact; others become the nearest `Double`.
    static func decimal(_ value: Decimal) -> JSONValue {
        let text = value.description
        if let integer = Int64(text) { return .integer(integer) }
        return .double(Double(text) ?? .nan)
    }

    /// A `Float` as the `Double` with the same shortest decimal text, so 0.1 stays "0.1".
    static func float(_ value: Float) -> JSONValue {
        guard value.isFinite else { return .double(Double(value)) }
        return .double(Double(value.description) ?? Double(value))
    }

    /// `JSONValue` has no unsigned case: values above `Int64.max` become the nearest `Double`.
    static func unsigned(_ value: UInt64) -> JSONValue {
        value <= UInt64(Int64.max) ? .integer(Int64(value)) : .double(Double(value))
    }
}
