/// Writes ``JSONValue`` documents as UTF-8 JSON text.
///
/// ```swift
/// let bytes = JSONWriter.compact(["a": 1])          // {"a":1}
/// let text = JSONWriter.prettyString(["a": [1, 2]])  // two-space indented
/// ```
///
/// Floating-point numbers are written with the shortest text that parses
/// back to the same `Double`. JSON has no NaN or infinity, so those are
/// written as the strings `"NaN"`, `"Infinity"` and `"-Infinity"`.
public enum JSONWriter {
    /// Compact JSON (no spaces or newlines), as recorded in logs.
    public static func compact(_ value: JSONValue) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        appendCompact(value, to: &output)
        return output
    }

    public static func compactString(_ value: JSONValue) -> String {
        String(decoding: compact(value), as: UTF8.self)
    }

    /// Indented JSON with two spaces per level and `"key": value` members, for people.
    public static func prettyString(_ value: JSONValue) -> String {
        var output: [UInt8] = []
        appendPretty(value, indent: 0, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    public static func appendCompact(_ value: JSONValue, to output: inout [UInt8]) {
        switch value {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .integer(let number): appendInteger(number, to: &output)
        case .double(let number): appendDouble(number, to: &output)
        case .string(let string): appendString(string, to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                appendCompact(element, to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let object):
            output.append(UInt8(ascii: "{"))
            var first = true
            for (key, member) in object.members {
                if !first { output.append(UInt8(ascii: ",")) }
                first = false
                appendString(key, to: &output)
                output.append(UInt8(ascii: ":"))
                appendCompact(member, to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    static func appendPretty(_ value: JSONValue, indent: Int, to output: inout [UInt8]) {
        func newline(_ level: Int) {
            output.append(UInt8(ascii: "\n"))
            output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: level * 2))
        }
        switch value {
        case .array(let elements) where !elements.isEmpty:
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                newline(indent + 1)
                appendPretty(element, indent: indent + 1, to: &output)
            }
            newline(indent)
            output.append(UInt8(ascii: "]"))
        case .object(let object) where !object.isEmpty:
            output.append(UInt8(ascii: "{"))
            var first = true
            for (key, member) in object.members {
                if !first { output.append(UInt8(ascii: ",")) }
                first = false
                newline(indent + 1)
                appendString(key, to: &output)
                output.append(contentsOf: ": ".utf8)
                appendPretty(member, indent: indent + 1, to: &output)
            }
            newline(indent)
            output.append(UInt8(ascii: "}"))
        default:
            appendCompact(value, to: &output)
        }
    }

    @inline(__always)
    public static func appendInteger<T: BinaryInteger>(_ number: T, to output: inout [UInt8]) {
        if number >= 0 && number < 10 {
            output.append(UInt8(truncatingIfNeeded: number) + 0x30)
            return
        }
        output.append(contentsOf: String(number).utf8)
    }

    public static func appendDouble(_ number: Double, to output: inout [UInt8]) {
        guard number.isFinite else {
            appendString(number.isNaN ? "NaN" : (number < 0 ? "-Infinity" : "Infinity"), to: &output)
            return
        }
        // Whole numbers print without ".0" so 3.0 reads as 3, like JSONEncoder.
        if number.rounded() == number && number.magnitude < 1e15 {
            appendInteger(Int64(number), to: &output)
            if number == 0 && number.sign == .minus { output.insert(UInt8(ascii: "-"), at: output.count - 1) }
            return
        }
        // Swift's description is the shortest round-tripping text; it is valid JSON
        // for finite values ("1e-05", "1.5", "1.2345e+20").
        output.append(contentsOf: number.description.utf8)
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    public static func appendString(_ string: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { bytes in
            var runStart = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                if index > runStart { output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index])) }
                runStart = index + 1
                output.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""): output.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): output.append(UInt8(ascii: "\\"))
                case 0x0A: output.append(UInt8(ascii: "n"))
                case 0x0D: output.append(UInt8(ascii: "r"))
                case 0x09: output.append(UInt8(ascii: "t"))
                case 0x08: output.append(UInt8(ascii: "b"))
                case 0x0C: output.append(UInt8(ascii: "f"))
                default:
                    output.append(contentsOf: "u00".utf8)
                    output.append(hexDigits[Int(byte >> 4)])
                    output.append(hexDigits[Int(byte & 0xF)])
                }
            }
            if bytes.count > runStart { output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count])) }
        }
        output.append(UInt8(ascii: "\""))
    }
}

extension JSONValue: CustomStringConvertible {
    /// Compact JSON text.
    public var description: String { JSONWriter.compactString(self) }
}
