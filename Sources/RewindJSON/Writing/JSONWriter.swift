/// Writes ``JSONValue`` documents as UTF-8 JSON text.
///
/// ```swift
/// let bytes = JSONWriter.compact(["a": 1])          // {"a":1}
/// let text = JSONWriter.prettyString(["a": [1, 2]])  // two-space indented
/// ```
///
/// Floating-point numbers are written with the shortest text that parses
/// back to the same `Double` (whole numbers below 10^15 without ".0").
/// JSON has no NaN or infinity, so those are written as the strings `"NaN"`,
/// `"Infinity"` and `"-Infinity"` (see docs/JSON.md). A ``JSONNumber`` is
/// written as its text, so every number reads back with the same value.
public enum JSONWriter {
    /// Compact JSON (no spaces or newlines), as recorded in logs.
    public static func compact(_ value: JSONValue) -> [UInt8] {
        let buffer = _ByteBuffer()
        write(value, to: buffer)
        return buffer.bytes
    }

    /// Compact JSON as a `String`: `JSONWriter.compactString(["a": 1])` is `{"a":1}`.
    public static func compactString(_ value: JSONValue) -> String {
        let buffer = _ByteBuffer()
        write(value, to: buffer)
        return String(decoding: UnsafeBufferPointer(start: buffer.base, count: buffer.count), as: UTF8.self)
    }

    /// Indented JSON with two spaces per level and `"key": value` members, for people.
    public static func prettyString(_ value: JSONValue) -> String {
        var writer = _PrettyWriter(pieceBytes: .max)
        writer.write(value, indent: 0) { _, _ in true }
        let buffer = writer.output
        return String(decoding: UnsafeBufferPointer(start: buffer.base, count: buffer.count), as: UTF8.self)
    }

    /// Writes `value` as ``prettyString(_:)`` does, handing the text over in pieces: to `piece`
    /// whenever about `pieceBytes` are written, and the rest at the end, each with how far
    /// through the value the writing is (``NestedProgress``). A piece ends where an element
    /// ends, never inside a character. `piece` returns false to stop the writing; the result
    /// says whether it went to the end. For a value whose text is too big to hold (the
    /// inspector's `e` writes a 30 MB state to a file a piece at a time).
    package static func writePretty(_ value: JSONValue, pieceBytes: Int,
                                    _ piece: (UnsafeBufferPointer<UInt8>, _ fraction: Double) -> Bool) -> Bool {
        var writer = _PrettyWriter(pieceBytes: pieceBytes)
        writer.write(value, indent: 0, piece)
        if !writer.stopped { writer.handOver(fraction: 1, piece) }
        return !writer.stopped
    }

    package static func appendCompact(_ value: JSONValue, to output: inout [UInt8]) {
        appending(to: &output) { write(value, to: $0) }
    }

    package static func appendInteger<T: BinaryInteger>(_ number: T, to output: inout [UInt8]) {
        if let exact = Int64(exactly: number) {
            appending(to: &output) { writeInt64(exact, to: $0) }
        } else {
            output.append(contentsOf: String(number).utf8)
        }
    }

    package static func appendString(_ string: String, to output: inout [UInt8]) {
        appending(to: &output) { writeString(string, to: $0) }
    }

    private static func appending(to output: inout [UInt8], _ body: (_ByteBuffer) -> Void) {
        let buffer = _ByteBuffer(capacity: 64)
        body(buffer)
        output.append(contentsOf: UnsafeBufferPointer(start: buffer.base, count: buffer.count))
    }

    // MARK: Writing into a byte buffer

    package static func write(_ value: JSONValue, to output: _ByteBuffer) {
        switch value {
        case .null: output.append("null")
        case .bool(let flag): writeBool(flag, to: output)
        case .integer(let number): writeInt64(number, to: output)
        case .double(let number): writeDouble(number, to: output)
        case .number(let number): writeASCII(number.text, to: output)
        case .string(let string): writeString(string, to: output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for index in elements.indices {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                write(elements[index], to: output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let object):
            output.append(UInt8(ascii: "{"))
            let keys = object.keys
            let values = object.values
            for index in keys.indices {
                writeMemberKey(keys[index], afterComma: index > 0, to: output)
                write(values[index], to: output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    @inline(__always)
    static func writeBool(_ flag: Bool, to output: _ByteBuffer) {
        if flag { output.append("true") } else { output.append("false") }
    }

    @inline(__always)
    package static func writeInt64(_ number: Int64, to output: _ByteBuffer) {
        if number < 0 { output.append(UInt8(ascii: "-")) }
        writeUInt64(number.magnitude, to: output)
    }

    /// "00" to "99": writing two digits per division halves the divisions.
    private static let digitPairs: StaticString = """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """

    /// Digits written back to front straight into the buffer, two at a time.
    @inline(__always)
    package static func writeUInt64(_ number: UInt64, to output: _ByteBuffer) {
        if number < 10 {
            output.append(UInt8(truncatingIfNeeded: number) &+ 0x30)
            return
        }
        var digits = 2
        var bound: UInt64 = 100
        while digits < 20 && number >= bound {
            digits += 1
            bound &*= 10
        }
        output.reserve(digits)
        var cursor = UnsafeMutableRawPointer(output.base + output.count + digits)
        var remaining = number
        while remaining >= 100 {
            let (quotient, pair) = remaining.quotientAndRemainder(dividingBy: 100)
            cursor -= 2
            cursor.storeBytes(of: digitPair(pair), as: UInt16.self)
            remaining = quotient
        }
        if remaining >= 10 {
            (cursor - 2).storeBytes(of: digitPair(remaining), as: UInt16.self)
        } else {
            (cursor - 1).storeBytes(of: UInt8(truncatingIfNeeded: remaining) &+ 0x30, as: UInt8.self)
        }
        output.didWrite(digits)
    }

    /// The two ASCII digits of `value` (below 100), in memory order.
    @inline(__always)
    private static func digitPair(_ value: UInt64) -> UInt16 {
        UnsafeRawPointer(digitPairs.utf8Start + Int(value) * 2).loadUnaligned(as: UInt16.self)
    }

    package static func writeDouble(_ number: Double, to output: _ByteBuffer) {
        guard number.isFinite else {
            writeNonFinite(isNaN: number.isNaN, isNegative: number < 0, to: output)
            return
        }
        // Whole numbers print without ".0" so 3.0 reads as 3, like JSONEncoder.
        if number.rounded(.towardZero) == number && number.magnitude < 1e15 {
            if number == 0 && number.sign == .minus { output.append(UInt8(ascii: "-")) }
            writeInt64(Int64(number), to: output)
            return
        }
        if writeShortDecimal(number, to: output) { return }
        // Swift's description is the shortest round-tripping text; it is valid JSON
        // for finite values ("1e-05", "1.5", "1.2345e+20").
        writeASCII(number.description, to: output)
    }

    /// Writes the same text as `description` for the common case of a
    /// non-whole number with few digits (0.25, 13.5, 1234.56) without building
    /// a String; returns false, writing nothing, for anything else.
    ///
    /// Why the text is the shortest that round-trips, as `description`'s is:
    /// with k fraction digits the only candidate is m = round(x·10^k), and
    /// m / 10^k == x (one correctly rounded division of two exact values) is
    /// exactly "the text parses back to x". Trying k = 1, 2, … finds the fewest
    /// digits. Staying below 15 significant digits (m < 10^15) keeps it exact:
    /// the error in x·10^k is then far below ½, so rounding cannot miss a
    /// candidate, and distinct decimals of ≤ 15 digits are distinct doubles, so
    /// there is no closer candidate of the same length to prefer. [10^-4, 10^15)
    /// is where `description` uses plain decimal notation.
    private static func writeShortDecimal(_ number: Double, to output: _ByteBuffer) -> Bool {
        let magnitude = number.magnitude
        guard magnitude >= 1e-4 && magnitude < 1e15 else { return false }
        var scale = 1.0
        // Ends by k = 19 at the latest: magnitude · 10^19 ≥ 10^15.
        for _ in 1...19 {
            scale *= 10  // exact: powers of ten up to 10^22 are doubles
            let product = magnitude * scale
            if product >= 1e15 { return false }
            // Rounds to the nearest integer (0 ≤ product < 2^52) without a call to libm's round.
            let scaled = (product + 0x1p52) - 0x1p52
            guard scaled / scale == magnitude else { continue }
            let units = UInt64(scaled), divisor = UInt64(scale)
            if number < 0 { output.append(UInt8(ascii: "-")) }
            writeUInt64(units / divisor, to: output)
            // The fraction with its leading zeros: 10^k + fraction, its leading 1 overwritten by '.'.
            let point = output.count
            writeUInt64(divisor + units % divisor, to: output)
            output.base[point] = UInt8(ascii: ".")
            return true
        }
        return false
    }

    /// A `Float` by its own shortest text, so `Float(0.1)` reads "0.1".
    /// A `Float` written as the `Double` with its shortest text is (3.0 as `3`, 1e7 as
    /// `10000000`, 0.1 as `0.1`): the tree encoder's value, whichever encoder wrote it.
    static func writeFloat(_ number: Float, to output: _ByteBuffer) {
        // Whole floats below 2²⁴ are exact doubles with the same text: no detour through it.
        if number.rounded(.towardZero) == number && number.magnitude < 16_777_216 {
            writeDouble(Double(number), to: output)
            return
        }
        writeDouble(_SpecialEncodable.double(of: number), to: output)
    }

    /// Any integer, every digit (`Int128`, `UInt128`).
    static func writeInteger<T: BinaryInteger>(_ number: T, to output: _ByteBuffer) {
        if let small = Int64(exactly: number) {
            writeInt64(small, to: output)
        } else {
            writeASCII(String(number), to: output)
        }
    }

    private static func writeASCII(_ text: String, to output: _ByteBuffer) {
        var text = text
        text.withUTF8 { output.append($0) }
    }

    /// JSON has no NaN or infinity: they become strings, the names
    /// `JSONDecoder`'s `.convertFromString(positiveInfinity: "Infinity",
    /// negativeInfinity: "-Infinity", nan: "NaN")` strategy reads back.
    private static func writeNonFinite(isNaN: Bool, isNegative: Bool, to output: _ByteBuffer) {
        if isNaN {
            output.append(#""NaN""#)
        } else if isNegative {
            output.append(#""-Infinity""#)
        } else {
            output.append(#""Infinity""#)
        }
    }

    private static let hexDigits: StaticString = "0123456789abcdef"

    @inline(__always)
    package static func writeString(_ string: String, to output: _ByteBuffer) {
        writeQuoted(string, afterComma: false, colon: false, to: output)
    }

    /// An object member's `"key":`, after a comma unless it is the first member.
    @inline(__always)
    package static func writeMemberKey(_ key: String, afterComma: Bool, to output: _ByteBuffer) {
        writeQuoted(key, afterComma: afterComma, colon: true, to: output)
    }

    @inline(__always)
    private static func writeQuoted(_ string: String, afterComma: Bool, colon: Bool, to output: _ByteBuffer) {
        // Reading the UTF-8 in place avoids the copy (and retain) `withUTF8` needs.
        if string.utf8.withContiguousStorageIfAvailable({ writeQuoted(utf8: $0, afterComma: afterComma, colon: colon, to: output) }) != nil { return }
        var string = string
        string.withUTF8 { writeQuoted(utf8: $0, afterComma: afterComma, colon: colon, to: output) }
    }

    package static func writeString(utf8 bytes: UnsafeBufferPointer<UInt8>, to output: _ByteBuffer) {
        writeQuoted(utf8: bytes, afterComma: false, colon: false, to: output)
    }

    /// Writes `bytes` as a JSON string, optionally with a comma before and a
    /// colon after, under one capacity check. Most strings need no escaping:
    /// those are checked and copied in the same pass, a word at a time.
    private static func writeQuoted(utf8 bytes: UnsafeBufferPointer<UInt8>, afterComma: Bool, colon: Bool, to output: _ByteBuffer) {
        let count = bytes.count
        output.reserve(count + 4)
        let start = output.base + output.count
        let comma = afterComma ? 1 : 0
        let plain = bytes.baseAddress.map { copyPlainPrefix($0, count: count, to: start + comma + 1) } ?? 0
        // Unconditional stores: without a comma the quote overwrites start[0];
        // without a colon it lies past what is committed.
        start[0] = UInt8(ascii: ",")
        start[comma] = UInt8(ascii: "\"")
        guard plain == count else {
            // The comma, the quote and the plain prefix are in place: escape the rest.
            output.didWrite(comma + 1 + plain)
            writeEscaping(bytes, from: plain, to: output)
            if colon { output.append(UInt8(ascii: ":")) }
            return
        }
        start[comma + count + 1] = UInt8(ascii: "\"")
        start[comma + count + 2] = UInt8(ascii: ":")
        output.didWrite(comma + count + 2 + (colon ? 1 : 0))
    }

    /// Copies `count` bytes to `target` (reserved) as long as none needs
    /// escaping, checking eight at a time: whole words, then one word
    /// overlapping the end; under eight bytes, one word assembled from
    /// overlapping loads. Returns how many leading bytes are plain and copied:
    /// `count` when all are (under eight bytes, 0 unless all are).
    @inline(__always)
    private static func copyPlainPrefix(_ source: UnsafePointer<UInt8>, count: Int, to target: UnsafeMutablePointer<UInt8>) -> Int {
        let from = UnsafeRawPointer(source), to = UnsafeMutableRawPointer(target)
        if count >= 8 {
            var offset = 0
            while true {
                // The last word overlaps bytes already checked, which are plain.
                if offset + 8 > count { offset = count - 8 }
                let word = from.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                to.storeBytes(of: word, toByteOffset: offset, as: UInt64.self)
                let mask = ByteWords.quoteBackslashOrControlMask(UInt64(littleEndian: word))
                // The lowest flagged byte is always a real match.
                if mask != 0 { return offset + mask.trailingZeroBitCount / 8 }
                if offset + 8 == count { return count }
                offset += 8
            }
        }
        if count >= 4 {
            let low = from.loadUnaligned(as: UInt32.self)
            let high = from.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
            if ByteWords.hasQuoteBackslashOrControl(UInt64(low) | UInt64(high) << 32) { return 0 }
            to.storeBytes(of: low, as: UInt32.self)
            to.storeBytes(of: high, toByteOffset: count - 4, as: UInt32.self)
            return count
        }
        guard count > 0 else { return 0 }
        let first = from.load(as: UInt8.self)
        let middle = from.load(fromByteOffset: count / 2, as: UInt8.self)
        let last = from.load(fromByteOffset: count - 1, as: UInt8.self)
        // The unused bytes are 'A', which needs no escaping.
        let word = UInt64(first) | UInt64(middle) << 8 | UInt64(last) << 16 | 0x4141_4141_4100_0000
        if ByteWords.hasQuoteBackslashOrControl(word) { return 0 }
        to.storeBytes(of: first, as: UInt8.self)
        to.storeBytes(of: middle, toByteOffset: count / 2, as: UInt8.self)
        to.storeBytes(of: last, toByteOffset: count - 1, as: UInt8.self)
        return count
    }

    /// The general case, from byte `index` on (the opening quote and the bytes
    /// before are written): words of plain bytes are copied whole; a word with
    /// a byte to escape is copied up to that byte, which is then escaped.
    @inline(never)
    private static func writeEscaping(_ bytes: UnsafeBufferPointer<UInt8>, from index: Int, to output: _ByteBuffer) {
        guard let source = bytes.baseAddress else {
            output.append(UInt8(ascii: "\""))
            return
        }
        let count = bytes.count
        let from = UnsafeRawPointer(source)
        var index = index
        while index + 8 <= count {
            // Room for the word and one escape (at most six bytes).
            output.reserve(8 + 6)
            let word = from.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            UnsafeMutableRawPointer(output.base + output.count).storeBytes(of: word, as: UInt64.self)
            let mask = ByteWords.quoteBackslashOrControlMask(UInt64(littleEndian: word))
            if mask == 0 {
                output.didWrite(8)
                index += 8
                continue
            }
            // The word's plain bytes before the first match are already stored.
            let plain = mask.trailingZeroBitCount / 8
            output.didWrite(plain)
            writeEscapeReserved(source[index + plain], to: output)
            index += plain + 1
        }
        // Fewer than eight bytes left: room for each escaped and the closing quote.
        output.reserve((count - index) * 6 + 8)
        if index < count && count >= 8 {
            // The last eight bytes hold the rest in their top bytes: when none of
            // those needs escaping, they go out in one store.
            let rest = count - index
            let word = UInt64(littleEndian: from.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
            let restMask = ByteWords.quoteBackslashOrControlMask(word) >> (8 * (8 - rest))
            if restMask == 0 {
                UnsafeMutableRawPointer(output.base + output.count).storeBytes(of: (word >> (8 * (8 - rest))).littleEndian, as: UInt64.self)
                output.didWrite(rest)
                index = count
            }
        }
        while index < count {
            let byte = source[index]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                writeEscapeReserved(byte, to: output)
            } else {
                output.appendReserved(byte)
            }
            index += 1
        }
        output.appendReserved(UInt8(ascii: "\""))
    }

    /// Writes the escape for `byte` into room already reserved (six bytes).
    @inline(__always)
    private static func writeEscapeReserved(_ byte: UInt8, to output: _ByteBuffer) {
        func put(_ literal: StaticString) { output.appendReserved(literal.utf8Start, count: literal.utf8CodeUnitCount) }
        switch byte {
        case UInt8(ascii: "\""): put(#"\""#)
        case UInt8(ascii: "\\"): put(#"\\"#)
        case 0x0A: put(#"\n"#)
        case 0x0D: put(#"\r"#)
        case 0x09: put(#"\t"#)
        case 0x08: put(#"\b"#)
        case 0x0C: put(#"\f"#)
        default:
            put(#"\u00"#)
            output.appendReserved(hexDigits.utf8Start[Int(byte >> 4)])
            output.appendReserved(hexDigits.utf8Start[Int(byte & 0xF)])
        }
    }
}

extension JSONValue: CustomStringConvertible {
    /// Compact JSON text.
    public var description: String { JSONWriter.compactString(self) }
}

/// Pretty JSON (``JSONWriter/prettyString(_:)``), written into a buffer that is handed over
/// and emptied whenever it holds `pieceBytes` (``JSONWriter/writePretty(_:pieceBytes:_:)``).
struct _PrettyWriter {
    let output = _ByteBuffer()
    let pieceBytes: Int
    private var progress = NestedProgress()
    private(set) var stopped = false

    init(pieceBytes: Int) { self.pieceBytes = pieceBytes }

    mutating func write(_ value: JSONValue, indent: Int, _ piece: (UnsafeBufferPointer<UInt8>, Double) -> Bool) {
        switch value {
        case .array(let elements) where !elements.isEmpty:
            output.append(UInt8(ascii: "["))
            progress.enter(count: elements.count)
            for index in elements.indices {
                if index > elements.startIndex { output.append(UInt8(ascii: ",")) }
                newline(indent + 1)
                write(elements[index], indent: indent + 1, piece)
                guard finishElement(piece) else { return }
            }
            progress.leave()
            newline(indent)
            output.append(UInt8(ascii: "]"))
        case .object(let object) where !object.isEmpty:
            output.append(UInt8(ascii: "{"))
            progress.enter(count: object.count)
            for (index, (key, member)) in object.members.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                newline(indent + 1)
                JSONWriter.writeString(key, to: output)
                output.append(": ")
                write(member, indent: indent + 1, piece)
                guard finishElement(piece) else { return }
            }
            progress.leave()
            newline(indent)
            output.append(UInt8(ascii: "}"))
        default:
            JSONWriter.write(value, to: output)
        }
    }

    /// After each element of a container: one more done, and a piece handed over once the
    /// buffer holds `pieceBytes`; false once the writing is stopped.
    private mutating func finishElement(_ piece: (UnsafeBufferPointer<UInt8>, Double) -> Bool) -> Bool {
        progress.advance()
        if output.count >= pieceBytes { handOver(fraction: progress.fraction, piece) }
        return !stopped
    }

    /// Hands what is written so far to `piece` and empties the buffer (keeping its memory).
    mutating func handOver(fraction: Double, _ piece: (UnsafeBufferPointer<UInt8>, Double) -> Bool) {
        guard !stopped else { return }
        if !piece(UnsafeBufferPointer(start: output.base, count: output.count), fraction) { stopped = true }
        output.removeAll(keepingCapacityUpTo: .max)
    }

    private func newline(_ level: Int) {
        output.append(UInt8(ascii: "\n"))
        for _ in 0..<(level * 2) { output.append(UInt8(ascii: " ")) }
    }
}
