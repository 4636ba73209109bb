import Foundation
internal import CJSONScan

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

    /// What to do with an object that names the same key twice. RFC 8259
    /// leaves it open; RFC 6902 (JSON Patch) requires rejecting it.
    public enum DuplicateKeys: Sendable {
        /// The key keeps its first position and its last value (what most parsers do).
        case lastValueWins
        /// A repeated key is an error.
        case reject
    }

    /// Parses one JSON document from UTF-8 bytes (`[UInt8]`, `Data`, a slice).
    ///
    /// ```swift
    /// let value = try JSONParser.parse(Array(#"{"count":2}"#.utf8))
    /// ```
    /// - Throws: ``JSONParseError`` with the line, column and reason.
    public static func parse<Bytes: Collection>(_ bytes: Bytes, duplicateKeys: DuplicateKeys = .lastValueWins) throws(JSONParseError) -> JSONValue
    where Bytes.Element == UInt8 {
        if let result = bytes.withContiguousStorageIfAvailable({ buffer in
            Result { () throws(JSONParseError) -> JSONValue in try parse(buffer: buffer, duplicateKeys: duplicateKeys) }
        }) {
            return try result.get()
        }
        let copy = Array(bytes)
        let result = copy.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONParseError) -> JSONValue in try parse(buffer: buffer, duplicateKeys: duplicateKeys) }
        }
        return try result.get()
    }

    /// Parses one JSON document from text: `try JSONParser.parse(#"[1, 2]"#)`.
    /// - Throws: ``JSONParseError``.
    public static func parse(_ text: String, duplicateKeys: DuplicateKeys = .lastValueWins) throws(JSONParseError) -> JSONValue {
        var text = text
        let result = text.withUTF8 { buffer in
            Result { () throws(JSONParseError) -> JSONValue in try parse(buffer: buffer, duplicateKeys: duplicateKeys) }
        }
        return try result.get()
    }

    package static func parse(buffer: UnsafeBufferPointer<UInt8>, duplicateKeys: DuplicateKeys = .lastValueWins) throws(JSONParseError) -> JSONValue {
        try parse(buffer: buffer, duplicateKeys: duplicateKeys, splitting: .onThisMachine)
    }

    /// Parses with large arrays split as `splitting` says (nil: never); tests compare the two ways.
    @_spi(Testing) public static func parse(buffer: UnsafeBufferPointer<UInt8>, duplicateKeys: DuplicateKeys, splitting: ArraySplitting?) throws(JSONParseError) -> JSONValue {
        var shapes = ShapeMemory()
        return try parse(buffer: buffer, duplicateKeys: duplicateKeys, splitting: splitting, shapes: &shapes)
    }

    /// The object shapes parses have learned, handed from one to the next: a
    /// log's keyframes are the same objects again and again, and learning
    /// their shapes anew was a fifth of parsing one (and each object then
    /// shares the keys of the one before instead of holding its own).
    package struct ShapeMemory {
        fileprivate var known = ObjectShapes()
        package init() {}
    }

    /// ``parse(buffer:duplicateKeys:)`` knowing the shapes in `shapes`, and teaching it those it meets.
    package static func parse(buffer: UnsafeBufferPointer<UInt8>, shapes: inout ShapeMemory) throws(JSONParseError) -> JSONValue {
        try parse(buffer: buffer, duplicateKeys: .lastValueWins, splitting: .onThisMachine, shapes: &shapes)
    }

    private static func parse(buffer: UnsafeBufferPointer<UInt8>, duplicateKeys: DuplicateKeys, splitting: ArraySplitting?,
                              shapes: inout ShapeMemory) throws(JSONParseError) -> JSONValue {
        var parser = _Parser(bytes: buffer, rejectsDuplicateKeys: duplicateKeys == .reject, splitting: splitting)
        // Moved in and back out, so the parser holds the only reference and adds shapes in place.
        swap(&parser.shapes, &shapes.known)
        defer {
            swap(&parser.shapes, &shapes.known)
            parser.releaseStorage()
        }
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
    /// What was wrong, for people: `expected ',' or '}' after an object member`.
    public var reason: String
    /// Zero-based byte offset of the problem.
    public var offset: Int
    /// One-based line and column (column counted in bytes).
    public var line: Int
    /// One-based column, counted in bytes.
    public var column: Int

    public var description: String { "line \(line), column \(column) (byte \(offset)): \(reason)" }
}

struct _Parser {
    let bytes: UnsafeBufferPointer<UInt8>
    let rejectsDuplicateKeys: Bool
    var position = 0
    /// Members of the containers being parsed, innermost last: each container
    /// is built once at its exact size instead of growing arrays element by
    /// element. Values are moved in and out of raw storage, so building a
    /// container costs no reference counting per member.
    private var keyStack: [String] = []
    /// Allocated on the first container: parsing a scalar allocates nothing.
    private var values = ScratchBuffer<JSONValue>()
    private var valueCount = 0
    /// Recently seen object shapes, per depth (see ``ObjectShapes``).
    fileprivate var shapes = ObjectShapes()
    /// The decoded bytes of a string with escapes, reused across strings.
    private var scratch = ScratchBuffer<UInt8>()
    private var repeatedStrings = RepeatedStrings()

    /// How large arrays are split across cores (see `parseLargeArray`); nil: never.
    let splitting: ArraySplitting?

    init(bytes: UnsafeBufferPointer<UInt8>, rejectsDuplicateKeys: Bool = false, splitting: ArraySplitting? = nil) {
        self.bytes = bytes
        self.rejectsDuplicateKeys = rejectsDuplicateKeys
        self.splitting = splitting
    }

    /// Frees the value stack (and whatever an error left on it); call once.
    mutating func releaseStorage() {
        scratch.release(initialized: 0)  // bytes need no deinitializing
        values.release(initialized: valueCount)
        valueCount = 0
    }

    /// How many values are on the stack (a run of a split array leaves its elements there).
    var stackedValueCount: Int { valueCount }

    /// Moves every value on the stack to `destination`, in order; returns how many.
    mutating func moveStackedValues(to destination: UnsafeMutablePointer<JSONValue>) -> Int {
        let count = valueCount
        if count > 0 { destination.moveInitialize(from: values.base, count: count) }
        valueCount = 0
        return count
    }

    @inline(__always) mutating func pushValue(_ value: __owned JSONValue) {
        values.reserve(valueCount + 1, keeping: valueCount)
        values.store(value, at: &valueCount)
    }

    /// Moves the values from `start` to the top of the stack into a new array.
    private mutating func popValues(from start: Int) -> [JSONValue] {
        let count = valueCount - start
        guard count > 0 else { return [] }
        let source = values.base + start
        valueCount = start
        var result: [JSONValue] = []
        result.reserveCapacity(count)
        for index in 0..<count { result.append((source + index).move()) }
        return result
    }

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
        let objectStart = position
        position += 1
        skipWhitespace()
        if position < bytes.count && bytes[position] == UInt8(ascii: "}") {
            position += 1
            return .object(JSONObject())
        }
        let keyBase = keyStack.count
        let valueBase = valueCount
        // While `shape` is set, the keys so far are its first `memberCount`
        // keys and none are on `keyStack`; once no known shape fits, the keys
        // go on `keyStack`.
        var shape = shapes.mostRecent(atDepth: depth)
        var memberCount = 0
        while true {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                throw error(position < bytes.count ? "expected a string key in an object" : "unexpected end of input inside an object")
            }
            if let id = shape, shapes.matchesRawKey(id, at: memberCount, in: bytes, quoteAt: &position) {
                // The key is the shape's next one, recognised without making a String.
            } else {
                let key = try parseString()
                if let id = shape, !shapes.matches(id, key: key, at: memberCount) {
                    shape = shapes.find(atDepth: depth, prefixOf: id, count: memberCount, then: key)
                    if shape == nil {
                        keyStack.append(contentsOf: shapes.keys(of: id)[..<memberCount])
                        keyStack.append(key)
                    }
                } else if shape == nil {
                    keyStack.append(key)
                }
            }
            memberCount += 1
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
                throw error("expected ':' after an object key")
            }
            position += 1
            skipWhitespace()
            pushValue(try parseValue(depth: depth))
            skipWhitespace()
            guard position < bytes.count else { throw error("unexpected end of input inside an object") }
            switch bytes[position] {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"):
                position += 1
                return .object(try finishObject(startingAt: objectStart, depth: depth, keyBase: keyBase, valueBase: valueBase,
                                                shape: shape, memberCount: memberCount))
            default: throw error("expected ',' or '}' after an object member")
            }
        }
    }

    /// Builds the object from the stacks: with the shared keys of a known
    /// shape when it matched all of them, otherwise checking for repeated keys
    /// and remembering the new shape.
    private mutating func finishObject(startingAt objectStart: Int, depth: Int, keyBase: Int, valueBase: Int,
                                       shape: Int?, memberCount: Int) throws(JSONParseError) -> JSONObject {
        // A known shape matched every key; or the object ended early and
        // another known shape is exactly those keys (an optional left out).
        if let shape, let known = shapes.use(shape, atDepth: depth, ifCount: memberCount)
            ?? shapes.find(atDepth: depth, prefixOf: shape, count: memberCount).flatMap({ shapes.use($0, atDepth: depth, ifCount: memberCount) }) {
            return JSONObject(shape: known, values: popValues(from: valueBase))
        }
        let keys = shape.map { Array(shapes.keys(of: $0)[..<memberCount]) } ?? Array(keyStack[keyBase...])
        keyStack.removeSubrange(keyBase...)
        if JSONObject.hasRepeatedKeys(keys) {
            if rejectsDuplicateKeys {
                let repeated = keys.indices.first { JSONObject.firstIndex(of: keys[$0], in: keys[..<$0]) != nil }.map { keys[$0] } ?? ""
                throw error("the key \"\(repeated)\" appears twice in one object", at: objectStart)
            }
            // A repeated key keeps its first position and its last value.
            return JSONObject(keys: keys, values: popValues(from: valueBase))
        }
        let newShape = JSONObject.Shape(uniqueKeys: keys)
        shapes.remember(newShape, atDepth: depth)
        return JSONObject(shape: newShape, values: popValues(from: valueBase))
    }

    private mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= JSONParser.maximumDepth else { throw error("nesting deeper than \(JSONParser.maximumDepth) levels") }
        position += 1
        skipWhitespace()
        if position < bytes.count && bytes[position] == UInt8(ascii: "]") {
            position += 1
            return .array([])
        }
        if splitting != nil, let elements = try parseLargeArray(depth: depth, firstElementAt: position) { return .array(elements) }
        let base = valueCount
        switch parseRun(depth: depth) {
        case .closed(let end):
            position = end
            return .array(popValues(from: base))
        case .failed(let error):
            throw error
        case .landed, .abandoned:
            preconditionFailure("a run with no stop neither lands nor is abandoned")
        }
    }

    private mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = position
        let syntax: JSONNumberSyntax
        do {
            syntax = try JSONNumberSyntax.scan(bytes, from: start)
        } catch {
            throw self.error(error.reason, at: error.offset)
        }
        position = syntax.end
        if syntax.isInteger && syntax.integerDigitCount <= 18 {
            // The common case: an integer that cannot overflow, converted while scanning.
            let magnitude = Int64(syntax.integerMagnitude)
            if syntax.isNegative && magnitude == 0 { return .double(-0.0) }  // -0 is a number an integer cannot hold
            return .integer(syntax.isNegative ? -magnitude : magnitude)
        }
        return Self.exactValue(ofNumber: UnsafeBufferPointer(rebasing: bytes[start..<position]), isInteger: syntax.isInteger)
    }

    /// The value of valid number text, exactly: an `Int64`, else a `Double`
    /// whose shortest text has the same value (so writing it loses nothing),
    /// else the text itself. Integers beyond `Int64` keep their text (a
    /// `UInt64` stays `18446744073709551615`, not `1.8446744073709552e+19`).
    static func exactValue(ofNumber text: UnsafeBufferPointer<UInt8>, isInteger: Bool) -> JSONValue {
        if isInteger {
            if let value = parseInt64(text) { return value == 0 && text[0] == UInt8(ascii: "-") ? .double(-0.0) : .integer(value) }
            return .number(JSONNumber(validated: String(decoding: text, as: UTF8.self)))
        }
        if let value = exactDouble(text) { return .double(value) }
        let string = String(decoding: text, as: UTF8.self)
        if let value = Double(string), isFaithful(value, to: text) { return .double(value) }
        return .number(JSONNumber(validated: string))
    }

    /// Whether `double`, read from `text`, writes back as the same value.
    /// At most 15 significant digits always do, unless the double is out of
    /// the normal range (subnormal, rounded to zero or to infinity); otherwise
    /// its shortest text is compared with `text`.
    private static func isFaithful(_ double: Double, to text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard double.isFinite else { return false }
        // What Rewind (and most writers) write for a double is its shortest text.
        var shortest = double.description
        if shortest.withUTF8({ $0.count == text.count && memcmp($0.baseAddress!, text.baseAddress!, text.count) == 0 }) { return true }
        guard let exact = _DecimalValue(jsonNumber: text) else { return false }
        if exact.digitCount <= 15 && (double.isNormal || (double == 0 && exact.digitCount == 0)) { return true }
        return exact.digitCount <= 17 && shortest.withUTF8 { _DecimalValue(jsonNumber: $0) } == exact
    }

    private static let exactPowersOfTen: [Double] = (0...22).map { (power: Int) -> Double in
        (0..<power).reduce(1.0) { value, _ in value * 10 }
    }

    /// The value of a well-formed decimal number with at most 15 significant
    /// digits and a small exponent (almost every number an app writes): its
    /// digits and the power of ten are both exact doubles, so one correctly
    /// rounded multiply or divide gives the correctly rounded result. `nil`
    /// for anything else, which goes through the C library.
    private static func exactDouble(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        var index = 0
        let negative = text[0] == UInt8(ascii: "-")
        if negative { index = 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var scale = 0
        var seenPoint = false
        while index < text.count {
            let byte = text[index]
            if byte == UInt8(ascii: ".") {
                seenPoint = true
            } else if byte >= 0x30 && byte <= 0x39 {
                if digits > 0 || byte != 0x30 { digits += 1 }
                guard digits <= 15 else { return nil }
                mantissa = mantissa * 10 + UInt64(byte - 0x30)
                if seenPoint { scale -= 1 }
            } else {
                break
            }
            index += 1
        }
        if index < text.count {
            // Exponent: 'e' or 'E', an optional sign, then digits (checked by the caller).
            index += 1
            var exponentNegative = false
            if text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-") {
                exponentNegative = text[index] == UInt8(ascii: "-")
                index += 1
            }
            var exponent = 0
            while index < text.count {
                exponent = exponent * 10 + Int(text[index] - 0x30)
                guard exponent <= 1_000 else { return nil }
                index += 1
            }
            scale += exponentNegative ? -exponent : exponent
        }
        guard scale >= -22 && scale <= 22 else { return mantissa == 0 ? (negative ? -0.0 : 0.0) : nil }
        var value = Double(mantissa)
        value = scale < 0 ? value / exactPowersOfTen[-scale] : value * exactPowersOfTen[scale]
        return negative ? -value : value
    }

    private static func parseInt64(_ text: UnsafeBufferPointer<UInt8>) -> Int64? {
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

    /// Reads a string starting at its opening quote. Runs without escapes are
    /// found eight bytes at a time; escapes are decoded into a reused byte
    /// buffer; UTF-8 is validated once per string.
    mutating func parseString() throws(JSONParseError) -> String {
        position += 1  // opening quote
        let start = position
        var isASCII = true
        try skipPlainRun(isASCII: &isASCII)
        guard position < bytes.count else { throw error("unterminated string", at: start - 1) }
        if bytes[position] == UInt8(ascii: "\\") { return try parseEscapedString(from: start, isASCII: isASCII) }
        let run = UnsafeBufferPointer(rebasing: bytes[start..<position])
        position += 1  // closing quote
        guard let string = makeString(run, isASCII: isASCII) else { throw error("invalid UTF-8 in a string", at: start - 1) }
        return string
    }

    /// Moves `position` over a string's plain bytes to its next quote or
    /// backslash (or the end of the input) with the one plain-run scan
    /// (`rewind_json_plain_run`, inlined from `CJSONScan`). Clears `isASCII` at a
    /// byte of 0x80 or more; a control character is an error.
    @inline(__always)
    private mutating func skipPlainRun(isASCII: inout Bool) throws(JSONParseError) {
        let run = rewind_json_plain_run(bytes.baseAddress! + position, bytes.count - position)
        position += run.plain
        if run.hasHighByte { isASCII = false }
        if position < bytes.count, bytes[position] < 0x20 {
            throw error("control character \(describe(bytes[position])) in a string must be escaped")
        }
    }

    /// The path for strings with escapes, from the string's first byte, once
    /// a backslash was seen at `position`. Plain runs are found eight bytes at
    /// a time and copied whole into a reused scratch buffer; escapes are
    /// decoded into it. Escapes always decode to whole, valid UTF-8 sequences,
    /// so only input with non-ASCII bytes needs validating.
    private mutating func parseEscapedString(from start: Int, isASCII plainSoFar: Bool) throws(JSONParseError) -> String {
        var isASCII = plainSoFar
        var written = 0
        scratch.reserve(position - start + 16, keeping: 0)
        scratch.copy(from: bytes.baseAddress! + start, count: position - start, at: &written)
        let end = bytes.count
        while true {
            // `position` is at a backslash: decode one escape.
            guard position + 1 < end else { throw error("unterminated escape sequence", at: min(position + 1, end)) }
            let escape = bytes[position + 1]
            position += 2
            scratch.reserve(written + 4, keeping: written)
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.store(escape, at: &written)
            case UInt8(ascii: "b"): scratch.store(0x08, at: &written)
            case UInt8(ascii: "f"): scratch.store(0x0C, at: &written)
            case UInt8(ascii: "n"): scratch.store(0x0A, at: &written)
            case UInt8(ascii: "r"): scratch.store(0x0D, at: &written)
            case UInt8(ascii: "t"): scratch.store(0x09, at: &written)
            case UInt8(ascii: "u"):
                let scalar = try parseUnicodeEscape()
                if !scalar.isASCII { isASCII = false }
                for byte in UTF8.encode(scalar)! { scratch.store(byte, at: &written) }
            default:
                throw error("invalid escape sequence '\\\(Character(Unicode.Scalar(escape)))'", at: position - 2)
            }
            // The plain run up to the next quote or backslash.
            let runStart = position
            try skipPlainRun(isASCII: &isASCII)
            guard position < end else { throw error("unterminated string", at: start - 1) }
            scratch.reserve(written + position - runStart, keeping: written)
            scratch.copy(from: bytes.baseAddress! + runStart, count: position - runStart, at: &written)
            if bytes[position] == UInt8(ascii: "\"") {
                position += 1
                guard let string = makeString(UnsafeBufferPointer(start: scratch.base, count: written), isASCII: isASCII) else {
                    throw error("invalid UTF-8 in a string", at: start - 1)
                }
                return string
            }
        }
    }

    /// The String of a JSON string's (decoded) bytes, shared with an earlier
    /// equal one when it is of a length that tends to repeat; nil when the
    /// bytes are not valid UTF-8.
    @inline(__always)
    private mutating func makeString(_ utf8: UnsafeBufferPointer<UInt8>, isASCII: Bool) -> String? {
        let string = utf8.count > RepeatedStrings.shortestShared && utf8.count <= RepeatedStrings.longestShared
            ? repeatedStrings.string(for: utf8)
            : String(decoding: utf8, as: UTF8.self)
        if isASCII { return string }
        // `String(decoding:)` validates anyway, replacing what is invalid with
        // U+FFFD: the bytes were valid exactly when they came through
        // unchanged. Comparing is far cheaper than validating a second time.
        let unchanged = string.utf8.withContiguousStorageIfAvailable { stored in
            stored.count == utf8.count && memcmp(stored.baseAddress!, utf8.baseAddress!, utf8.count) == 0
        }
        return unchanged == true ? string : nil
    }

    /// The scalar of a `\u` escape whose `u` was just read, joining a surrogate pair.
    private mutating func parseUnicodeEscape() throws(JSONParseError) -> Unicode.Scalar {
        let first = try parseHex4()
        guard (0xD800...0xDFFF).contains(first) else { return Unicode.Scalar(first)! }
        guard first <= 0xDBFF else {
            throw error("lone low surrogate \\u\(String(first, radix: 16, uppercase: true)) in a string")
        }
        guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
            throw error("lone high surrogate \\u\(String(first, radix: 16, uppercase: true)) in a string")
        }
        position += 2
        let second = try parseHex4()
        guard (0xDC00...0xDFFF).contains(second) else {
            throw error("high surrogate not followed by a low surrogate")
        }
        return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))!
    }

    private mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw error("incomplete \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = JSONEscapes.hexDigit(bytes[position]) else { throw error("invalid hex digit in \\u escape") }
            value = value << 4 | digit
            position += 1
        }
        return value
    }
}

/// The key lists of objects recently parsed at each depth. An array of
/// structs yields thousands of objects with the same keys: recognising a
/// remembered shape key by key, straight from the input bytes, lets them all
/// share one keys array and lookup index and skips making a String per key.
struct ObjectShapes {
    private static let perDepth = 4

    struct Entry {
        var shape: JSONObject.Shape
        /// Each key's UTF-8 followed by its closing quote, back to back, and
        /// where each ends; eight zero bytes pad the end so keys can be
        /// compared a word at a time.
        var keyBytes: [UInt8] = []
        var keyEnds: [Int] = []
        /// True when no key needs escaping in JSON, so a key whose raw bytes
        /// equal one of these (followed by a quote) is that key.
        var rawComparable = true

        init(_ shape: JSONObject.Shape) {
            self.shape = shape
            for key in shape.keys {
                for byte in key.utf8 {
                    if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { rawComparable = false }
                    keyBytes.append(byte)
                }
                keyBytes.append(UInt8(ascii: "\""))
                keyEnds.append(keyBytes.count)
            }
            keyBytes.append(contentsOf: repeatElement(0, count: 8))
        }

        /// What fills the slots of a depth not yet used: one for all (making
        /// one per slot was a third of parsing a small document).
        static let unused = Entry(JSONObject.Shape.empty)
    }

    /// `perDepth` slots per depth, the used ones first.
    private var entries: [Entry] = []
    private var used: [UInt8] = []
    private var nextReplaced: [UInt8] = []
    private var mostRecentSlot: [UInt8] = []

    /// The shape last used at `depth`, the likeliest for the next object there.
    func mostRecent(atDepth depth: Int) -> Int? {
        depth < used.count && used[depth] > 0 ? depth * Self.perDepth + Int(mostRecentSlot[depth]) : nil
    }

    func keys(of id: Int) -> [String] { entries[id].shape.keys }

    /// Whether shape `id` has `key` as its key number `index`.
    @inline(__always)
    func matches(_ id: Int, key: String, at index: Int) -> Bool {
        let keys = entries[id].shape.keys
        return index < keys.count && keys[index].hasSameScalars(as: key)
    }

    /// Whether the string starting at `quote` in `bytes` is, byte for byte,
    /// key number `index` of shape `id`; if so moves `quote` past it.
    @inline(__always)
    func matchesRawKey(_ id: Int, at index: Int, in bytes: UnsafeBufferPointer<UInt8>, quoteAt quote: inout Int) -> Bool {
        guard entries[id].rawComparable, index < entries[id].keyEnds.count else { return false }
        let start = index == 0 ? 0 : entries[id].keyEnds[index - 1]
        let length = entries[id].keyEnds[index] - start  // with the closing quote
        let first = quote + 1
        guard first + length <= bytes.count else { return false }
        let available = bytes.count - first
        let same = entries[id].keyBytes.withUnsafeBufferPointer { keyBytes in
            let key = UnsafeRawPointer(keyBytes.baseAddress! + start)
            let candidate = UnsafeRawPointer(bytes.baseAddress! + first)
            var offset = 0
            // A word at a time while the input has eight bytes to load (the
            // key's side is padded); the word holding the key's end is
            // compared only up to it.
            while offset < length && offset + 8 <= available {
                let differing = UInt64(littleEndian: key.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                                                    ^ candidate.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                if differing != 0 {
                    let remaining = length - offset
                    return remaining < 8 && differing & (1 << UInt64(remaining * 8) - 1) == 0
                }
                offset += 8
            }
            while offset < length {
                if key.load(fromByteOffset: offset, as: UInt8.self) != candidate.load(fromByteOffset: offset, as: UInt8.self) { return false }
                offset += 1
            }
            return true
        }
        if same { quote = first + length }
        return same
    }

    /// A shape at `depth` whose keys are the first `count` keys of shape `id`
    /// followed by `key`, and possibly more; without `key`, exactly those keys.
    func find(atDepth depth: Int, prefixOf id: Int, count: Int, then key: String? = nil) -> Int? {
        let prefix = entries[id].shape.keys
        search: for slot in 0..<Int(used[depth]) {
            let candidate = depth * Self.perDepth + slot
            let keys = entries[candidate].shape.keys
            if let key {
                guard keys.count > count && keys[count].hasSameScalars(as: key) else { continue }
            } else {
                guard keys.count == count else { continue }
            }
            for index in 0..<count where !keys[index].hasSameScalars(as: prefix[index]) { continue search }
            return candidate
        }
        return nil
    }

    /// Shape `id` if it has exactly `count` keys (all of which matched), noted as the most recent.
    mutating func use(_ id: Int, atDepth depth: Int, ifCount count: Int) -> JSONObject.Shape? {
        guard entries[id].shape.keys.count == count else { return nil }
        mostRecentSlot[depth] = UInt8(id - depth * Self.perDepth)
        return entries[id].shape
    }

    mutating func remember(_ shape: JSONObject.Shape, atDepth depth: Int) {
        while used.count <= depth {
            used.append(0)
            nextReplaced.append(0)
            mostRecentSlot.append(0)
            entries.append(contentsOf: repeatElement(Entry.unused, count: Self.perDepth))
        }
        let slot: Int
        if Int(used[depth]) < Self.perDepth {
            slot = Int(used[depth])
            used[depth] += 1
        } else {
            slot = Int(nextReplaced[depth])
            nextReplaced[depth] = UInt8((slot + 1) % Self.perDepth)
        }
        entries[depth * Self.perDepth + slot] = Entry(shape)
        mostRecentSlot[depth] = UInt8(slot)
    }
}
