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
/// `"Infinity"` and `"-Infinity"` (see docs/JSON.md).
public enum JSONWriter {
    /// Compact JSON (no spaces or newlines), as recorded in logs.
    public static func compact(_ value: JSONValue) -> [UInt8] {
        let buffer = _ByteBuffer()
        write(value, to: buffer)
        return buffer.bytes
    }

    public static func compactString(_ value: JSONValue) -> String {
        let buffer = _ByteBuffer()
        write(value, to: buffer)
        return String(decoding: UnsafeBufferPointer(start: buffer.base, count: buffer.count), as: UTF8.self)
    }

    /// Indented JSON with two spaces per level and `"key": value` members, for people.
    public static func prettyString(_ value: JSONValue) -> String {
        let buffer = _ByteBuffer()
        writePretty(value, indent: 0, to: buffer)
        return String(decoding: UnsafeBufferPointer(start: buffer.base, count: buffer.count), as: UTF8.self)
    }

    public static func appendCompact(_ value: JSONValue, to output: inout [UInt8]) {
        appending(to: &output) { write(value, to: $0) }
    }

    public static func appendInteger<T: BinaryInteger>(_ number: T, to output: inout [UInt8]) {
        if let exact = Int64(exactly: number) {
            appending(to: &output) { writeInt64(exact, to: $0) }
        } else {
            output.append(contentsOf: String(number).utf8)
        }
    }

    public static func appendDouble(_ number: Double, to output: inout [UInt8]) {
        appending(to: &output) { writeDouble(number, to: $0) }
    }

    public static func appendString(_ string: String, to output: inout [UInt8]) {
        appending(to: &output) { writeString(string, to: $0) }
    }

    private static func appending(to output: inout [UInt8], _ body: (_ByteBuffer) -> Void) {
        let buffer = _ByteBuffer(capacity: 64)
        body(buffer)
        output.append(contentsOf: UnsafeBufferPointer(start: buffer.base, count: buffer.count))
    }

    // MARK: Writing into a byte buffer

    static func write(_ value: JSONValue, to output: _ByteBuffer) {
        switch value {
        case .null: output.append("null")
        case .bool(let flag): writeBool(flag, to: output)
        case .integer(let number): writeInt64(number, to: output)
        case .double(let number): writeDouble(number, to: output)
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
                if index > 0 { output.append(UInt8(ascii: ",")) }
                writeString(keys[index], to: output)
                output.append(UInt8(ascii: ":"))
                write(values[index], to: output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    static func writePretty(_ value: JSONValue, indent: Int, to output: _ByteBuffer) {
        func newline(_ level: Int) {
            output.append(UInt8(ascii: "\n"))
            for _ in 0..<(level * 2) { output.append(UInt8(ascii: " ")) }
        }
        switch value {
        case .array(let elements) where !elements.isEmpty:
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                newline(indent + 1)
                writePretty(element, indent: indent + 1, to: output)
            }
            newline(indent)
            output.append(UInt8(ascii: "]"))
        case .object(let object) where !object.isEmpty:
            output.append(UInt8(ascii: "{"))
            for (index, (key, member)) in object.members.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                newline(indent + 1)
                writeString(key, to: output)
                output.append(": ")
                writePretty(member, indent: indent + 1, to: output)
            }
            newline(indent)
            output.append(UInt8(ascii: "}"))
        default:
            write(value, to: output)
        }
    }

    @inline(__always)
    static func writeBool(_ flag: Bool, to output: _ByteBuffer) {
        if flag { output.append("true") } else { output.append("false") }
    }

    @inline(__always)
    static func writeInt64(_ number: Int64, to output: _ByteBuffer) {
        if number < 0 { output.append(UInt8(ascii: "-")) }
        writeUInt64(number.magnitude, to: output)
    }

    /// Digits written back to front straight into the buffer.
    @inline(__always)
    static func writeUInt64(_ number: UInt64, to output: _ByteBuffer) {
        if number < 10 {
            output.append(UInt8(truncatingIfNeeded: number) &+ 0x30)
            return
        }
        var digits = 0
        var probe = number
        while probe > 0 { digits += 1; probe /= 10 }
        output.reserve(digits)
        let end = output.base + output.count + digits
        var cursor = end
        var remaining = number
        while remaining > 0 {
            let (quotient, digit) = remaining.quotientAndRemainder(dividingBy: 10)
            cursor -= 1
            cursor.pointee = UInt8(truncatingIfNeeded: digit) &+ 0x30
            remaining = quotient
        }
        output.didWrite(digits)
    }

    static func writeDouble(_ number: Double, to output: _ByteBuffer) {
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
        // Swift's description is the shortest round-tripping text; it is valid JSON
        // for finite values ("1e-05", "1.5", "1.2345e+20").
        writeASCII(number.description, to: output)
    }

    /// A `Float` by its own shortest text, so `Float(0.1)` reads "0.1".
    static func writeFloat(_ number: Float, to output: _ByteBuffer) {
        guard number.isFinite else {
            writeNonFinite(isNaN: number.isNaN, isNegative: number < 0, to: output)
            return
        }
        if number.rounded(.towardZero) == number && number.magnitude < 1e7 {
            writeDouble(Double(number), to: output)
            return
        }
        writeASCII(number.description, to: output)
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
    static func writeString(_ string: String, to output: _ByteBuffer) {
        var string = string
        string.withUTF8 { writeString(utf8: $0, to: output) }
    }

    /// Copies runs of bytes that need no escaping in one go, scanning eight
    /// bytes at a time for '"', '\\' and control characters.
    static func writeString(utf8 bytes: UnsafeBufferPointer<UInt8>, to output: _ByteBuffer) {
        output.append(UInt8(ascii: "\""))
        var runStart = 0
        var index = 0
        let count = bytes.count
        guard let base = bytes.baseAddress else {
            output.append(UInt8(ascii: "\""))
            return
        }
        let raw = UnsafeRawPointer(base)
        while index < count {
            if index + 8 <= count, !ByteWords.hasQuoteBackslashOrControl(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))) {
                index += 8
                continue
            }
            let end = min(index + 8, count)
            while index < end {
                let byte = bytes[index]
                if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                    if index > runStart { output.append(UnsafeBufferPointer(rebasing: bytes[runStart..<index])) }
                    writeEscape(byte, to: output)
                    runStart = index + 1
                }
                index += 1
            }
        }
        if count > runStart { output.append(UnsafeBufferPointer(rebasing: bytes[runStart..<count])) }
        output.append(UInt8(ascii: "\""))
    }

    private static func writeEscape(_ byte: UInt8, to output: _ByteBuffer) {
        switch byte {
        case UInt8(ascii: "\""): output.append(#"\""#)
        case UInt8(ascii: "\\"): output.append(#"\\"#)
        case 0x0A: output.append(#"\n"#)
        case 0x0D: output.append(#"\r"#)
        case 0x09: output.append(#"\t"#)
        case 0x08: output.append(#"\b"#)
        case 0x0C: output.append(#"\f"#)
        default:
            output.append(#"\u00"#)
            output.append(hexDigits.utf8Start[Int(byte >> 4)])
            output.append(hexDigits.utf8Start[Int(byte & 0xF)])
        }
    }
}

extension JSONValue: CustomStringConvertible {
    /// Compact JSON text.
    public var description: String { JSONWriter.compactString(self) }
}
