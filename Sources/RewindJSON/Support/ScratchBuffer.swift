/// Reusable raw storage the parser builds in: its stack of values waiting for
/// their container, and the decoded bytes of a string with escapes. Stores
/// and copies come after one capacity check, without `Array`'s uniqueness
/// and bounds bookkeeping per element, and values are moved in and out, so
/// they cost no reference counting. The owner tracks how many elements are
/// initialized and frees the storage with `release(initialized:)`.
struct ScratchBuffer<Element> {
    private(set) var base: UnsafeMutablePointer<Element>
    private var capacity = 0

    init() {
        // A placeholder that is never read, written or freed while the capacity is 0.
        base = UnsafeMutablePointer(bitPattern: MemoryLayout<Element>.alignment)!
    }

    /// Makes room for at least `count` elements, keeping the first `kept` (initialized) ones.
    @inline(__always) mutating func reserve(_ count: Int, keeping kept: Int) {
        if count > capacity { grow(to: count, keeping: kept) }
    }

    private mutating func grow(to needed: Int, keeping kept: Int) {
        let newCapacity = max(16, needed, capacity * 2)
        let larger = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        if capacity > 0 {
            larger.moveInitialize(from: base, count: kept)
            base.deallocate()
        }
        base = larger
        capacity = newCapacity
    }

    /// Stores one element at `offset` (within the reserved room) and advances it.
    @inline(__always) func store(_ element: __owned Element, at offset: inout Int) {
        (base + offset).initialize(to: element)
        offset += 1
    }

    /// Copies `count` elements to `offset` (within the reserved room) and advances it.
    @inline(__always) func copy(from source: UnsafePointer<Element>, count: Int, at offset: inout Int) {
        (base + offset).initialize(from: source, count: count)
        offset += count
    }

    /// Frees the storage after deinitializing its first `initialized` elements.
    mutating func release(initialized: Int) {
        guard capacity > 0 else { return }
        base.deinitialize(count: initialized)
        base.deallocate()
        capacity = 0
    }
}
