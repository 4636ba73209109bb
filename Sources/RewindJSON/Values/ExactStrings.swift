import Foundation  // memcmp

// JSON strings are sequences of Unicode scalars: "é" (U+00E9) and "e\u{301}"
// are different strings and different keys. Swift's `String ==`, `Set<String>`
// and `Dictionary<String, …>` use canonical equivalence instead, under which
// they are equal, so a change from one to the other would diff as nothing
// and two such keys would merge. Everything in the JSON engine that compares
// strings or keys goes through these.

extension String {
    /// Whether the two strings are the same Unicode scalars (the same UTF-8),
    /// not merely canonically equivalent as `==` decides.
    @inline(__always)
    func hasSameScalars(as other: String) -> Bool {
        // The same representation is the same string: one shared storage, or
        // equal small strings (the parser hands out one String per key of a shape).
        if MemoryLayout<String>.size == 16 {
            let identical = withUnsafeBytes(of: self) { left in
                withUnsafeBytes(of: other) { right in
                    left.loadUnaligned(as: UInt64.self) == right.loadUnaligned(as: UInt64.self)
                        && left.loadUnaligned(fromByteOffset: 8, as: UInt64.self) == right.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                }
            }
            if identical { return true }
        }
        return utf8.count == other.utf8.count && hasSameUTF8(as: other)
    }

    /// The byte comparison of two strings of one length, out of line: most
    /// comparisons end at the identity or the length check.
    @inline(never)
    private func hasSameUTF8(as other: String) -> Bool {
        let count = utf8.count
        if count == 0 { return true }
        let same = utf8.withContiguousStorageIfAvailable { left in
            other.utf8.withContiguousStorageIfAvailable { right in
                memcmp(left.baseAddress!, right.baseAddress!, count) == 0
            }
        }
        if let same, let same { return same }
        return utf8.elementsEqual(other.utf8)
    }

    /// Feeds the string's UTF-8 to `hasher`: agrees with ``hasSameScalars(as:)``.
    @inline(__always)
    func hashScalars(into hasher: inout Hasher) {
        let hashed = utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
            return true
        }
        if hashed == nil {
            // A bridged string: the same bytes, hashed the same way.
            Array(utf8).withUnsafeBytes { hasher.combine(bytes: $0) }
        }
        hasher.combine(utf8.count)
    }
}

extension Array where Element == String {
    /// Element by element, by Unicode scalars.
    func haveSameScalars(as other: [String]) -> Bool {
        guard count == other.count else { return false }
        // One buffer (an object's keys copied from another's): nothing to compare.
        if withUnsafeBufferPointer({ mine in other.withUnsafeBufferPointer { mine.baseAddress == $0.baseAddress } }) { return true }
        for index in indices where !self[index].hasSameScalars(as: other[index]) { return false }
        return true
    }
}

/// A `String` as a dictionary or set key compared by its Unicode scalars.
struct _ScalarKey: Hashable {
    let string: String

    init(_ string: String) { self.string = string }

    static func == (lhs: _ScalarKey, rhs: _ScalarKey) -> Bool { lhs.string.hasSameScalars(as: rhs.string) }

    func hash(into hasher: inout Hasher) { string.hashScalars(into: &hasher) }
}
