import Foundation

/// A growable byte buffer for writing JSON: appends are a capacity check and a
/// store, without `Array`'s per-append uniqueness check. Single-threaded.
///
/// Not final only so ``_StreamingEncoder`` can *be* its buffer: containers then
/// reach the bytes through the one reference they hold, with no extra load
/// and retain of a separate buffer object per write. Every member is final.
package class _ByteBuffer {
    // Unchecked: the buffer is owned by one writer at a time, and dynamic
    // exclusivity checks on every append would cost more than the append.
    @exclusivity(unchecked) package final private(set) var base: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) package final private(set) var count = 0
    @exclusivity(unchecked) final private(set) var capacity: Int

    package init(capacity: Int = 1024) {
        self.capacity = max(capacity, 16)
        // malloc, not `allocate`, so growing can use realloc, which moves large
        // buffers by remapping pages instead of copying them.
        base = malloc(self.capacity)!.assumingMemoryBound(to: UInt8.self)
    }

    deinit { free(base) }

    package final var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    @inline(__always) final func reserve(_ extra: Int) {
        if count + extra > capacity { grow(count + extra) }
    }

    private final func grow(_ needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        base = realloc(base, newCapacity)!.assumingMemoryBound(to: UInt8.self)
        capacity = newCapacity
    }

    @inline(__always) package final func append(_ byte: UInt8) {
        reserve(1)
        appendReserved(byte)
    }

    @inline(__always) package final func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        reserve(bytes.count)
        appendReserved(source, count: bytes.count)
    }

    @inline(__always) package final func append(_ literal: StaticString) {
        reserve(literal.utf8CodeUnitCount)
        appendReserved(literal.utf8Start, count: literal.utf8CodeUnitCount)
    }

    /// Forgets the contents; a buffer grown past `capacity` bytes shrinks back to it.
    package final func removeAll(keepingCapacityUpTo limit: Int) {
        count = 0
        if capacity > limit {
            capacity = max(limit, 16)
            base = realloc(base, capacity)!.assumingMemoryBound(to: UInt8.self)
        }
    }

    /// Stores one byte after `reserve`.
    @inline(__always) final func appendReserved(_ byte: UInt8) {
        base[count] = byte
        count += 1
    }

    /// Copies `length` bytes after `reserve`. Most runs JSON is made of (keys,
    /// short strings, literals) are a few bytes, where a call to memcpy costs
    /// more than the copy: those are one or two overlapping word moves.
    @inline(__always) final func appendReserved(_ source: UnsafePointer<UInt8>, count length: Int) {
        let target = UnsafeMutableRawPointer(base + count)
        let from = UnsafeRawPointer(source)
        if length >= 8 && length <= 16 {
            target.storeBytes(of: from.loadUnaligned(as: UInt64.self), as: UInt64.self)
            (target + length - 8).storeBytes(of: from.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self), as: UInt64.self)
        } else if length >= 4 && length < 8 {
            target.storeBytes(of: from.loadUnaligned(as: UInt32.self), as: UInt32.self)
            (target + length - 4).storeBytes(of: from.loadUnaligned(fromByteOffset: length - 4, as: UInt32.self), as: UInt32.self)
        } else if length < 4 {
            for offset in 0..<length { (base + count + offset).pointee = source[offset] }
        } else {
            target.copyMemory(from: from, byteCount: length)
        }
        count += length
    }

    /// Commits `written` bytes stored directly after `count` (after `reserve`).
    @inline(__always) final func didWrite(_ written: Int) { count += written }
}
