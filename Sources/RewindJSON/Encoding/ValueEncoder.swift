/// Encodes to a ``JSONValue`` tree. Handles every container pattern `Encoder`
/// allows (nested containers written in any order, `superEncoder`, a subclass
/// re-opening its superclass's container), so it is also the fallback for
/// ``_StreamingEncoder``.
final class _ValueEncoder: Encoder {
    // Unchecked: an encoder is confined to one call on one thread; dynamic
    // exclusivity checks on every value cost a measurable share of the time.
    @exclusivity(unchecked) var codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    /// What the value being encoded has produced so far.
    @exclusivity(unchecked) var storage: _EncodedNode = .nothing
    @exclusivity(unchecked) private var depth: Int

    init(codingPath: [any CodingKey] = [], depth: Int = 0) {
        self.codingPath = codingPath
        self.depth = depth
    }

    func encodeValue<T: Encodable>(_ value: T, forKey key: (any CodingKey)? = nil) throws -> JSONValue {
        if T.self == String.self { return .string(unsafeBitCast(value, to: String.self)) }
        if T.self == Int.self { return .integer(Int64(unsafeBitCast(value, to: Int.self))) }
        if T.self == Double.self { return .double(unsafeBitCast(value, to: Double.self)) }
        if T.self == Bool.self { return .bool(unsafeBitCast(value, to: Bool.self)) }
        if let special = _SpecialEncodable.value(of: value) { return special }

        let saved = storage
        storage = .nothing
        if let key { codingPath.append(key) }
        depth += 1
        guard depth <= JSONEncoding.maximumDepth else { throw JSONEncoding.tooDeep(value, codingPath) }
        if let ordered = value as? any _CanonicallyOrdered {
            try ordered.encodeCanonically(to: self)
        } else {
            try value.encode(to: self)
        }
        depth -= 1
        if key != nil { codingPath.removeLast() }
        let result = storage.resolve()
        storage = saved
        return result
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let box: _ObjectBox
        if case .object(let existing) = storage {
            box = existing  // a subclass after `super.encode(to:)` shares the container
        } else {
            box = _ObjectBox()
            storage = .object(box)
        }
        return KeyedEncodingContainer(_ValueKeyedContainer<Key>(encoder: self, box: box, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let box: _ArrayBox
        if case .array(let existing) = storage {
            box = existing
        } else {
            box = _ArrayBox()
            storage = .array(box)
        }
        return _ValueUnkeyedContainer(encoder: self, box: box, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { _ValueSingleValueContainer(encoder: self) }

    func nestedEncoder(forKey key: any CodingKey, codingPath: [any CodingKey]) -> _ValueEncoder {
        _ValueEncoder(codingPath: codingPath + [key], depth: depth + 1)
    }
}

/// A container or sub-encoder whose contents may still change until the
/// value that created it finishes encoding.
enum _EncodedNode {
    case nothing
    case value(JSONValue)
    case object(_ObjectBox)
    case array(_ArrayBox)
    case encoder(_ValueEncoder)

    /// The finished JSON; a value that encoded nothing becomes `{}`, as with `JSONEncoder`.
    func resolve() -> JSONValue {
        switch self {
        case .nothing: return .object(JSONObject())
        case .value(let value): return value
        case .object(let box):
            for (index, node) in box.pending { box.values[index] = node.resolve() }
            return .object(JSONObject(keys: box.keys, values: box.values))
        case .array(let box):
            var elements: [JSONValue] = []
            swap(&elements, &box.elements)
            for (index, node) in box.pending { elements[index] = node.resolve() }
            return .array(elements)
        case .encoder(let encoder): return encoder.storage.resolve()
        }
    }
}

final class _ObjectBox {
    // Members in encoding order; a repeated key is resolved when the object is built.
    @exclusivity(unchecked) var keys: [String]
    @exclusivity(unchecked) var values: [JSONValue]
    @exclusivity(unchecked) var pending: [(index: Int, node: _EncodedNode)] = []

    init() {
        // Most encoded types have a handful of members: one allocation, no regrowth.
        keys = []
        keys.reserveCapacity(8)
        values = []
        values.reserveCapacity(8)
    }

    @inline(__always) func append(_ key: String, _ value: JSONValue) {
        keys.append(key)
        values.append(value)
    }
}

final class _ArrayBox {
    @exclusivity(unchecked) var elements: [JSONValue] = []
    @exclusivity(unchecked) var pending: [(index: Int, node: _EncodedNode)] = []
}

struct _ValueKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: _ValueEncoder
    let box: _ObjectBox
    var codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws { box.append(key.stringValue, .null) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { box.append(key.stringValue, .bool(value)) }
    mutating func encode(_ value: String, forKey key: Key) throws { box.append(key.stringValue, .string(value)) }
    mutating func encode(_ value: Double, forKey key: Key) throws { box.append(key.stringValue, .double(value)) }
    mutating func encode(_ value: Float, forKey key: Key) throws { box.append(key.stringValue, _SpecialEncodable.float(value)) }
    mutating func encode(_ value: Int, forKey key: Key) throws { box.append(key.stringValue, .integer(Int64(value))) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { box.append(key.stringValue, .integer(Int64(value))) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { box.append(key.stringValue, .integer(Int64(value))) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { box.append(key.stringValue, .integer(Int64(value))) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { box.append(key.stringValue, .integer(value)) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { box.append(key.stringValue, _SpecialEncodable.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { box.append(key.stringValue, .integer(Int64(value))) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { box.append(key.stringValue, .integer(Int64(value))) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { box.append(key.stringValue, .integer(Int64(value))) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { box.append(key.stringValue, _SpecialEncodable.unsigned(value)) }
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    mutating func encode(_ value: Int128, forKey key: Key) throws { box.append(key.stringValue, _SpecialEncodable.wide(value)) }
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    mutating func encode(_ value: UInt128, forKey key: Key) throws { box.append(key.stringValue, _SpecialEncodable.wide(value)) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        box.append(key.stringValue, try encoder.encodeValue(value, forKey: key))
    }

    private func addPending(_ node: _EncodedNode, forKey key: Key) {
        addPending(node, named: key.stringValue)
    }

    private func addPending(_ node: _EncodedNode, named name: String) {
        box.pending.append((box.keys.count, node))
        box.append(name, .null)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let nested = _ObjectBox()
        addPending(.object(nested), forKey: key)
        return KeyedEncodingContainer(_ValueKeyedContainer<NestedKey>(encoder: encoder, box: nested, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = _ArrayBox()
        addPending(.array(nested), forKey: key)
        return _ValueUnkeyedContainer(encoder: encoder, box: nested, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        superEncoder(forKey: _SuperKey(), named: "super")
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(forKey: key, named: key.stringValue) }

    private mutating func superEncoder(forKey key: any CodingKey, named name: String) -> any Encoder {
        let nested = encoder.nestedEncoder(forKey: key, codingPath: codingPath)
        addPending(.encoder(nested), named: name)
        return nested
    }
}

/// The key `superEncoder()` writes under, as `JSONEncoder` does.
struct _SuperKey: CodingKey {
    var stringValue: String { "super" }
    var intValue: Int? { nil }
    init() {}
    init?(stringValue: String) { guard stringValue == "super" else { return nil } }
    init?(intValue: Int) { nil }
}

struct _ValueUnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: _ValueEncoder
    let box: _ArrayBox
    var codingPath: [any CodingKey]
    var count: Int { box.elements.count }

    mutating func encodeNil() throws { box.elements.append(.null) }
    mutating func encode(_ value: Bool) throws { box.elements.append(.bool(value)) }
    mutating func encode(_ value: String) throws { box.elements.append(.string(value)) }
    mutating func encode(_ value: Double) throws { box.elements.append(.double(value)) }
    mutating func encode(_ value: Float) throws { box.elements.append(_SpecialEncodable.float(value)) }
    mutating func encode(_ value: Int) throws { box.elements.append(.integer(Int64(value))) }
    mutating func encode(_ value: Int8) throws { box.elements.append(.integer(Int64(value))) }
    mutating func encode(_ value: Int16) throws { box.elements.append(.integer(Int64(value))) }
    mutating func encode(_ value: Int32) throws { box.elements.append(.integer(Int64(value))) }
    mutating func encode(_ value: Int64) throws { box.elements.append(.integer(value)) }
    mutating func encode(_ value: UInt) throws { box.elements.append(_SpecialEncodable.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt8) throws { box.elements.append(.integer(Int64(value))) }
    mutating func encode(_ value: UInt16) throws { box.elements.append(.integer(Int64(value))) }
    mutating func encode(_ value: UInt32) throws { box.elements.append(.integer(Int64(value))) }
    mutating func encode(_ value: UInt64) throws { box.elements.append(_SpecialEncodable.unsigned(value)) }
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    mutating func encode(_ value: Int128) throws { box.elements.append(_SpecialEncodable.wide(value)) }
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    mutating func encode(_ value: UInt128) throws { box.elements.append(_SpecialEncodable.wide(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        box.elements.append(try encoder.encodeValue(value, forKey: _IndexKey(box.elements.count)))
    }

    private func addPending(_ node: _EncodedNode) {
        box.pending.append((box.elements.count, node))
        box.elements.append(.null)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let nested = _ObjectBox()
        let path = codingPath + [_IndexKey(count)]
        addPending(.object(nested))
        return KeyedEncodingContainer(_ValueKeyedContainer<NestedKey>(encoder: encoder, box: nested, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = _ArrayBox()
        let path = codingPath + [_IndexKey(count)]
        addPending(.array(nested))
        return _ValueUnkeyedContainer(encoder: encoder, box: nested, codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        let nested = encoder.nestedEncoder(forKey: _IndexKey(count), codingPath: codingPath)
        addPending(.encoder(nested))
        return nested
    }
}

struct _ValueSingleValueContainer: SingleValueEncodingContainer {
    let encoder: _ValueEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func set(_ value: JSONValue) { encoder.storage = .value(value) }

    mutating func encodeNil() throws { set(.null) }
    mutating func encode(_ value: Bool) throws { set(.bool(value)) }
    mutating func encode(_ value: String) throws { set(.string(value)) }
    mutating func encode(_ value: Double) throws { set(.double(value)) }
    mutating func encode(_ value: Float) throws { set(_SpecialEncodable.float(value)) }
    mutating func encode(_ value: Int) throws { set(.integer(Int64(value))) }
    mutating func encode(_ value: Int8) throws { set(.integer(Int64(value))) }
    mutating func encode(_ value: Int16) throws { set(.integer(Int64(value))) }
    mutating func encode(_ value: Int32) throws { set(.integer(Int64(value))) }
    mutating func encode(_ value: Int64) throws { set(.integer(value)) }
    mutating func encode(_ value: UInt) throws { set(_SpecialEncodable.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt8) throws { set(.integer(Int64(value))) }
    mutating func encode(_ value: UInt16) throws { set(.integer(Int64(value))) }
    mutating func encode(_ value: UInt32) throws { set(.integer(Int64(value))) }
    mutating func encode(_ value: UInt64) throws { set(_SpecialEncodable.unsigned(value)) }
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    mutating func encode(_ value: Int128) throws { set(_SpecialEncodable.wide(value)) }
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    mutating func encode(_ value: UInt128) throws { set(_SpecialEncodable.wide(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws { set(try encoder.encodeValue(value)) }
}
