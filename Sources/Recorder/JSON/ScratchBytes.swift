/// A reusable byte buffer the parser decodes escaped strings into: plain
/// stores and copies after one capacity check, without `Array`'s uniqueness
/// and bounds bookkeeping on every byte. The owner frees it with `release()`.
struct ScratchBytes {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private var capacity = 0

    init() {
        // A placeholder that is never written or freed while the capacity is 0.
        base = UnsafeMutablePointer(bitPattern: 1)!
    }

    /// Makes room for at least `count` bytes, keeping the first `count` ones already written.
    @inline(__always) mutating func reserve(_ count: Int) {
        if count > capacity { grow(to: count) }
    }

    private mutating func grow(to needed: Int) {
        let newCapacity = max(64, needed, capacity * 2)
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        if capacity > 0 {
            larger.update(from: base, count: capacity)
            base.deallocate()
        }
        base = larger
        capacity = newCapacity
    }

    /// Stores one byte at `offset` (within the reserved room) and advances it.
    @inline(__always) func store(_ byte: UInt8, at offset: inout Int) {
        base[offset] = byte
        offset += 1
    }

    /// Copies `count` bytes to `offset` (within the reserved room) and advances it.
    @inline(__always) func copy(from source: UnsafePointer<UInt8>, count: Int, at offset: inout Int) {
        (base + offset).update(from: source, count: count)
        offset += count
    }

    mutating func release() {
        guard capacity > 0 else { return }
        base.deallocate()
        capacity = 0
    }
}
