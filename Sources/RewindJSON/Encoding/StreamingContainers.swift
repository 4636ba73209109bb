/// The keyed, unkeyed and single-value containers of ``_StreamingEncoder``.
/// Each write goes straight to the encoder's byte buffer.
///
/// Containers hold the encoder (which is also the output buffer) and no
/// coding path of their own: copying a path array into every container was a
/// fifth of the encoding time. A container is only valid during the
/// `encode(to:)` call that made it, as with any encoder; the encoder outlives
/// that call.
struct _StreamingKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: _StreamingEncoder
    /// A nested container's own frame (`nestedContainer(keyedBy:forKey:)`).
    private let nestedID: Int
    /// For a value's own container (`container(keyedBy:)`), the depth of the
    /// value: the encoder knows the frame of the value at that depth, so one
    /// such container serves every value of its key type at its depth (see
    /// ``_KeyedContainerCache``). 0 for nested containers.
    private let valueDepth: Int
    /// The keys' text, for key types whose keys can be told apart by value,
    /// in value containers only: those are made once and reused, while a
    /// nested container is made anew each time and would render for nothing.
    /// `renderedKeys` keeps `keyTable` alive as long as the container.
    private let renderedKeys: _RenderedKeys?
    private let keyTable: _RenderedKeys.Table?

    init(encoder: _StreamingEncoder, nestedID: Int) {
        self.init(encoder: encoder, nestedID: nestedID, valueDepth: 0)
    }

    init(encoder: _StreamingEncoder, valueDepth: Int) {
        self.init(encoder: encoder, nestedID: -1, valueDepth: valueDepth)
    }

    private init(encoder: _StreamingEncoder, nestedID: Int, valueDepth: Int) {
        self.encoder = encoder
        self.nestedID = nestedID
        self.valueDepth = valueDepth
        renderedKeys = valueDepth > 0 && _RenderedKeys.canRender(Key.self) ? _RenderedKeys() : nil
        keyTable = renderedKeys?.table
    }

    private var id: Int { valueDepth > 0 ? encoder.valueContainerID(atDepth: valueDepth) : nestedID }
    var codingPath: [any CodingKey] { encoder.codingPath(ofFrame: id) }

    @inline(__always) private func writeKey(_ key: Key) throws {
        let afterComma = try encoder.beginElement(of: id)
        let keyStart = encoder.count + (afterComma ? 1 : 0)
        if let keyTable, keyTable.write(key, afterComma: afterComma, to: encoder) {
            encoder.indexChild(keyStart: keyStart)
            return
        }
        JSONWriter.writeMemberKey(key.stringValue, afterComma: afterComma, to: encoder)
        encoder.indexChild(keyStart: keyStart)
    }

    mutating func encodeNil(forKey key: Key) throws { try writeKey(key); encoder.append("null") }
    mutating func encode(_ value: Bool, forKey key: Key) throws { try writeKey(key); JSONWriter.writeBool(value, to: encoder) }
    mutating func encode(_ value: String, forKey key: Key) throws { try writeKey(key); JSONWriter.writeString(value, to: encoder) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try writeKey(key); JSONWriter.writeDouble(value, to: encoder) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try writeKey(key); JSONWriter.writeFloat(value, to: encoder) }
    mutating func encode(_ value: Int, forKey key: Key) throws { try writeKey(key); JSONWriter.writeInt64(Int64(value), to: encoder) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try writeKey(key); JSONWriter.writeInt64(Int64(value), to: encoder) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try writeKey(key); JSONWriter.writeInt64(Int64(value), to: encoder) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try writeKey(key); JSONWriter.writeInt64(Int64(value), to: encoder) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try writeKey(key); JSONWriter.writeInt64(value, to: encoder) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try writeKey(key); JSONWriter.writeUInt64(UInt64(value), to: encoder) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try writeKey(key); JSONWriter.writeUInt64(UInt64(value), to: encoder) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try writeKey(key); JSONWriter.writeUInt64(UInt64(value), to: encoder) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try writeKey(key); JSONWriter.writeUInt64(UInt64(value), to: encoder) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try writeKey(key); JSONWriter.writeUInt64(value, to: encoder) }
    // Int128 and UInt128 (Codable since Swift 6): every digit, without falling back to reflection.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    mutating func encode(_ value: Int128, forKey key: Key) throws { try writeKey(key); JSONWriter.writeInteger(value, to: encoder) }
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    mutating func encode(_ value: UInt128, forKey key: Key) throws { try writeKey(key); JSONWriter.writeInteger(value, to: encoder) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try writeKey(key)
        try encoder.encodeValue(value, forKey: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let nestedID = (try? writeKey(key)) == nil ? encoder.fail() : encoder.nestedFrame(isObject: true, codingPath: codingPath + [key])
        return KeyedEncodingContainer(_StreamingKeyedContainer<NestedKey>(encoder: encoder, nestedID: nestedID))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nestedID = (try? writeKey(key)) == nil ? encoder.fail() : encoder.nestedFrame(isObject: false, codingPath: codingPath + [key])
        return _StreamingUnkeyedContainer(encoder: encoder, id: nestedID)
    }

    mutating func superEncoder() -> any Encoder { encoder.superEncoder(marking: codingPath) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { encoder.superEncoder(marking: codingPath) }
}

/// Three words, so `any UnkeyedEncodingContainer` holds it inline instead of boxing it on the heap.
struct _StreamingUnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: _StreamingEncoder
    let id: Int
    private(set) var count = 0
    var codingPath: [any CodingKey] { encoder.codingPath(ofFrame: id) }

    init(encoder: _StreamingEncoder, id: Int) {
        self.encoder = encoder
        self.id = id
    }

    @inline(__always) private mutating func begin() throws {
        if try encoder.beginElement(of: id) { encoder.append(UInt8(ascii: ",")) }
        encoder.indexChild(keyStart: -1)
        count += 1
    }

    mutating func encodeNil() throws { try begin(); encoder.append("null") }
    mutating func encode(_ value: Bool) throws { try begin(); JSONWriter.writeBool(value, to: encoder) }
    mutating func encode(_ value: String) throws { try begin(); JSONWriter.writeString(value, to: encoder) }
    mutating func encode(_ value: Double) throws { try begin(); JSONWriter.writeDouble(value, to: encoder) }
    mutating func encode(_ value: Float) throws { try begin(); JSONWriter.writeFloat(value, to: encoder) }
    mutating func encode(_ value: Int) throws { try begin(); JSONWriter.writeInt64(Int64(value), to: encoder) }
    mutating func encode(_ value: Int8) throws { try begin(); JSONWriter.writeInt64(Int64(value), to: encoder) }
    mutating func encode(_ value: Int16) throws { try begin(); JSONWriter.writeInt64(Int64(value), to: encoder) }
    mutating func encode(_ value: Int32) throws { try begin(); JSONWriter.writeInt64(Int64(value), to: encoder) }
    mutating func encode(_ value: Int64) throws { try begin(); JSONWriter.writeInt64(value, to: encoder) }
    mutating func encode(_ value: UInt) throws { try begin(); JSONWriter.writeUInt64(UInt64(value), to: encoder) }
    mutating func encode(_ value: UInt8) throws { try begin(); JSONWriter.writeUInt64(UInt64(value), to: encoder) }
    mutating func encode(_ value: UInt16) throws { try begin(); JSONWriter.writeUInt64(UInt64(value), to: encoder) }
    mutating func encode(_ value: UInt32) throws { try begin(); JSONWriter.writeUInt64(UInt64(value), to: encoder) }
    mutating func encode(_ value: UInt64) throws { try begin(); JSONWriter.writeUInt64(value, to: encoder) }
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    mutating func encode(_ value: Int128) throws { try begin(); JSONWriter.writeInteger(value, to: encoder) }
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    mutating func encode(_ value: UInt128) throws { try begin(); JSONWriter.writeInteger(value, to: encoder) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try begin()
        try encoder.encodeElement(value, index: count - 1)
    }

    /// An element read where it lies (see ``_ElementsInPlace``).
    @inline(__always)
    mutating func encode<T: Encodable>(inPlace element: UnsafePointer<T>) throws {
        try begin()
        try encoder.encodeElement(inPlace: element, index: count - 1)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let nestedID = (try? begin()) == nil ? encoder.fail() : encoder.nestedFrame(isObject: true, codingPath: codingPath + [_IndexKey(count - 1)])
        return KeyedEncodingContainer(_StreamingKeyedContainer<NestedKey>(encoder: encoder, nestedID: nestedID))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nestedID = (try? begin()) == nil ? encoder.fail() : encoder.nestedFrame(isObject: false, codingPath: codingPath + [_IndexKey(count - 1)])
        return _StreamingUnkeyedContainer(encoder: encoder, id: nestedID)
    }

    mutating func superEncoder() -> any Encoder { encoder.superEncoder(marking: codingPath) }
}

struct _StreamingSingleValueContainer: SingleValueEncodingContainer {
    let encoder: _StreamingEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws { try encoder.beginSingleValue(); encoder.append("null") }
    mutating func encode(_ value: Bool) throws { try encoder.beginSingleValue(); JSONWriter.writeBool(value, to: encoder) }
    mutating func encode(_ value: String) throws { try encoder.beginSingleValue(); JSONWriter.writeString(value, to: encoder) }
    mutating func encode(_ value: Double) throws { try encoder.beginSingleValue(); JSONWriter.writeDouble(value, to: encoder) }
    mutating func encode(_ value: Float) throws { try encoder.beginSingleValue(); JSONWriter.writeFloat(value, to: encoder) }
    mutating func encode(_ value: Int) throws { try encoder.beginSingleValue(); JSONWriter.writeInt64(Int64(value), to: encoder) }
    mutating func encode(_ value: Int8) throws { try encoder.beginSingleValue(); JSONWriter.writeInt64(Int64(value), to: encoder) }
    mutating func encode(_ value: Int16) throws { try encoder.beginSingleValue(); JSONWriter.writeInt64(Int64(value), to: encoder) }
    mutating func encode(_ value: Int32) throws { try encoder.beginSingleValue(); JSONWriter.writeInt64(Int64(value), to: encoder) }
    mutating func encode(_ value: Int64) throws { try encoder.beginSingleValue(); JSONWriter.writeInt64(value, to: encoder) }
    mutating func encode(_ value: UInt) throws { try encoder.beginSingleValue(); JSONWriter.writeUInt64(UInt64(value), to: encoder) }
    mutating func encode(_ value: UInt8) throws { try encoder.beginSingleValue(); JSONWriter.writeUInt64(UInt64(value), to: encoder) }
    mutating func encode(_ value: UInt16) throws { try encoder.beginSingleValue(); JSONWriter.writeUInt64(UInt64(value), to: encoder) }
    mutating func encode(_ value: UInt32) throws { try encoder.beginSingleValue(); JSONWriter.writeUInt64(UInt64(value), to: encoder) }
    mutating func encode(_ value: UInt64) throws { try encoder.beginSingleValue(); JSONWriter.writeUInt64(value, to: encoder) }
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    mutating func encode(_ value: Int128) throws { try encoder.beginSingleValue(); JSONWriter.writeInteger(value, to: encoder) }
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    mutating func encode(_ value: UInt128) throws { try encoder.beginSingleValue(); JSONWriter.writeInteger(value, to: encoder) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try encoder.beginSingleValue()
        try encoder.encodeValue(value)
    }
}

/// The coding key of an array element (`codingPath` entries inside unkeyed containers).
struct _IndexKey: CodingKey {
    var intValue: Int?
    var stringValue: String { String(intValue ?? 0) }
    init(_ index: Int) { intValue = index }
    init?(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { guard let index = Int(stringValue) else { return nil }; intValue = index }
}

/// Arrays whose elements the encoder reads where they lie in the array's buffer
/// when it reuses unchanged values: `Array.encode(to:)` copies each element out
/// (retaining what it holds) before encoding it, which would be most of the cost
/// of finding an element unchanged.
protocol _ElementsInPlace {
    func encodeElementsInPlace(to encoder: _StreamingEncoder) throws
}

extension Array: _ElementsInPlace where Element: Encodable {
    /// Writes what `Array.encode(to:)` writes: an unkeyed container with each element.
    func encodeElementsInPlace(to encoder: _StreamingEncoder) throws {
        var container = _StreamingUnkeyedContainer(encoder: encoder, id: encoder.valueContainer(isObject: false))
        try withUnsafeBufferPointer { elements in
            guard let base = elements.baseAddress else { return }
            for index in 0..<elements.count { try container.encode(inPlace: base + index) }
        }
    }
}
