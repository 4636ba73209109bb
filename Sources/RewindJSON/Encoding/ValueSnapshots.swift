import Foundation

/// Copies of the values a document encoded, by the node each one encoded to:
/// what lets the next document reuse the bytes of a value that has not
/// changed (``_StreamingEncoder/reusingUnchangedValues(from:)``).
///
/// Why a copy rather than the bits alone: two values of a type with no class
/// instances inside are the same value when their bits are the same, but only
/// while the buffers their bits point at (a `String`'s or an `Array`'s
/// storage) cannot be freed and their addresses reused for other contents.
/// A copy holds those buffers, and a buffer held twice is copied, never
/// changed in place, when the app writes to it. A value found unchanged does
/// not need a new copy: the old one, bit for bit the same, moves over.
///
/// Bits are compared with the padding between fields cleared
/// (``_PaddingLayout``): a copy need not write it, so it differs between
/// copies of one value. Memory comes in chunks that never move. A copy found
/// unchanged is moved to the next document's chunks bit by bit when its type
/// allows that ("bitwise takable": not a type holding a `weak` reference);
/// other types get a new copy.
final class _ValueSnapshots {
    struct Entry {
        /// The document node the value encoded to.
        var node: Int32
        var size: Int32
        /// False for a value whose encoding reached a class instance.
        var reusable: Bool
        /// False once the copy moved to the next document's snapshots.
        var owned: Bool
        var type: ObjectIdentifier
        var metatype: Any.Type
        var address: UnsafeMutableRawPointer
    }

    // Unchecked: used by the one encoder that owns it, on one thread.
    @exclusivity(unchecked) private var entries = _UnsafeStack<Entry>(capacity: 256)
    @exclusivity(unchecked) private var chunks: [(base: UnsafeMutableRawPointer, size: Int)] = []
    @exclusivity(unchecked) private var chunk = 0
    @exclusivity(unchecked) private var used = 0
    private static let chunkSize = 64 << 10
    /// A moving position for ``entryIndex(forNode:)``: nodes are looked up in document order.
    @exclusivity(unchecked) private var cursor = 0

    deinit {
        removeAll()
        for chunk in chunks { free(chunk.base) }
        layoutSlots.deallocate()
    }

    var isEmpty: Bool { entries.isEmpty }

    /// Keeps a copy of the value at `value`, which encodes to `node`, and tells whether it is the value
    /// `previous` kept for `previousNode` (-1: none), bit for bit (padding aside):
    /// then that document's bytes for it can be copied. Returns the new entry's index.
    @inline(__always)
    func keep<T>(_ value: UnsafePointer<T>, node: Int32, comparingWith previous: Unmanaged<_ValueSnapshots>?, at previousNode: Int32) -> (index: Int, unchanged: Bool) {
        let size = MemoryLayout<T>.size
        let address = allocate(size: max(size, 1), alignment: MemoryLayout<T>.alignment)
        let type = ObjectIdentifier(T.self)
        var old: UnsafeMutablePointer<Entry>?
        if previousNode >= 0, let previous {
            // Borrowed, not retained: a retain per value showed in profiles (the caller keeps it alive).
            old = previous._withUnsafeGuaranteedRef { previous in
                guard let index = previous.entryIndex(forNode: previousNode) else { return nil }
                let entry = previous.entries.address(index)
                return entry.pointee.reusable && entry.pointee.owned && entry.pointee.type == type ? entry : nil
            }
        }
        if let old, _isBitwiseTakable(T.self) {
            // The bits alone first (no copy, no retain), padding cleared as in the kept copy.
            memcpy(address, value, size)
            clearPadding(of: T.self, at: address)
            if memcmp(address, old.pointee.address, size) == 0 {
                // The same value: its copy moves over, no new one is made.
                old.pointee.owned = false
                entries.push(Entry(node: node, size: Int32(truncatingIfNeeded: size), reusable: true, owned: true,
                                   type: type, metatype: T.self, address: address))
                return (entries.count - 1, true)
            }
        }
        memset(address, 0, size)
        address.bindMemory(to: T.self, capacity: 1).initialize(to: value.pointee)
        clearPadding(of: T.self, at: address)
        entries.push(Entry(node: node, size: Int32(truncatingIfNeeded: size), reusable: true, owned: true,
                           type: type, metatype: T.self, address: address))
        let unchanged = old.map { memcmp(address, $0.pointee.address, size) == 0 } ?? false
        return (entries.count - 1, unchanged)
    }

    /// Clears the padding of the `T` at `address` (``_PaddingLayout``), worked out once
    /// per type. The layouts live in raw memory, not in arrays, so looking one up
    /// retains nothing: it is done for every composite value encoded. The cache is
    /// direct-mapped: a type that collides with another is worked out again.
    @inline(__always)
    private func clearPadding<T>(of type: T.Type, at address: UnsafeMutableRawPointer) {
        let bits = UInt(bitPattern: Int(bitPattern: ObjectIdentifier(T.self)))
        let slot = layoutSlots + Int(truncatingIfNeeded: (bits >> 4 ^ bits >> 10) % UInt(Self.layoutSlotCount))
        if slot.pointee.type != bits { learnLayout(of: T.self, into: slot) }
        var gap = Int(slot.pointee.first)
        let end = gap + Int(slot.pointee.count)
        while gap < end {
            let range = gaps.address(gap).pointee
            memset(address + Int(range.offset), 0, Int(range.length))
            gap += 1
        }
    }

    private func learnLayout<T>(of type: T.Type, into slot: UnsafeMutablePointer<LayoutSlot>) {
        if gaps.count > 1 << 14 {
            // Types keep colliding: start over rather than grow without end.
            layoutSlots.update(repeating: LayoutSlot(type: 0, first: 0, count: 0), count: Self.layoutSlotCount)
            gaps.removeAll()
        }
        let layout = _PaddingLayout(of: T.self)
        slot.pointee = LayoutSlot(type: UInt(bitPattern: Int(bitPattern: ObjectIdentifier(T.self))),
                                  first: Int32(gaps.count), count: Int32(layout.gaps.count))
        for range in layout.gaps { gaps.push((Int32(range.lowerBound), Int32(range.count))) }
    }

    struct LayoutSlot {
        var type: UInt
        var first: Int32
        var count: Int32
    }

    private static let layoutSlotCount = 64
    private let layoutSlots: UnsafeMutablePointer<LayoutSlot> = {
        let slots = UnsafeMutablePointer<LayoutSlot>.allocate(capacity: layoutSlotCount)
        slots.initialize(repeating: LayoutSlot(type: 0, first: 0, count: 0), count: layoutSlotCount)
        return slots
    }()
    @exclusivity(unchecked) private var gaps = _UnsafeStack<(offset: Int32, length: Int32)>()

    func markNotReusable(_ index: Int) { entries.address(index).pointee.reusable = false }

    /// The entry for `node`. Lookups come in increasing node order after ``rewind()``.
    @inline(__always)
    private func entryIndex(forNode node: Int32) -> Int? {
        let count = entries.count
        while cursor < count, entries.address(cursor).pointee.node < node { cursor += 1 }
        return cursor < count && entries.address(cursor).pointee.node == node ? cursor : nil
    }

    /// Starts lookups from the first node again.
    func rewind() { cursor = 0 }

    /// Destroys the copies still held, keeping the memory.
    func removeAll() {
        for entry in entries.unsafeElements where entry.owned { Self.destroy(entry.metatype, at: entry.address) }
        entries.removeAll()
        (chunk, used, cursor) = (0, 0, 0)
        // A document far larger than usual does not keep its memory.
        if chunks.count > 64 {
            for extra in chunks[64...] { free(extra.base) }
            chunks.removeSubrange(64...)
        }
    }

    private static func destroy<T>(_ type: T.Type, at address: UnsafeMutableRawPointer) {
        address.assumingMemoryBound(to: T.self).deinitialize(count: 1)
    }

    @inline(__always)
    private func allocate(size: Int, alignment: Int) -> UnsafeMutableRawPointer {
        if let address = fitInCurrentChunk(size: size, alignment: alignment) { return address }
        // The current chunk is full (or there is none yet): the next one, made when missing.
        while true {
            if chunk < chunks.count { chunk += 1 }
            used = 0
            if chunk == chunks.count { chunks.append((malloc(max(Self.chunkSize, size + alignment))!, max(Self.chunkSize, size + alignment))) }
            if let address = fitInCurrentChunk(size: size, alignment: alignment) { return address }
        }
    }

    @inline(__always)
    private func fitInCurrentChunk(size: Int, alignment: Int) -> UnsafeMutableRawPointer? {
        guard chunk < chunks.count else { return nil }
        let start = (used + alignment - 1) & ~(alignment - 1)
        guard start + size <= chunks[chunk].size else { return nil }
        used = start + size
        return chunks[chunk].base + start
    }
}
