import Foundation
internal import CJSONScan

/// Reading a patch, the fast path: a patch as a recorder writes it,
/// `[{"op":"replace","path":"/a/0","value":3},…]` (members in that order, no
/// spaces; `replace`, `add`, `remove`, `test`), built straight from its bytes:
/// the parser sets up per-document caches that cost more than a ten-byte value.
/// Nil for anything else; the caller then reads the patch with the reference,
/// `JSONPatch(jsonValue:)` on the parsed bytes. It accepts only what the
/// reference accepts (strings without control characters, valid UTF-8, values
/// the parser reads, nothing after the patch), so it may be given any bytes:
/// `state(at:)` gives it patches nothing has checked. Held to the reference by
/// `StateScanTests.patchesAsWrittenAreThePatchesTheParserReads` and the
/// `fast-readers` fuzz target; `REWIND_REFERENCE_READERS=patch` turns it off.
package enum SkimmedPatch {
    package static func read(_ bytes: UnsafeBufferPointer<UInt8>) -> JSONPatch? {
        var pointers = PathPointerCache()
        return read(bytes, pointers: &pointers)
    }

    /// The same, taking paths seen before from `pointers`.
    package static func read(_ bytes: UnsafeBufferPointer<UInt8>, pointers: inout PathPointerCache) -> JSONPatch? {
        guard let (patch, length) = readCheckedAsWritten(bytes, pointers: &pointers), length == bytes.count else { return nil }
        return patch
    }

    /// The patch at the start of `bytes` (a patch and the rest of its record),
    /// checked as the parser and `JSONPatch(jsonValue:)` check it: the patch and
    /// its length in bytes; nil for anything else.
    package static func readCheckedAsWritten(_ bytes: UnsafeBufferPointer<UInt8>, pointers: inout PathPointerCache) -> (patch: JSONPatch, length: Int)? {
        // Raw pointer reads and literals compared in place: this runs once per
        // entry of every scan, on about a hundred bytes, and the bounds checks
        // and `memcmp` calls of the plain way cost three times the reading.
        guard let base = bytes.baseAddress, !ReferenceReaders.current.contains(.patch) else { return nil }
        var cursor = AsWrittenCursor(base: base, count: bytes.count)
        guard cursor.expect("[") else { return nil }
        if cursor.expect("]") { return (JSONPatch([]), cursor.position) }
        // The storage of an earlier entry's operations when the scan handed it back, else a new array.
        var operations = pointers.takeSpareOperations()
        while true {
            guard cursor.expect("{\"op\":\""), let op = cursor.op(), cursor.expect(",\"path\":\""), let pathText = cursor.plain(),
                  let path = pointers.pointer(pathText, making: pointer) else { return nil }
            if op == UInt8(ascii: "-") {
                operations.append(.remove(path: path))
            } else {
                guard cursor.expect(",\"value\":"), let value = cursor.value() else { return nil }
                switch op {
                case UInt8(ascii: "r"): operations.append(.replace(path: path, value: value))
                case UInt8(ascii: "a"): operations.append(.add(path: path, value: value))
                default: operations.append(.test(path: path, value: value))
                }
            }
            guard cursor.expect("}") else { return nil }
            if cursor.expect("]") { return (JSONPatch(operations), cursor.position) }
            guard cursor.expect(",") else { return nil }
        }
    }

    /// Reads a patch as a recorder writes it. A struct, not local functions:
    /// those capture the position in a box, checked at run time once they are not inlined.
    private struct AsWrittenCursor {
        let base: UnsafePointer<UInt8>
        let count: Int
        var position = 0

        init(base: UnsafePointer<UInt8>, count: Int) {
            self.base = base
            self.count = count
        }

        /// Passes `text` if the bytes at the position are it. Compared in place, not
        /// with `memcmp`: these literals are a few bytes, one after another, and the
        /// calls cost more than the compares.
        @inline(__always) mutating func expect(_ text: StaticString) -> Bool {
            let length = text.utf8CodeUnitCount
            guard position + length <= count else { return false }
            let literal = text.utf8Start
            for offset in 0..<length where base[position + offset] != literal[offset] { return false }
            position += length
            return true
        }

        /// The bytes up to the next quote, which it passes (a plain string's inside;
        /// nil at a backslash, a control character or invalid UTF-8).
        @inline(__always) mutating func plain() -> UnsafeBufferPointer<UInt8>? {
            let run = rewind_json_plain_run(base + position, count - position)
            let end = position + run.plain
            guard end < count, base[end] == UInt8(ascii: "\"") else { return nil }
            let text = UnsafeBufferPointer(start: base + position, count: run.plain)
            if run.hasHighByte, !rewind_json_valid_utf8(text.baseAddress!, text.count) { return nil }
            position = end + 1
            return text
        }

        /// The operation's name and its closing quote: one of the four a recorder
        /// writes with a value or none (anything else goes to the reference).
        @inline(__always) mutating func op() -> UInt8? {
            guard position < count else { return nil }
            switch base[position] {
            case UInt8(ascii: "r"):
                if expect("replace\"") { return UInt8(ascii: "r") }
                return expect("remove\"") ? UInt8(ascii: "-") : nil
            case UInt8(ascii: "a"): return expect("add\"") ? UInt8(ascii: "a") : nil
            case UInt8(ascii: "t"): return expect("test\"") ? UInt8(ascii: "t") : nil
            default: return nil
            }
        }

        /// An operation's value, checked (the checked skim, two containers deep: the
        /// patch and the operation): a scalar read from its bytes, anything else parsed.
        @inline(__always) mutating func value() -> JSONValue? {
            let end = rewind_json_skip_checked(base, count, position, 2, nil)
            guard end >= 0 else { return nil }
            let bytes = UnsafeBufferPointer(start: base + position, count: end - position)
            position = end
            return JSONSkimmer.checkedScalar(bytes) ?? (try? JSONParser.parse(buffer: bytes))
        }
    }

    /// The pointer of a path's text, checked as `JSONPointer(parsing:)` checks it (valid UTF-8: `plain()` checked).
    private static func pointer(_ text: UnsafeBufferPointer<UInt8>) -> JSONPointer? {
        JSONPointer(validUTF8: text)
    }
}

/// The pointers of the paths a state scan has read (and its last action type), by their bytes: a log's
/// patches name the same few hundred paths again and again, and splitting
/// each into tokens (an array and its strings) every time would cost a tenth of a scan's time.
///
/// A table of two-way sets indexed by a hash of the bytes (no `Dictionary`:
/// its seeded hashing cost more than the rest of a hit). It starts small, for
/// the inspector's scans of a screenful, and grows to ``capacity`` slots; a
/// path that meets a full set takes the place of the older of its two.
package struct PathPointerCache {
    private struct Slot {
        var hash: UInt64
        var bytes: [UInt8]
        var pointer: JSONPointer
    }
    private var slots: [Slot?] = []
    /// The object shapes of the keyframes parsed so far: the next one is mostly the same objects.
    package var objectShapes = JSONParser.ShapeMemory()
    /// The last action type read, by its bytes: a scan meets the same few
    /// types in runs, and making the `String` again would cost a fiftieth of a scan.
    private var lastActionType: (bytes: [UInt8], text: String)?
    /// Paths made since the table last grew.
    private var madeSinceGrowth = 0
    /// An emptied operations array whose storage the next patch read reuses: one
    /// allocation per scan instead of one per entry.
    private var spareOperations: [JSONPatchOperation] = []
    /// Slots at most, so memory stays bounded on a log of ever new paths.
    package static let capacity = 4096
    private static let initialSlots = 64

    package init() {}

    /// The pointer for `text`, made with `make` the first time (nil results are not kept).
    package mutating func pointer(_ text: UnsafeBufferPointer<UInt8>,
                          making make: (UnsafeBufferPointer<UInt8>) -> JSONPointer?) -> JSONPointer? {
        let hash = Self.hash(text)
        if slots.isEmpty { slots = Array(repeating: nil, count: Self.initialSlots) }
        let set = Int(truncatingIfNeeded: hash >> 32) & (slots.count - 2)
        for way in set..<(set + 2) {
            if let slot = slots[way], slot.hash == hash, slot.bytes.count == text.count,
               text.count == 0 || slot.bytes.withUnsafeBufferPointer({ memcmp($0.baseAddress!, text.baseAddress!, text.count) == 0 }) {
                return slot.pointer
            }
        }
        guard let pointer = make(text) else { return nil }
        madeSinceGrowth += 1
        if madeSinceGrowth > slots.count / 2, slots.count < Self.capacity {
            // Many paths: a bigger table, filled again as they come back.
            slots = Array(repeating: nil, count: slots.count * 4)
            madeSinceGrowth = 0
            return pointer
        }
        // The newer path first; the one it displaces (if any) moves to the second way.
        slots[set + 1] = slots[set]
        slots[set] = Slot(hash: hash, bytes: Array(text), pointer: pointer)
        return pointer
    }

    /// An empty operations array, with the storage of one handed back by ``keepSpare(_:)`` when there is one.
    package mutating func takeSpareOperations() -> [JSONPatchOperation] {
        guard spareOperations.capacity > 0 else {
            var operations: [JSONPatchOperation] = []
            operations.reserveCapacity(4)
            return operations
        }
        let operations = spareOperations
        spareOperations = []
        return operations
    }

    /// Keeps the storage of `operations` (a patch read and done with) for the next patch read.
    package mutating func keepSpare(_ operations: consuming [JSONPatchOperation]) {
        var operations = operations
        guard operations.capacity <= 64 else { return }
        // Emptied in place when this is the last reference (a scan that kept the patch keeps its own).
        operations.removeAll(keepingCapacity: true)
        spareOperations = operations
    }

    /// The action type whose UTF-8 bytes are `bytes` (valid UTF-8: the skim checked them).
    package mutating func actionType(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        if let last = lastActionType, last.bytes.count == bytes.count,
           bytes.isEmpty || last.bytes.withUnsafeBufferPointer({ memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }) {
            return last.text
        }
        let text = String(decoding: bytes, as: UTF8.self)
        lastActionType = (Array(bytes), text)
        return text
    }

    /// Eight bytes at a time, each word multiplied in and folded down, then
    /// MurmurHash3's finalizer: paths that differ in one byte anywhere land in different sets.
    private static func hash(_ text: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(text.count)
        guard let base = text.baseAddress else { return hash }
        let raw = UnsafeRawPointer(base)
        var offset = 0
        while offset + 8 <= text.count {
            hash = (hash ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0x9E37_79B9_7F4A_7C15
            hash ^= hash >> 32
            offset += 8
        }
        // The last bytes as one load, overlapping the words before (the length is
        // in the seed, so no two lengths collide this way); a byte loop was a third of the hash.
        var tail: UInt64 = 0
        if offset < text.count {
            if text.count >= 8 {
                tail = raw.loadUnaligned(fromByteOffset: text.count - 8, as: UInt64.self)
            } else if text.count >= 4 {
                tail = UInt64(raw.loadUnaligned(fromByteOffset: 0, as: UInt32.self)) << 32
                    | UInt64(raw.loadUnaligned(fromByteOffset: text.count - 4, as: UInt32.self))
            } else {
                for index in 0..<text.count { tail = tail << 8 | UInt64(base[index]) }
            }
        }
        hash = (hash ^ tail) &* 0x9E37_79B9_7F4A_7C15
        hash ^= hash >> 33
        hash = hash &* 0xFF51_AFD7_ED55_8CCD
        hash ^= hash >> 33
        hash = hash &* 0xC4CE_B9FE_1A85_EC53
        return hash ^ (hash >> 33)
    }
}
