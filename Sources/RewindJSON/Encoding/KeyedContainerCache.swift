/// The keyed containers a ``_StreamingEncoder`` has handed out, kept so that
/// every value with the same key type at the same depth gets the same one.
///
/// Why: making a `KeyedEncodingContainer` costs a heap box plus three generic
/// metadata lookups and a witness-table lookup in the Swift runtime, about
/// 1,400 instructions: made per value, over a quarter of the time to encode an
/// array of structs. A value's own container keeps no state (it asks the encoder
/// which object the value at its depth is writing), so the one made for the
/// first element of an array serves all the others. Handing one out is then a
/// table probe and a copy (about 150 instructions).
///
/// Direct-mapped: a key type and depth that collide with another simply
/// replace it and are made again next time. Callers keep their own copy of a
/// container, so replacing an entry never invalidates one in use.
struct _KeyedContainerCache: ~Copyable {
    private struct Entry {
        var keyType: ObjectIdentifier
        var depth: Int
        /// Points at an `any _StoredContainer<KeyedEncodingContainer<Key>>` for `keyType`.
        var stored: UnsafeMutableRawPointer
        /// Owns the memory `stored` points at.
        var owner: _StoredExistential
    }

    private static let slotCount = 64
    private let slots: UnsafeMutablePointer<Entry?>

    init() {
        slots = .allocate(capacity: Self.slotCount)
        slots.initialize(repeating: nil, count: Self.slotCount)
    }

    deinit {
        slots.deinitialize(count: Self.slotCount)
        slots.deallocate()
    }

    /// Drops every container. The containers hold their encoder, which holds
    /// this cache, so an encoder must call this when it is done or never be freed.
    func removeAll() {
        for slot in 0..<Self.slotCount { slots[slot] = nil }
    }

    /// The container for values of key type `Key` at `depth`, made by `make` the first time.
    @inline(__always)
    func container<Key: CodingKey>(for type: Key.Type, depth: Int,
                                   make: () -> KeyedEncodingContainer<Key>) -> KeyedEncodingContainer<Key> {
        let keyType = ObjectIdentifier(type)
        let bits = UInt(bitPattern: Int(bitPattern: keyType))
        let slot = Int((bits >> 4 ^ bits >> 11 ^ UInt(bitPattern: depth) &* 0x9E37_79B9) % UInt(Self.slotCount))
        if let entry = slots[slot], entry.keyType == keyType, entry.depth == depth {
            // The same key type, so the memory holds exactly this existential type.
            return entry.stored.assumingMemoryBound(to: (any _StoredContainer<KeyedEncodingContainer<Key>>).self).pointee.load()
        }
        let container = make()
        let owner = _StoredExistential(_KeyedContainerCell(container) as any _StoredContainer<KeyedEncodingContainer<Key>>)
        slots[slot] = Entry(keyType: keyType, depth: depth, stored: owner.memory, owner: owner)
        return container
    }
}

/// Owns the memory of one existential, whatever its type.
private final class _StoredExistential {
    let memory: UnsafeMutableRawPointer
    private let destroy: (UnsafeMutableRawPointer) -> Void

    init<Existential>(_ existential: Existential) {
        let typed = UnsafeMutablePointer<Existential>.allocate(capacity: 1)
        typed.initialize(to: existential)
        memory = UnsafeMutableRawPointer(typed)
        destroy = { memory in
            let typed = memory.assumingMemoryBound(to: Existential.self)
            typed.deinitialize(count: 1)
            typed.deallocate()
        }
    }

    deinit { destroy(memory) }
}

/// Holds a cached value behind a protocol whose associated type is the
/// value's type. Reading it back through ``load()`` takes the type's metadata
/// from the conformance, where the runtime keeps it once resolved; naming
/// `KeyedEncodingContainer<Key>` in generic code instead costs a lookup in
/// the runtime's metadata cache on every call (about 460 instructions).
protocol _StoredContainer<Container>: _StoredContainerBase {
    associatedtype Container
}

/// Where a stored container lives, in a non-generic class so reading the
/// address is a field load rather than a call through the conformance.
class _StoredContainerBase {
    let storage: UnsafeMutableRawPointer

    init(storage: UnsafeMutableRawPointer) { self.storage = storage }
}

extension _StoredContainer {
    /// Not inlined: inlined into a caller that knows `Container`'s concrete
    /// type, the copy would look that type's metadata up again.
    @inline(never)
    func load() -> Container { storage.assumingMemoryBound(to: Container.self).pointee }
}

/// Owns one cached container: its storage lives as long as the cache entry.
private final class _KeyedContainerCell<Key: CodingKey>: _StoredContainerBase, _StoredContainer {
    typealias Container = KeyedEncodingContainer<Key>

    init(_ container: KeyedEncodingContainer<Key>) {
        let typed = UnsafeMutablePointer<KeyedEncodingContainer<Key>>.allocate(capacity: 1)
        typed.initialize(to: container)
        super.init(storage: UnsafeMutableRawPointer(typed))
    }

    deinit {
        let typed = storage.assumingMemoryBound(to: KeyedEncodingContainer<Key>.self)
        typed.deinitialize(count: 1)
        typed.deallocate()
    }
}
