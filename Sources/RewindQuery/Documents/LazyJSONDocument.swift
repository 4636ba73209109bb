import Foundation
internal import CQueryScan
import RewindJSON

/// A JSON document kept as its bytes, checked once, whose values are parsed
/// only when a path asks for them: a keyframe's state in a path scan
/// (`rewind find '/counter == 7'`), where the patches after it look up a few
/// paths and the rest of the tree is never needed. Building the whole tree,
/// then freeing it at the next keyframe, was a sixth of such a scan.
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
    /// Every value of the document in order, each container before what it holds.
    private let tape: [TapeEntry]
    private var parsedWhole: JSONValue?

    /// A value's place in `bytes`, and in the tape: what a look-up walks
    /// instead of the bytes (an array's 23rd element is 23 hops away).
    /// Laid out as C's `rewind_json_tape_entry`, which writes plain documents' tapes.
    struct TapeEntry: Equatable {
        /// Where the value starts and ends in `bytes`.
        var start: Int32
        var end: Int32
        /// The tape position after the value and everything in it (its next sibling's).
        var next: Int32
        /// A member's key (between its quotes, escapes not undone); -1: an element or the document.
        var keyStart: Int32
        /// The key's length in bytes; negative (`~length`) when it has escapes.
        var keyLength: Int32
    }

    private init(bytes: [UInt8], tape: [TapeEntry]) {
        self.bytes = bytes
        self.tape = tape
    }

    /// The document in `bytes` (one JSON value) when ``JSONParser`` accepts
    /// it; nil when it does not. The bytes are copied.
    package static func read(_ bytes: UnsafeBufferPointer<UInt8>) -> Reading? {
        if bytes.count < Int32.max, let tape = TapeBuilder.tape(of: bytes) {
            return .lazy(LazyJSONDocument(bytes: Array(bytes), tape: tape))
        }
        // Invalid, or valid in a way the skimmer does not judge: the parser decides.
        return (try? JSONParser.parse(buffer: bytes)).map { .parsed($0) }
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
    private static func child(of position: Int, _ token: String, _ bytes: UnsafeBufferPointer<UInt8>, _ tape: UnsafeBufferPointer<TapeEntry>) -> Int? {
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
                    if member.keyLength == Int32(key.count) {
                        if key.isEmpty || memcmp(bytes.baseAddress! + Int(member.keyStart), key.baseAddress!, key.count) == 0 { found = child }
                    } else if member.keyLength < 0, isEscapedKey(member, key, bytes) {
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
    private static func isEscapedKey(_ entry: TapeEntry, _ key: UnsafeBufferPointer<UInt8>, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let quoted = Int(entry.keyStart - 1)..<Int(entry.keyStart + ~entry.keyLength + 1)
        guard case .string(let text)? = try? JSONParser.parse(buffer: UnsafeBufferPointer(rebasing: bytes[quoted])) else { return false }
        return text.utf8.elementsEqual(key)
    }

    /// The value at `entry`, parsed (scalars the skimmer checked without the parser).
    private static func parse(_ entry: TapeEntry, _ bytes: UnsafeBufferPointer<UInt8>) -> JSONValue? {
        let value = UnsafeBufferPointer(rebasing: bytes[Int(entry.start)..<Int(entry.end)])
        return JSONSkimmer.checkedScalar(value) ?? (try? JSONParser.parse(buffer: value))
    }

    /// Checks a document with the skimmer's checks while writing its tape.
    /// (Internal, not private: tests hold the C tape to this one.)
    struct TapeBuilder {
        var skimmer: JSONSkimmer
        var tape: [TapeEntry] = []
        /// Tape positions of the containers not yet closed, innermost last.
        var open: [Int] = []
        /// The key of the member whose value comes next.
        var keyStart: Int32 = -1, keyLength: Int32 = 0

        /// The tape of `bytes` when the skimmer's checks accept them (so the
        /// parser does); nil for anything else, which the parser then judges.
        /// Plain documents (ASCII strings without escapes, integers) are left to
        /// C (`rewind_json_plain_tape`); the rest is checked here.
        static func tape(of bytes: UnsafeBufferPointer<UInt8>, plainInC: Bool = true) -> [TapeEntry]? {
            if plainInC, let plain = plainTape(of: bytes) { return plain }
            var builder = TapeBuilder(skimmer: JSONSkimmer(bytes))
            builder.skimmer.tracksCompactness = false
            builder.tape.reserveCapacity(bytes.count / 16 + 4)
            guard builder.build() else { return nil }
            return builder.tape
        }

        /// The tape `rewind_json_plain_tape` writes; nil when it does not judge the bytes.
        private static func plainTape(of bytes: UnsafeBufferPointer<UInt8>) -> [TapeEntry]? {
            // Room for one value per eight bytes first (a state's are longer), then for the most there can be.
            var capacity = bytes.count / 8 + 16
            while true {
                var written = 0
                let tape = [TapeEntry](unsafeUninitializedCapacity: capacity) { entries, initialized in
                    written = entries.baseAddress!.withMemoryRebound(to: rewind_json_tape_entry.self, capacity: capacity) {
                        rewind_json_plain_tape(bytes.baseAddress, bytes.count, $0, capacity, Int32(JSONSkimmer.maximumDepth))
                    }
                    initialized = max(0, written)
                }
                if written >= 0 { return tape }
                guard written == REWIND_JSON_TAPE_FULL, capacity < bytes.count / 2 + 2 else { return nil }
                capacity = bytes.count / 2 + 2
            }
        }

        private var bytes: UnsafeBufferPointer<UInt8> { skimmer.bytes }

        private mutating func build() -> Bool {
            skimmer.skipSpace()
            while true {
                // A value (a member's, when a key was just read).
                let start = skimmer.position
                guard start < bytes.count else { return false }
                let opening = bytes[start]
                let entry = TapeEntry(start: Int32(start), end: 0, next: 0, keyStart: keyStart, keyLength: keyLength)
                (keyStart, keyLength) = (-1, 0)
                if opening == UInt8(ascii: "{") || opening == UInt8(ascii: "[") {
                    guard open.count < JSONSkimmer.maximumDepth else { return false }
                    open.append(tape.count)
                    tape.append(entry)
                    skimmer.position += 1
                    skipSpace()
                    guard skimmer.position < bytes.count else { return false }
                    if bytes[skimmer.position] != (opening == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                        if opening == UInt8(ascii: "{") { guard readKey() else { return false } }
                        continue   // to its first member or element
                    }
                    skimmer.position += 1
                    guard let more = close() else { return false }
                    if !more { return true }
                } else {
                    let passed = opening == UInt8(ascii: "\"") ? passPlainString() || skimmer.skipString()
                        : passSmallInteger() || skimmer.skipValue(depth: open.count)
                    guard passed else { return false }
                    var scalar = entry
                    scalar.end = Int32(skimmer.position)
                    scalar.next = Int32(tape.count + 1)
                    tape.append(scalar)
                    // Alone: the document.
                    guard !open.isEmpty else {
                        skimmer.skipSpace()
                        return skimmer.position == bytes.count
                    }
                }
                guard passSeparator() else { return false }
                if open.isEmpty { return true }
            }
        }

        /// After a member or element: passes the `,` before the next (and its
        /// key), or closes the containers that end here. False for anything else,
        /// or bytes after the document.
        private mutating func passSeparator() -> Bool {
            while true {
                skipSpace()
                guard let container = open.last, skimmer.position < bytes.count else { return false }
                let isObject = bytes[Int(tape[container].start)] == UInt8(ascii: "{")
                let byte = bytes[skimmer.position]
                skimmer.position += 1
                if byte == UInt8(ascii: ",") {
                    skipSpace()
                    return !isObject || readKey()
                }
                guard byte == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")), let more = close() else { return false }
                if !more { return true }
            }
        }

        /// Closes the innermost container (its closing bracket passed): true
        /// when others are still open, false when it was the document, nil
        /// when bytes follow the document.
        private mutating func close() -> Bool? {
            let container = open.removeLast()
            tape[container].end = Int32(skimmer.position)
            tape[container].next = Int32(tape.count)
            guard open.isEmpty else { return true }
            skimmer.skipSpace()
            return skimmer.position == bytes.count ? false : nil
        }

        /// At a member's opening quote: its key, checked; then past the colon.
        private mutating func readKey() -> Bool {
            let quote = skimmer.position
            guard quote < bytes.count, bytes[quote] == UInt8(ascii: "\"") else { return false }
            let plain = passPlainString()
            guard plain || skimmer.skipString() else { return false }
            let length = skimmer.position - quote - 2
            let hasEscapes = !plain && length > 0 && memchr(bytes.baseAddress! + quote + 1, Int32(UInt8(ascii: "\\")), length) != nil
            keyStart = Int32(quote + 1)
            keyLength = hasEscapes ? ~Int32(length) : Int32(length)
            skipSpace()
            guard skimmer.position < bytes.count, bytes[skimmer.position] == UInt8(ascii: ":") else { return false }
            skimmer.position += 1
            skipSpace()
            return true
        }

        // The short keys and values of a state, checked here without a call
        // each into the skimmer (which checks anything else): a state is mostly
        // those, and the calls cost more than the checks.

        /// At an opening quote: past the closing one when every byte between is
        /// printable ASCII other than a backslash; false (not moved) otherwise.
        @inline(__always)
        private mutating func passPlainString() -> Bool {
            let base = bytes.baseAddress!
            var index = skimmer.position + 1
            while index < bytes.count {
                let byte = base[index]
                if byte == UInt8(ascii: "\"") {
                    skimmer.position = index + 1
                    return true
                }
                if byte < 0x20 || byte >= 0x80 || byte == UInt8(ascii: "\\") { return false }
                index += 1
            }
            return false
        }

        /// Past an integer of at most 18 digits that ends where a value may end; false (not moved) otherwise.
        @inline(__always)
        private mutating func passSmallInteger() -> Bool {
            let base = bytes.baseAddress!
            var index = skimmer.position
            if index < bytes.count, base[index] == UInt8(ascii: "-") { index += 1 }
            let digits = index
            while index < bytes.count, base[index] >= 0x30 && base[index] <= 0x39 { index += 1 }
            guard index > digits, index - digits <= 18, index - digits == 1 || base[digits] != 0x30 else { return false }
            if index < bytes.count {
                switch base[index] {
                case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09: break
                default: return false
                }
            }
            skimmer.position = index
            return true
        }

        @inline(__always)
        private mutating func skipSpace() {
            if skimmer.position < bytes.count && bytes[skimmer.position] <= 0x20 { skimmer.skipSpace() }
        }
    }
}
