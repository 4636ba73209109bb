/// An RFC 6901 JSON Pointer such as `/todos/0/title`.
///
/// ```swift
/// let pointer = try JSONPointer(parsing: "/a~1b/0")   // tokens ["a/b", "0"]
/// pointer.description                                  // "/a~1b/0"
/// ```
///
/// Tokens compare by their Unicode scalars, as object keys do.
public struct JSONPointer: Hashable, Sendable, CustomStringConvertible {
    /// The unescaped reference tokens; empty for the whole document.
    public var tokens: [String]

    /// The pointer to `tokens`, unescaped (`["todos", "3"]` is `/todos/3`); empty: the whole document.
    public init(tokens: [String] = []) { self.tokens = tokens }

    /// Parses pointer text; `""` is the whole document, otherwise it must start with `/`.
    public init(parsing text: String) throws(JSONPointerError) {
        if text.isEmpty { self.tokens = []; return }
        guard text.first == "/" else { throw JSONPointerError(pointer: text, reason: "a JSON Pointer must be empty or start with '/'") }
        // The fast path: `entry(at:)` and `state(at:)` read a pointer per patch operation.
        // `REWIND_REFERENCE_READERS=pointer` turns it off.
        if !ReferenceReaders.current.contains(.pointer), let tokens = Self.asciiTokens(text) {
            self.tokens = tokens
            return
        }
        self.tokens = try Self.tokens(text)
    }

    /// The reference: the tokens of pointer text that starts with `/`, character by character.
    package static func tokens(_ text: String) throws(JSONPointerError) -> [String] {
        var tokens: [String] = []
        for raw in text.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            var token = ""
            var iterator = raw.makeIterator()
            while let character = iterator.next() {
                if character == "~" {
                    switch iterator.next() {
                    case "0": token.append("~")
                    case "1": token.append("/")
                    default: throw JSONPointerError(pointer: text, reason: "'~' must be followed by '0' or '1'")
                    }
                } else {
                    token.append(character)
                }
            }
            tokens.append(token)
        }
        return tokens
    }

    /// The fast path: the same tokens for plain ASCII without escapes (what recorders
    /// write), split as bytes at a fraction of the cost; nil for anything else.
    package static func asciiTokens(_ text: String) -> [String]? {
        var text = text
        return text.withUTF8 { asciiTokens($0) }
    }

    /// ``asciiTokens(_:)`` of pointer text given as its UTF-8 bytes, the leading `/` first.
    /// One loop over the bytes: splitting a `String.UTF8View` as a collection cost more
    /// than the rest of reading a recorder's patch operation.
    package static func asciiTokens(_ bytes: UnsafeBufferPointer<UInt8>) -> [String]? {
        func isPlain(_ byte: UInt8) -> Bool { byte < 0x80 && byte != UInt8(ascii: "~") }
        guard let first = bytes.first else { return [""] }
        guard isPlain(first) else { return nil }
        var tokens: [String] = []
        var tokenStart = 1
        for position in 1..<bytes.count {
            let byte = bytes[position]
            guard isPlain(byte) else { return nil }
            if byte == UInt8(ascii: "/") {
                tokens.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[tokenStart..<position]), as: UTF8.self))
                tokenStart = position + 1
            }
        }
        tokens.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[tokenStart...]), as: UTF8.self))
        return tokens
    }

    /// The pointer whose text is `bytes` (valid UTF-8), as ``init(parsing:)`` reads it; nil where
    /// that throws. For a reader that holds a path as the bytes of its record (a patch as written):
    /// the ASCII split reads them in place, where making a `String` to parse first cost a tenth of
    /// rebuilding a small state.
    package init?(validUTF8 bytes: UnsafeBufferPointer<UInt8>) {
        if bytes.first == UInt8(ascii: "/"), !ReferenceReaders.current.contains(.pointer), let tokens = Self.asciiTokens(bytes) {
            self.tokens = tokens
            return
        }
        guard let pointer = try? JSONPointer(parsing: String(decoding: bytes, as: UTF8.self)) else { return nil }
        self = pointer
    }

    public var description: String {
        var text = ""
        for token in tokens {
            text += "/"
            // Most tokens need no escape: Foundation's replacing, which copies every token twice, is left for those that do.
            if token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) {
                text += token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
            } else {
                text += token
            }
        }
        return text
    }

    /// True for the whole document (`""`).
    public var isRoot: Bool { tokens.isEmpty }
    /// The pointer one level up; nil for the whole document.
    public var parent: JSONPointer? { tokens.isEmpty ? nil : JSONPointer(tokens: Array(tokens.dropLast())) }
    /// The last reference token (`"3"` in `/todos/3`); nil for the whole document.
    public var lastToken: String? { tokens.last }

    /// The pointer to member or element `token` below this one.
    public func appending(_ token: String) -> JSONPointer { JSONPointer(tokens: tokens + [token]) }
    /// The pointer to array element `index` below this one.
    public func appending(_ index: Int) -> JSONPointer { appending(String(index)) }

    /// True when `self` equals `other` or lies inside it.
    public func hasPrefix(_ other: JSONPointer) -> Bool {
        other.tokens.count <= tokens.count && tokens[..<other.tokens.count].elementsEqual(other.tokens) { $0.hasSameScalars(as: $1) }
    }

    public static func == (lhs: JSONPointer, rhs: JSONPointer) -> Bool { lhs.tokens.haveSameScalars(as: rhs.tokens) }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(tokens.count)
        for token in tokens { token.hashScalars(into: &hasher) }
    }
}

/// Why text is not a JSON Pointer (RFC 6901). `description` is one line: the pointer, then why.
public struct JSONPointerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text that was given.
    public var pointer: String
    /// What is wrong with it, for people.
    public var reason: String
    public var description: String { "invalid JSON Pointer \"\(pointer)\": \(reason)" }
}

extension JSONPointer {
    /// Array index for an RFC 6901 token: decimal digits, no leading zeros.
    package static func arrayIndex(_ token: String) -> Int? {
        // From the bytes: `Int(String)` cost more than the rest of a value's look-up.
        if let index = token.utf8.withContiguousStorageIfAvailable({ digits -> Int?? in
            guard digits.count <= 18 else { return .none }   // may overflow: the general way below
            guard let first = digits.first, first >= 0x30 && first <= 0x39, digits.count == 1 || first != 0x30 else { return .some(nil) }
            var value = 0
            for digit in digits {
                guard digit >= 0x30 && digit <= 0x39 else { return .some(nil) }
                value = value &* 10 &+ Int(digit &- 0x30)
            }
            return .some(value)
        }), let index { return index }
        guard !token.isEmpty, token.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        if token.utf8.count > 1 && token.utf8.first == 0x30 { return nil }
        return Int(token)
    }
}

extension JSONValue {
    /// The value at `pointer`, or `nil` when the path does not exist.
    public subscript(pointer pointer: JSONPointer) -> JSONValue? { value(atTokens: pointer.tokens) }

    /// The value at a pointer's reference tokens (all of them, or a tail of them), or `nil`.
    package func value(atTokens tokens: some Sequence<String>) -> JSONValue? {
        var current = self
        for token in tokens {
            switch current {
            case .object(let object):
                guard let next = object[token] else { return nil }
                current = next
            case .array(let elements):
                guard let index = JSONPointer.arrayIndex(token), index < elements.count else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }
}
