import Foundation
@_spi(Reflection) import Swift

/// Where a type's inline bytes are padding: the bytes between a struct's
/// fields that hold no part of its value, which a copy may leave as they were
/// in the memory it copied into. ``_ValueSnapshots`` clears them before
/// comparing two values bit for bit, so equal values compare equal wherever
/// their bits came from (an array's buffer, a temporary).
///
/// Worked out once per type from the runtime's field layout (`_forEachField`):
/// the fields of a struct, and of the structs inside it, are values; anything
/// else (an enum, an optional, a tuple, a reference) counts as value in full,
/// so no byte that could hold part of a value is ever cleared.
struct _PaddingLayout {
    /// Padding ranges, ascending; empty when every byte may hold part of the value.
    let gaps: [Range<Int>]

    init<T>(of type: T.Type) {
        let size = MemoryLayout<T>.size
        var used = [Bool](repeating: false, count: size)
        Self.mark(T.self, at: 0, size: size, in: &used)
        var gaps: [Range<Int>] = []
        var start: Int?
        for offset in 0...size {
            let isGap = offset < size && !used[offset]
            if isGap, start == nil { start = offset }
            if !isGap, let first = start {
                gaps.append(first..<offset)
                start = nil
            }
        }
        self.gaps = gaps
    }

    /// Marks the bytes of a `type` value at `offset` that may hold part of it.
    private static func mark(_ type: Any.Type, at offset: Int, size: Int, in used: inout [Bool]) {
        // Only a struct's fields lie apart in its memory (an enum's payloads overlap, a class
        // is a reference); the runtime lists fields of structs and classes only.
        var fields: [(offset: Int, type: Any.Type)] = []
        let listed = !(type is AnyObject.Type) && _forEachField(of: type, options: []) { _, fieldOffset, fieldType, _ in
            fields.append((fieldOffset, fieldType))
            return true
        }
        guard listed, !fields.isEmpty else {
            for byte in offset..<min(offset + size, used.count) { used[byte] = true }
            return
        }
        for field in fields {
            mark(field.type, at: offset + field.offset, size: byteSize(of: field.type), in: &used)
        }
    }

    private static func byteSize(of type: Any.Type) -> Int {
        func size<T>(_: T.Type) -> Int { MemoryLayout<T>.size }
        return size(type)
    }
}
