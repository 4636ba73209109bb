/// A small set of types, for remembering answers about a type that are
/// expensive to work out again for every value: direct-mapped, so a type
/// that collides with another is simply forgotten and worked out again.
/// Type metadata lives as long as the process, so an identifier never goes stale.
struct _TypeSet: ~Copyable {
    private static let slotCount = 32
    private let slots: UnsafeMutablePointer<UInt>

    init() {
        slots = .allocate(capacity: Self.slotCount)
        slots.initialize(repeating: 0, count: Self.slotCount)
    }

    deinit { slots.deallocate() }

    @inline(__always)
    private static func slot(_ bits: UInt) -> Int { Int(truncatingIfNeeded: (bits >> 4 ^ bits >> 9) % UInt(slotCount)) }

    @inline(__always)
    func contains(_ type: ObjectIdentifier) -> Bool {
        let bits = UInt(bitPattern: Int(bitPattern: type))
        return slots[Self.slot(bits)] == bits
    }

    func insert(_ type: ObjectIdentifier) {
        let bits = UInt(bitPattern: Int(bitPattern: type))
        slots[Self.slot(bits)] = bits
    }
}
