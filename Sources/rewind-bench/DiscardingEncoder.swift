/// An `Encoder` that writes nothing and makes a fresh container for every
/// value, as `JSONEncoder` does: timing it measures `Codable` dispatch itself
/// (container boxes, witness calls, metadata lookups), to put the JSON encoder
/// figures in context. Rewind's encoder reuses containers, so it can be faster
/// than this walk although it writes JSON.
final class DiscardingEncoder: Encoder {
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    var written = 0

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> { KeyedEncodingContainer(Keyed(encoder: self)) }
    func unkeyedContainer() -> any UnkeyedEncodingContainer { Unkeyed(encoder: self) }
    func singleValueContainer() -> any SingleValueEncodingContainer { Single(encoder: self) }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoder: DiscardingEncoder
        var codingPath: [any CodingKey] { [] }
        mutating func encodeNil(forKey key: Key) throws { encoder.written &+= key.stringValue.utf8.count }
        mutating func encode(_ value: String, forKey key: Key) throws { encoder.written &+= key.stringValue.utf8.count }
        mutating func encode(_ value: Int, forKey key: Key) throws { encoder.written &+= key.stringValue.utf8.count }
        mutating func encode(_ value: Double, forKey key: Key) throws { encoder.written &+= key.stringValue.utf8.count }
        mutating func encode(_ value: Bool, forKey key: Key) throws { encoder.written &+= key.stringValue.utf8.count }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            encoder.written &+= key.stringValue.utf8.count
            if T.self == String.self || T.self == Int.self || T.self == Double.self || T.self == Bool.self { return }
            try value.encode(to: encoder)
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            encoder.container(keyedBy: NestedKey.self)
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { encoder.unkeyedContainer() }
        mutating func superEncoder() -> any Encoder { encoder }
        mutating func superEncoder(forKey key: Key) -> any Encoder { encoder }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let encoder: DiscardingEncoder
        var codingPath: [any CodingKey] { [] }
        var count = 0
        mutating func encodeNil() throws { count += 1 }
        mutating func encode(_ value: String) throws { count += 1 }
        mutating func encode(_ value: Int) throws { count += 1 }
        mutating func encode(_ value: Double) throws { count += 1 }
        mutating func encode(_ value: Bool) throws { count += 1 }
        mutating func encode<T: Encodable>(_ value: T) throws {
            count += 1
            // Primitives reached generically (array elements) stop here, as in a real encoder.
            if T.self == String.self || T.self == Int.self || T.self == Double.self || T.self == Bool.self { return }
            try value.encode(to: encoder)
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            encoder.container(keyedBy: NestedKey.self)
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { encoder.unkeyedContainer() }
        mutating func superEncoder() -> any Encoder { encoder }
    }

    struct Single: SingleValueEncodingContainer {
        let encoder: DiscardingEncoder
        var codingPath: [any CodingKey] { [] }
        mutating func encodeNil() throws {}
        mutating func encode(_ value: String) throws {}
        mutating func encode(_ value: Int) throws {}
        mutating func encode(_ value: Double) throws {}
        mutating func encode(_ value: Bool) throws {}
        mutating func encode<T: Encodable>(_ value: T) throws { try value.encode(to: encoder) }
    }
}
