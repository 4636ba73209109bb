import Foundation

/// Finds the top-level members of a record without building their values, so
/// listing a keyframe entry never parses its (possibly megabyte) state.
enum RecordScanner {
    struct Member {
        /// The member's field; nil for keys this version does not know (or escaped ones).
        var field: RecordField?
        var value: Range<Int>
    }

    /// The members of the JSON object in `bytes`, or nil when it is not one.
    /// Only delimits values; ``JSONParser`` validates the ones that are read.
    ///
    /// With `stop`, the scan ends at the first member of that field, whose value
    /// is then only started: its range runs to the end of `bytes`.
    static func members(_ bytes: UnsafeBufferPointer<UInt8>, stoppingAt stop: RecordField? = nil) -> [Member]? {
        var position = skipSpace(bytes, 0)
        guard position < bytes.count, bytes[position] == UInt8(ascii: "{") else { return nil }
        position = skipSpace(bytes, position + 1)
        var members: [Member] = []
        members.reserveCapacity(10)   // an entry has about eight
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") { return members }
        while position < bytes.count {
            guard bytes[position] == UInt8(ascii: "\""), let keyEnd = skipString(bytes, position) else { return nil }
            let field = RecordField(key: UnsafeBufferPointer(rebasing: bytes[(position + 1)..<(keyEnd - 1)]))
            position = skipSpace(bytes, keyEnd)
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { return nil }
            let valueStart = skipSpace(bytes, position + 1)
            if let stop, field == stop {
                members.append(Member(field: field, value: valueStart..<bytes.count))
                return members
            }
            guard let valueEnd = skipValue(bytes, valueStart) else { return nil }
            members.append(Member(field: field, value: valueStart..<valueEnd))
            position = skipSpace(bytes, valueEnd)
            guard position < bytes.count else { return nil }
            if bytes[position] == UInt8(ascii: "}") { return members }
            guard bytes[position] == UInt8(ascii: ",") else { return nil }
            position = skipSpace(bytes, position + 1)
        }
        return nil
    }

    private static func skipSpace(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int) -> Int {
        var position = start
        while position < bytes.count, bytes[position] == 0x20 || bytes[position] == 0x09 || bytes[position] == 0x0A || bytes[position] == 0x0D {
            position += 1
        }
        return position
    }

    /// `start` is at an opening quote; returns the index after the closing one.
    /// The closing quote is the first one not escaped, found with `memchr`
    /// (the fast path of scans over every record).
    private static func skipString(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int) -> Int? {
        let base = bytes.baseAddress!
        var position = start + 1
        while position < bytes.count {
            guard let found = memchr(base + position, 0x22, bytes.count - position) else { return nil }
            let quote = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            // Escaped when an odd number of backslashes precede it.
            var backslashes = 0
            while quote - 1 - backslashes > start, bytes[quote - 1 - backslashes] == UInt8(ascii: "\\") { backslashes += 1 }
            if backslashes % 2 == 0 { return quote + 1 }
            position = quote + 1
        }
        return nil
    }

    /// Where the value starting at `start` ends, found without checking it.
    static func valueEnd(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int) -> Int? { skipValue(bytes, start) }

    private static func skipValue(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int) -> Int? {
        guard start < bytes.count else { return nil }
        switch bytes[start] {
        case UInt8(ascii: "\""):
            return skipString(bytes, start)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var position = start
            while position < bytes.count {
                switch bytes[position] {
                case UInt8(ascii: "\""):
                    guard let end = skipString(bytes, position) else { return nil }
                    position = end
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return position + 1 }
                default:
                    break
                }
                position += 1
            }
            return nil
        default:
            var position = start
            while position < bytes.count {
                switch bytes[position] {
                case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D: return position
                default: position += 1
                }
            }
            return position
        }
    }
}
