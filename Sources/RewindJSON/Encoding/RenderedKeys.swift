/// The `"key":` text of each key of one key type, escaped and rendered the
/// first time the key is written, then copied.
///
/// Why: writing a member key otherwise calls the key's `stringValue`, reads
/// the string's UTF-8, checks it for characters to escape and releases it,
/// for every member of every value, although a type has only a handful of keys.
///
/// Only for key types of at most one byte: the synthesized `CodingKeys` enums
/// and other enums without payloads, whose value (its one byte) tells which
/// key it is. `stringValue` is taken to be a function of that value.
///
/// One fixed allocation that never moves, so a container can hold a plain
/// pointer to it (reading a class reference would cost a retain per key):
/// a span per key byte, then the rendered text.
final class _RenderedKeys {
    /// Whether keys of type `Key` can be told apart by their one byte.
    static func canRender<Key: CodingKey>(_ type: Key.Type) -> Bool {
        MemoryLayout<Key>.size <= 1
    }

    private static let spanCount = 256
    /// Room for the text of the keys; keys past it are written the slow way.
    private static let textCapacity = 1024

    let table: Table

    init() {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: Self.spanCount * 4 + 4 + Self.textCapacity, alignment: 4)
        memory.initializeMemory(as: UInt32.self, repeating: 0, count: Self.spanCount + 1)
        table = Table(memory: memory)
    }

    deinit { table.memory.deallocate() }

    /// The table itself, valid while its ``_RenderedKeys`` lives.
    struct Table {
        /// 256 spans: where a key's text starts (upper 24 bits) and its length
        /// (lower 8 bits), 0 until rendered; then the text's used length; then the text.
        let memory: UnsafeMutableRawPointer

        private var spans: UnsafeMutablePointer<UInt32> { memory.assumingMemoryBound(to: UInt32.self) }
        private var text: UnsafeMutablePointer<UInt8> { (memory + (_RenderedKeys.spanCount + 1) * 4).assumingMemoryBound(to: UInt8.self) }

        /// Writes `key`'s member text (after a comma unless first); false, having
        /// written nothing, when there was no room to keep it.
        @inline(__always)
        func write<Key: CodingKey>(_ key: Key, afterComma: Bool, to output: _ByteBuffer) -> Bool {
            // A one-byte key is its byte; a zero-byte key type has one key.
            let index = MemoryLayout<Key>.size == 1 ? Int(unsafeBitCast(key, to: UInt8.self)) : 0
            var span = spans[index]
            if span == 0 {
                span = render(key.stringValue)
                if span == 0 { return false }
                spans[index] = span
            }
            let length = Int(span & 0xFF)
            output.reserve(length + 1)
            if afterComma { output.appendReserved(UInt8(ascii: ",")) }
            output.appendReserved(text + Int(span >> 8), count: length)
            return true
        }

        /// Adds `"name":` to the text; its span, or 0 if there is no room.
        @inline(never)
        private func render(_ name: String) -> UInt32 {
            let rendered = _ByteBuffer(capacity: 32)
            JSONWriter.writeMemberKey(name, afterComma: false, to: rendered)
            let used = Int(spans[_RenderedKeys.spanCount])
            guard rendered.count <= 0xFF, used + rendered.count <= _RenderedKeys.textCapacity else { return 0 }
            (text + used).update(from: rendered.base, count: rendered.count)
            spans[_RenderedKeys.spanCount] = UInt32(used + rendered.count)
            return UInt32(used) << 8 | UInt32(rendered.count)
        }
    }
}
