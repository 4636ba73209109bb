/// Turns Swift values into JSON, without Foundation's `JSONEncoder`.
///
/// ```swift
/// let bytes = try JSONEncoding.compact(appState)           // compact UTF-8, fast path
/// let value = try JSONEncoding.value(of: appState)         // a JSONValue tree, for diffing
/// let dump = JSONEncoding.reflecting(nonCodableThing)      // any value, through Mirror
/// ```
///
/// The output is what `JSONDecoder` with default settings reads back, with
/// these documented differences from `JSONEncoder`'s own output:
/// - Object keys keep the order the type encoded them in (no sorting, no
///   hash order).
/// - Floating-point numbers are written with the shortest text that parses
///   back to the same value; whole numbers below 10^15 have no ".0".
/// - Non-finite numbers, which `JSONEncoder` refuses by default, become the
///   strings `"NaN"`, `"Infinity"` and `"-Infinity"` (readable with
///   `.convertFromString(positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")`).
/// - `/` is not escaped.
/// - A key encoded twice in one container: ``value(of:)`` keeps the last
///   value in the first place; ``compact(_:)`` writes both (``JSONParser`` keeps the last).
/// - In ``compact(_:)``, a keyed container kept past its type's
///   `encode(to:)` (not allowed by the `Encoder` contract) writes into
///   whatever value of that type at that depth its encoder is writing then.
/// - In a ``JSONValue`` (not in `compact(_:)`), `UInt64` above `Int64.max` and
///   decimals that do not fit in 64 bits are the nearest `Double`.
///
/// Like `JSONEncoder`'s defaults: `Date` is seconds since 2001-01-01 as a
/// number, `Data` is a base64 string, `URL` its absolute string, `Decimal` a
/// number, dictionaries keyed by `String` or `Int` are objects and other
/// dictionaries flat `[key, value, …]` arrays; `nil` from `encodeIfPresent`
/// omits the key. Nesting deeper than ``maximumDepth`` is an error rather
/// than a stack overflow.
public enum JSONEncoding {
    /// Deepest nesting encoded; the same as ``JSONParser/maximumDepth`` so all output parses back.
    public static let maximumDepth = JSONParser.maximumDepth

    /// Encodes an `Encodable` value to a ``JSONValue``, keys in encoding order.
    public static func value<T: Encodable>(of value: T) throws -> JSONValue {
        try _ValueEncoder().encodeValue(value)
    }

    /// Encodes an `Encodable` value straight to compact UTF-8 JSON, as
    /// ``JSONWriter/compact(_:)`` writes a ``JSONValue``.
    public static func compact<T: Encodable>(_ value: T) throws -> [UInt8] {
        do {
            return try _StreamingEncoderPool.shared.withEncoder { encoder in
                try encoder.encodeTopLevel(value)
                return encoder.bytes
            }
        } catch is _NeedsValueEncoder {
            // The type writes its containers out of order; build a tree instead.
            return JSONWriter.compact(try self.value(of: value))
        }
    }

    /// ``compact(_:)``, and where the value holds `Date`s: JSON Pointer patterns, `*` for any
    /// array index or dictionary key (`["/tick/_0"]`), sorted; for the recorder's action payloads.
    package static func bytesAndDatePaths<T: Encodable>(of value: T) throws -> (bytes: [UInt8], datePaths: [String]) {
        do {
            return try _StreamingEncoderPool.shared.withEncoder { encoder in
                encoder.collectsDatePaths = true
                defer {
                    encoder.collectsDatePaths = false
                    encoder.datePaths.removeAll()
                }
                try encoder.encodeTopLevel(value)
                return (encoder.bytes, encoder.datePaths.sorted())
            }
        } catch is _NeedsValueEncoder {
            return (JSONWriter.compact(try self.value(of: value)), [])
        }
    }

    static func tooDeep(_ value: Any, _ codingPath: [any CodingKey]) -> EncodingError {
        EncodingError.invalidValue(value, EncodingError.Context(
            codingPath: codingPath,
            debugDescription: tooDeepDescription))
    }

    private static let tooDeepDescription = "nesting deeper than \(maximumDepth) levels (a reference cycle?)"

    /// Whether `error` is the one ``tooDeep(_:_:)`` makes.
    package static func isTooDeep(_ error: any Error) -> Bool {
        guard case EncodingError.invalidValue(_, let context) = error else { return false }
        return context.debugDescription == tooDeepDescription
    }
}
