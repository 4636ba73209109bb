/// A strict RFC 8259 parser from UTF-8 bytes to ``JSONValue``.
///
/// ```swift
/// let value = try JSONParser.parse(Array(#"{"a":[1,2]}"#.utf8))
/// ```
///
/// Rejects everything the RFC does not allow (trailing commas, comments,
/// leading zeros, lone surrogates, control characters in strings, invalid
/// UTF-8) and nesting deeper than ``maximumDepth``.
public enum JSONParser {
    /// Deepest nesting of arrays and objects accepted; deeper input is an error, not a stack overflow.
    public static let maximumDepth = 512

    public static func parse<Bytes: Collection>(_ bytes: Bytes) throws(JSONParseError) -> JSONValue
    where Bytes.Element == UInt8 {
        if let result = bytes.withContiguousStorageIfAvailable({ buffer in
            Result { () throws(JSONParseError) -> JSONValue in try parse(buffer: buffer) }
        }) {
            return try result.get()
        }
        let copy = Array(bytes)
        let result = copy.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONParseError) -> JSONValue in try parse(buffer: buffer) }
        }
        return try result.get()
    }

    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        var text = text
        let result = text.withUTF8 { buffer in
            Result { () throws(JSONParseError) -> JSONValue in try parse(buffer: buffer) }
        }
        return try result.get()
    }

    public static func parse(buffer: UnsafeBufferPointer<UInt8>) throws(JSONParseError) -> JSONValue {
        var parser = _Parser(bytes: buffer)
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        if parser.position != buffer.count {
            throw parser.error("unexpected data after the JSON value")
        }
        return value
    }
}

/// Where and why parsing failed. `description` reads
/// `line 3, column 7 (byte 41): expected ',' or '}' after an object member`.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public var reason: String
    /// Zero-based byte offset of the problem.
    public var offset: Int
    /// One-based line and column (column counted in bytes).
    public var line: Int
    public var column: Int

    public var description: String { "line \(line), column \(column) (byte \(offset)): \(reason)" }
}

struct _Parser {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0
    /// Members of the containers being parsed, innermost last: each container
    /// is built once at its exact size instead of growing arrays element by element.
    private var keyStack: [String] = []
    private var valueStack: [JSONValue] = []
    /// Bytes of a string with escapes, reused across strings.
    private var unescaped: [UInt8] = []

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    func error(_ reason: String, at offset: Int? = nil) -> JSONParseError {
        let offset = min(offset ?? position, bytes.count)
        var line = 1
        var lineStart = 0
        for index in 0..<offset where bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        return JSONParseError(reason: reason, offset: offset, line: line, column: offset - lineStart + 1)
    }

    @inline(__always) mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard position < bytes.count else { throw error("unexpected end of input, expected a value") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("unexpected character \(describe(bytes[position])), expected a value")
        }
    }

    private func describe(_ byte: UInt8) -> String {
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        let start = literal.utf8Start
        guard position + count <= bytes.count else { throw error("invalid literal, expected '\(literal)'") }
        for index in 0..<count where bytes[position + index] != start[index] {
            throw error("invalid literal, expected '\(literal)'")
        }
        position += count
    }

    private mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= JSONParser.maximumDepth else { throw error("nesting deeper than \(JSONParser.maximumDepth) levels") }
        position += 1
        skipWhitespace()
        if position < bytes.count && bytes[position] == UInt8(ascii: "}") {
            position += 1
            return .object(JSONObject())
        }
        let base = keyStack.count
        let valueBase = valueStack.count  // arrays use only `valueStack`, so the two stacks differ in depth
        var seen: Set<String>? = nil  // only for large objects; small ones compare directly
        while true {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                throw error(position < bytes.count ? "expected a string key in an object" : "unexpected end of input inside an object")
            }
            let key = try parseString()
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
                throw error("expected ':' after an object key")
            }
            position += 1
            skipWhitespace()
            let value = try parseValue(depth: depth)
            // A repeated key keeps its first position and its last value.
            if let duplicate = duplicateIndex(of: key, from: base, seen: &seen) {
                valueStack[valueBase + duplicate - base] = value
            } else {
                keyStack.append(key)
                valueStack.append(value)
            }
            skipWhitespace()
            guard position < bytes.count else { throw error("unexpected end of input inside an object") }
            switch bytes[position] {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"):
                position += 1
                let object = JSONObject(uniqueKeys: Array(keyStack[base...]), values: Array(valueStack[valueBase...]))
                keyStack.removeSubrange(base...)
                valueStack.removeSubrange(valueBase...)
                return .object(object)
            default: throw error("expected ',' or '}' after an object member")
            }
        }
    }

    private mutating func duplicateIndex(of key: String, from base: Int, seen: inout Set<String>?) -> Int? {
        let count = keyStack.count - base
        if count < 16 {
            for index in base..<keyStack.count where keyStack[index] == key { return index }
            return nil
        }
        if seen == nil { seen = Set(keyStack[base...]) }
        if seen!.insert(key).inserted { return nil }
        return keyStack[base...].firstIndex(of: key)
    }

    private mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= JSONParser.maximumDepth else { throw error("nesting deeper than \(JSONParser.maximumDepth) levels") }
        position += 1
        skipWhitespace()
        if position < bytes.count && bytes[position] == UInt8(ascii: "]") {
            position += 1
            return .array([])
        }
        let base = valueStack.count
        while true {
            skipWhitespace()
            valueStack.append(try parseValue(depth: depth))
            skipWhitespace()
            guard position < bytes.count else { throw error("unexpected end of input inside an array") }
            switch bytes[position] {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"):
                position += 1
                let elements = Array(valueStack[base...])
                valueStack.removeSubrange(base...)
                return .array(elements)
            default: throw error("expected ',' or ']' after an array element")
            }
        }
    }

    private mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = position
        var isInteger = true
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard position < bytes.count, isDigit(bytes[position]) else { throw error("expected a digit in a number") }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if position < bytes.count && isDigit(bytes[position]) { throw error("leading zeros are not allowed in numbers") }
        } else {
            while position < bytes.count && isDigit(bytes[position]) { position += 1 }
        }
        if position < bytes.count && bytes[position] == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard position < bytes.count, isDigit(bytes[position]) else { throw error("expected a digit after the decimal point") }
            while position < bytes.count && isDigit(bytes[position]) { position += 1 }
        }
        if position < bytes.count && (bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E")) {
            isInteger = false
            position += 1
            if position < bytes.count && (bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")) { position += 1 }
            guard position < bytes.count, isDigit(bytes[position]) else { throw error("expected a digit in the exponent") }
            while position < bytes.count && isDigit(bytes[position]) { position += 1 }
        }
        let text = UnsafeBufferPointer(rebasing: bytes[start..<position])
        if isInteger, text.count <= 19 || (text.count == 20 && text[0] == UInt8(ascii: "-")) {
            if let value = parseInt64(text) { return .integer(value) }
        }
        let string = String(decoding: text, as: UTF8.self)
        guard let value = Double(string) else { throw error("number out of range", at: start) }
        return .double(value)
    }

    private func parseInt64(_ text: UnsafeBufferPointer<UInt8>) -> Int64? {
        var index = 0
        let negative = text[0] == UInt8(ascii: "-")
        if negative { index = 1 }
        var magnitude: UInt64 = 0
        while index < text.count {
            let (multiplied, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (added, overflow2) = multiplied.addingReportingOverflow(UInt64(text[index] &- 0x30))
            if overflow1 || overflow2 { return nil }
            magnitude = added
            index += 1
        }
        if negative {
            if magnitude <= UInt64(Int64.max) { return -Int64(magnitude) }
            if magnitude == UInt64(Int64.max) + 1 { return Int64.min }
            return nil
        }
        return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
    }

    @inline(__always) private func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// Reads a string starting at its opening quote. Runs without escapes are
    /// found eight bytes at a time; escapes are decoded into a reused byte
    /// buffer; UTF-8 is validated once per string.
    mutating func parseString() throws(JSONParseError) -> String {
        position += 1  // opening quote
        let start = position
        var isASCII = true
        let end = bytes.count
        let raw = UnsafeRawPointer(bytes.baseAddress!)
        while position + 8 <= end {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: position, as: UInt64.self))
            if Self.hasQuoteBackslashOrControl(word) { break }
            if word & 0x8080_8080_8080_8080 != 0 { isASCII = false }
            position += 8
        }
        while position < end {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let run = UnsafeBufferPointer(rebasing: bytes[start..<position])
                position += 1
                if isASCII { return String(decoding: run, as: UTF8.self) }
                guard let string = String(validating: run, as: UTF8.self) else { throw error("invalid UTF-8 in a string", at: start - 1) }
                return string
            }
            if byte == UInt8(ascii: "\\") { return try parseEscapedString(from: start) }
            if byte < 0x20 { throw error("control character \(describe(byte)) in a string must be escaped") }
            if byte >= 0x80 { isASCII = false }
            position += 1
        }
        throw error("unterminated string", at: start - 1)
    }

    /// True when a byte of `word` is '"', '\\' or below 0x20.
    @inline(__always)
    private static func hasQuoteBackslashOrControl(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let zeroInQuote = (quote &- ones) & ~quote & highs
        let zeroInBackslash = (backslash &- ones) & ~backslash & highs
        let control = (word &- ones &* 0x20) & ~word & highs
        return (zeroInQuote | zeroInBackslash | control) != 0
    }

    /// The slow path, from the string's first byte, once a backslash was seen.
    private mutating func parseEscapedString(from start: Int) throws(JSONParseError) -> String {
        unescaped.removeAll(keepingCapacity: true)
        var runStart = start
        while true {
            guard position < bytes.count else { throw error("unterminated string", at: start - 1) }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                unescaped.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<position]))
                position += 1
                guard let string = unescaped.withUnsafeBufferPointer({ String(validating: $0, as: UTF8.self) }) else {
                    throw error("invalid UTF-8 in a string", at: start - 1)
                }
                return string
            }
            if byte < 0x20 { throw error("control character \(describe(byte)) in a string must be escaped") }
            if byte != UInt8(ascii: "\\") {
                position += 1
                continue
            }
            unescaped.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<position]))
            position += 1
            guard position < bytes.count else { throw error("unterminated escape sequence") }
            let escape = bytes[position]
            position += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): unescaped.append(escape)
            case UInt8(ascii: "b"): unescaped.append(0x08)
            case UInt8(ascii: "f"): unescaped.append(0x0C)
            case UInt8(ascii: "n"): unescaped.append(0x0A)
            case UInt8(ascii: "r"): unescaped.append(0x0D)
            case UInt8(ascii: "t"): unescaped.append(0x09)
            case UInt8(ascii: "u"):
                let first = try parseHex4()
                var scalar = first
                if (0xD800...0xDBFF).contains(first) {
                    guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                        throw error("lone high surrogate \\u\(String(first, radix: 16, uppercase: true)) in a string")
                    }
                    position += 2
                    let second = try parseHex4()
                    guard (0xDC00...0xDFFF).contains(second) else {
                        throw error("high surrogate not followed by a low surrogate")
                    }
                    scalar = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(first) {
                    throw error("lone low surrogate \\u\(String(first, radix: 16, uppercase: true)) in a string")
                }
                unescaped.append(contentsOf: UTF8.encode(Unicode.Scalar(scalar)!)!)
            default:
                throw error("invalid escape sequence '\\\(Character(Unicode.Scalar(escape)))'", at: position - 2)
            }
            runStart = position
        }
    }

    private mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw error("incomplete \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - 0x30)
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - 0x61 + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - 0x41 + 10)
            default: throw error("invalid hex digit in \\u escape")
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }
}
