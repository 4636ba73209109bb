import Foundation

/// Decodes any `Decodable` straight from a ``JSONValue``, without going
/// through text: the reverse of ``JSONEncoding/value(of:)``.
///
/// ```swift
/// let state = try JSONValueDecoder().decode(AppState.self, from: try reader.state(at: 41))
/// ```
///
/// Reads what ``JSONEncoding`` writes (and `JSONEncoder`'s defaults):
/// `Date` as seconds since 2001, `Data` as base64, `URL` as a string,
/// non-finite numbers as `"NaN"`, `"Infinity"`, `"-Infinity"`. Numbers come
/// back exactly: every `UInt64`, every digit a `Decimal` holds, `-0.0`. Errors are a
/// ``JSONValueDecodingError`` that names the field: `todos[2].title: expected a string, found 3`.
public struct JSONValueDecoder: Sendable {
    /// A decoder; it keeps no state between calls.
    public init() {}

    /// Decodes `type` from `value`.
    /// - Throws: ``JSONValueDecodingError``.
    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws(JSONValueDecodingError) -> T {
        do {
            return try _ValueDecoder(value: value, codingPath: []).decodeValue(T.self)
        } catch let error as DecodingError {
            throw JSONValueDecodingError(error, root: value)
        } catch {
            throw JSONValueDecodingError(codingPath: [], reason: "\(error)")
        }
    }
}

/// Why a JSON value does not decode as a Swift type, naming the field.
///
/// `description` is one line: `todos[2].title: expected a string, found 3`.
public struct JSONValueDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where decoding failed, as Swift spells the path: `todos[2].title` (empty at the top).
    public var field: String
    /// What was wrong there.
    public var reason: String

    package init(codingPath: [any CodingKey], reason: String) {
        field = Self.field(codingPath)
        self.reason = reason
    }

    init(_ error: DecodingError, root: JSONValue) {
        switch error {
        case .typeMismatch(let type, let context):
            // Synthesized enum decoding finds no known case key: say which case it was.
            if context.debugDescription.hasPrefix("Invalid number of keys found"),
               let keys = Self.value(at: context.codingPath, in: root)?.objectValue?.keys, keys.count == 1 {
                self.init(codingPath: context.codingPath, reason: "\(type) has no case named \"\(keys[0])\"")
                return
            }
            self.init(codingPath: context.codingPath, reason: context.debugDescription)
        case .valueNotFound(_, let context):
            self.init(codingPath: context.codingPath, reason: context.debugDescription)
        case .keyNotFound(let key, let context):
            self.init(codingPath: context.codingPath + [key], reason: "missing (\(context.debugDescription))")
        case .dataCorrupted(let context):
            self.init(codingPath: context.codingPath, reason: context.debugDescription)
        @unknown default:
            self.init(codingPath: [], reason: "\(error)")
        }
    }

    private static func value(at path: [any CodingKey], in root: JSONValue) -> JSONValue? {
        var current: JSONValue? = root
        for key in path {
            if case .array(let elements)? = current, let index = key.intValue {
                current = elements.indices.contains(index) ? elements[index] : nil
            } else {
                current = current?[key.stringValue]
            }
        }
        return current
    }

    public var description: String { field.isEmpty ? reason : "\(field): \(reason)" }

    /// `todos[2].title`: keys joined by dots, array positions in brackets.
    static func field(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue, key.stringValue.hasPrefix("Index ") || key.stringValue == String(index) {
                text += "[\(index)]"
            } else {
                if !text.isEmpty { text += "." }
                text += key.stringValue
            }
        }
        return text
    }
}

/// The decoder for one value; it is also that value's single-value container.
final class _ValueDecoder: Decoder, SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(value: JSONValue, codingPath: [any CodingKey]) {
        self.value = value
        self.codingPath = codingPath
    }

    // MARK: Decoder

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else { throw mismatch("an object") }
        return KeyedDecodingContainer(_KeyedContainer<Key>(object: object, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw mismatch("an array") }
        return _UnkeyedContainer(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    // MARK: Values

    /// Decodes `T` from this decoder's value, with the types `JSONEncoding` special-cases.
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == String.self { return try decode(String.self) as! T }
        if T.self == Int.self { return try decode(Int.self) as! T }
        if T.self == Double.self { return try decode(Double.self) as! T }
        if T.self == Bool.self { return try decode(Bool.self) as! T }
        if T.self == Date.self { return Date(timeIntervalSinceReferenceDate: try decode(Double.self)) as! T }
        if T.self == Data.self {
            guard let data = Data(base64Encoded: try decode(String.self)) else { throw corrupted("expected base64 data") }
            return data as! T
        }
        if T.self == URL.self {
            guard let url = URL(string: try decode(String.self)) else { throw corrupted("expected a URL") }
            return url as! T
        }
        if T.self == Decimal.self { return try decodeDecimal() as! T }
        return try T(from: self)
    }

    /// From the number's text (a double's shortest one, so 0.1 is 0.1, not
    /// 0.1000000000000000055…); `"NaN"` is `Decimal.nan`.
    private func decodeDecimal() throws -> Decimal {
        let text: String
        switch value {
        case .integer(let integer): text = String(integer)
        case .double(let double) where double.isFinite: text = "\(double)"
        case .double(let double) where double.isNaN: return .nan
        case .number(let number): text = number.text
        case .string("NaN"): return .nan
        default: throw mismatch("a number")
        }
        guard let decimal = Decimal(string: text) else { throw corrupted("\(text) does not fit in Decimal") }
        return decimal
    }

    func decodeNil() -> Bool { value == .null }

    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .bool(let bool) = value else { throw mismatch("a boolean") }
        return bool
    }

    func decode(_ type: String.Type) throws -> String {
        guard case .string(let string) = value else { throw mismatch("a string") }
        return string
    }

    func decode(_ type: Double.Type) throws -> Double {
        switch value {
        case .double(let double): return double
        case .integer(let integer): return Double(integer)
        case .number(let number):
            // The nearest double; one beyond Double's range would silently become infinity.
            let double = number.doubleValue
            guard double.isFinite else { throw corrupted("\(number.text) does not fit in Double") }
            return double
        case .string("NaN"): return .nan
        case .string("Infinity"): return .infinity
        case .string("-Infinity"): return -.infinity
        default: throw mismatch("a number")
        }
    }

    func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }

    func decode(_ type: Int.Type) throws -> Int { try integer() }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer() }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer() }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer() }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer() }
    func decode(_ type: UInt.Type) throws -> UInt { try integer() }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer() }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer() }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer() }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer() }
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    func decode(_ type: Int128.Type) throws -> Int128 { try integer() }
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    func decode(_ type: UInt128.Type) throws -> UInt128 { try integer() }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(T.self) }

    /// Whole numbers, also when written as a double (`3.0`) or beyond `Int64` (`UInt64.max`).
    private func integer<T: FixedWidthInteger>() throws -> T {
        switch value {
        case .integer(let integer):
            guard let exact = T(exactly: integer) else { throw corrupted("\(integer) does not fit in \(T.self)") }
            return exact
        case .double(let double):
            guard let exact = T(exactly: double) else { throw corrupted("\(double) is not a whole number that fits in \(T.self)") }
            return exact
        case .number(let number):
            guard number.isIntegerLiteral, let exact = T(number.text) else {
                throw corrupted("\(number.text) is not a whole number that fits in \(T.self)")
            }
            return exact
        default:
            throw mismatch("a whole number")
        }
    }

    // MARK: Errors

    private func mismatch(_ expected: String) -> DecodingError {
        _ValueDecoder.mismatch(expected, found: value, codingPath: codingPath)
    }

    private func corrupted(_ reason: String) -> DecodingError {
        .dataCorrupted(DecodingError.Context(codingPath: codingPath, debugDescription: reason))
    }

    static func mismatch(_ expected: String, found value: JSONValue, codingPath: [any CodingKey]) -> DecodingError {
        let found: String
        switch value {
        case .null: found = "null"
        case .object: found = "an object"
        case .array: found = "an array"
        default:
            let text = value.description
            found = text.count > 40 ? String(text.prefix(40)) + "…" : text
        }
        return .typeMismatch(Any.self, DecodingError.Context(codingPath: codingPath, debugDescription: "expected \(expected), found \(found)"))
    }
}

/// `Optional`, whatever it wraps: its `.none`, for a decoder that must make one of a type it only knows generically.
protocol _OptionalType {
    static var none: Self { get }
}

extension Optional: _OptionalType {}

struct _KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: JSONObject
    let codingPath: [any CodingKey]

    var allKeys: [Key] { object.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { object.index(of: key.stringValue) != nil }

    private func member(_ key: Key) throws -> JSONValue {
        guard let value = object[key.stringValue] else {
            throw DecodingError.keyNotFound(key, DecodingError.Context(
                codingPath: codingPath, debugDescription: "the object has no member \"\(key.stringValue)\""))
        }
        return value
    }

    private func decoder(for key: Key) throws -> _ValueDecoder {
        _ValueDecoder(value: try member(key), codingPath: codingPath + [key])
    }

    func decodeNil(forKey key: Key) throws -> Bool { try member(key) == .null }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder(for: key).decodeValue(T.self)
    }

    // The protocol's own Int128 and UInt128 requirements (their defaults throw).
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 { try decoder(for: key).decode(Int128.self) }
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 { try decoder(for: key).decode(UInt128.self) }

    /// `nil` for a missing member or `null`, as `JSONDecoder` does; but when `T` is itself
    /// optional (an `Int??` property), `null` is `.some(nil)`: the encoder wrote that as
    /// `null` and left `.none` out, so both come back as they were recorded.
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = object[key.stringValue] else { return nil }
        if value == .null {
            if let optional = T.self as? any _OptionalType.Type { return .some(optional.none as! T) }
            return nil
        }
        return try _ValueDecoder(value: value, codingPath: codingPath + [key]).decodeValue(T.self)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder(for: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder(for: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        _ValueDecoder(value: object["super"] ?? .null, codingPath: codingPath + [_SuperKey()])
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        _ValueDecoder(value: object[key.stringValue] ?? .null, codingPath: codingPath + [key])
    }
}

struct _UnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(elements: [JSONValue], codingPath: [any CodingKey]) {
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private mutating func next() throws -> _ValueDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(Any.self, DecodingError.Context(
                codingPath: codingPath + [_IndexKey(currentIndex)],
                debugDescription: "the array has only \(elements.count) elements"))
        }
        defer { currentIndex += 1 }
        return _ValueDecoder(value: elements[currentIndex], codingPath: codingPath + [_IndexKey(currentIndex)])
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { return false }
        if elements[currentIndex] == .null {
            currentIndex += 1
            return true
        }
        return false
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decodeValue(T.self) }
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    mutating func decode(_ type: Int128.Type) throws -> Int128 { try next().decode(Int128.self) }
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    mutating func decode(_ type: UInt128.Type) throws -> UInt128 { try next().decode(UInt128.self) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next().unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder { try next() }
}
