import Foundation
internal import CJSONScan
import RewindJSON

/// A JSON document kept as its bytes, checked once, whose values are parsed
/// only when a path asks for them: a keyframe's state in a path scan
/// (`rewind find '/counter == 7'`), where the patches after it look up a few
/// paths and the rest of the tree is never needed. Building the whole tree,
/// then freeing it at the next keyframe, would be a sixth of such a scan.
///
/// Checking the bytes writes a *tape*: per value, where it starts and ends,
/// where the value after it (and all it holds) is, and a member's key; so a
/// look-up hops from sibling to sibling instead of reading bytes. Look-ups
/// give exactly what `JSONValue[pointer:]` gives on the parsed document: keys
/// compared by their scalars, the last of repeated keys winning, array indices
/// as JSON Pointer reads them.
///
/// ```swift
/// let state = Array(#"{"n":1,"items":[{"v":2}]}"#.utf8)
/// if case .lazy(let document)? = state.withUnsafeBufferPointer(LazyJSONDocument.read) {
///     document.value(atTokens: ["items", "0", "v"])   // 2
///     document.value(atTokens: ["missing"])           // nil
/// }
/// ```
package final class LazyJSONDocument {
    /// What ``read(_:)`` made of some bytes.
    package enum Reading {
        /// Checked by the skimmer: kept as bytes.
        case lazy(LazyJSONDocument)
        /// Valid, but in ways the skimmer leaves to the parser (long numbers, deep nesting): parsed.
        case parsed(JSONValue)
    }

    private let bytes: [UInt8]
    /// Every value of the document in order, each container before what it holds:
    /// where it starts and ends in `bytes`, the tape position after it and all it
    /// holds (its next sibling's), and a member's key (`key_length` negative,
    /// `~length`, when the key has escapes). What a look-up walks instead of the
    /// bytes: an array's 23rd element is 23 hops away.
    private let tape: [rewind_json_tape_entry]
    private var parsedWhole: JSONValue?

    private init(bytes: [UInt8], tape: [rewind_json_tape_entry]) {
        self.bytes = bytes
        self.tape = tape
    }

    /// The document in `bytes` (one JSON value) when ``JSONParser`` accepts
    /// it; nil when it does not. The bytes are copied.
    ///
    /// The tape is the fast path (`rewind_json_tape`, the checked skim writing
    /// where every value is); the reference is the parser, which reads what the
    /// tape does not judge (long numbers, deep nesting) and everything with
    /// `REWIND_REFERENCE_READERS=tape`.
    package static func read(_ bytes: UnsafeBufferPointer<UInt8>) -> Reading? {
        if !ReferenceReaders.current.contains(.tape), let tape = tape(of: bytes) {
            return .lazy(LazyJSONDocument(bytes: Array(bytes), tape: tape))
        }
        return (try? JSONParser.parse(buffer: bytes)).map { .parsed($0) }
    }

    /// The tape `rewind_json_tape` writes for `bytes`; nil when it does not judge them.
    static func tape(of bytes: UnsafeBufferPointer<UInt8>) -> [rewind_json_tape_entry]? {
        guard let base = bytes.baseAddress else { return nil }
        // Room for one value per eight bytes first (a state's are longer), then for the most there can be.
        var capacity = bytes.count / 8 + 16
        while true {
            var written = 0
            let tape = [rewind_json_tape_entry](unsafeUninitializedCapacity: capacity) { entries, initialized in
                written = rewind_json_tape(base, bytes.count, entries.baseAddress, capacity)
                initialized = max(0, written)
            }
            if written >= 0 { return tape }
            guard written == REWIND_JSON_TAPE_FULL, capacity < bytes.count / 2 + 2 else { return nil }
            capacity = bytes.count / 2 + 2
        }
    }

    /// The value at the path of `tokens` (a JSON Pointer's, unescaped); nil when there is none.
    package func value(atTokens tokens: some Sequence<String>) -> JSONValue? {
        bytes.withUnsafeBufferPointer { bytes in
            tape.withUnsafeBufferPointer { tape in
                var position = 0
                for token in tokens {
                    guard let child = Self.child(of: position, token, bytes, tape) else { return nil }
                    position = child
                }
                return Self.parse(tape[position], bytes)
            }
        }
    }

    /// The whole document, parsed (once).
    package var whole: JSONValue? {
        if let parsedWhole { return parsedWhole }
        parsedWhole = bytes.withUnsafeBufferPointer { try? JSONParser.parse(buffer: $0) }
        return parsedWhole
    }

    /// The tape position of the value under `token` in the container at `position`; nil when there is none.
    private static func child(of position: Int, _ token: String, _ bytes: UnsafeBufferPointer<UInt8>, _ tape: UnsafeBufferPointer<rewind_json_tape_entry>) -> Int? {
        let container = tape[position], end = Int(container.next)
        var child = position + 1
        switch bytes[Int(container.start)] {
        case UInt8(ascii: "["):
            guard let index = JSONPointer.arrayIndex(token) else { return nil }
            var passed = 0
            while child < end && passed < index {
                child = Int(tape[child].next)
                passed += 1
            }
            return child < end ? child : nil
        case UInt8(ascii: "{"):
            func find(_ key: UnsafeBufferPointer<UInt8>) -> Int? {
                // The last of repeated keys wins, as in the parsed object.
                var found: Int?
                while child < end {
                    let member = tape[child]
                    if member.key_length == Int32(key.count) {
                        if key.isEmpty || memcmp(bytes.baseAddress! + Int(member.key_start), key.baseAddress!, key.count) == 0 { found = child }
                    } else if member.key_length < 0, isEscapedKey(member, key, bytes) {
                        found = child
                    }
                    child = Int(member.next)
                }
                return found
            }
            return token.utf8.withContiguousStorageIfAvailable(find) ?? Array(token.utf8).withUnsafeBufferPointer(find)
        default:
            return nil
        }
    }

    /// Whether the member at `entry`, whose key has escapes, has the key whose UTF-8 is `key` (the same scalars).
    private static func isEscapedKey(_ entry: rewind_json_tape_entry, _ key: UnsafeBufferPointer<UInt8>, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let quoted = Int(entry.key_start - 1)..<Int(entry.key_start + ~entry.key_length + 1)
        guard case .string(let text)? = try? JSONParser.parse(buffer: UnsafeBufferPointer(rebasing: bytes[quoted])) else { return false }
        return text.utf8.elementsEqual(key)
    }

    /// The value at `entry`, parsed (scalars the skimmer checked without the parser).
    private static func parse(_ entry: rewind_json_tape_entry, _ bytes: UnsafeBufferPointer<UInt8>) -> JSONValue? {
        let value = UnsafeBufferPointer(rebasing: bytes[Int(entry.start)..<Int(entry.end)])
        return JSONSkimmer.checkedScalar(value) ?? (try? JSONParser.parse(buffer: value))
    }
}
