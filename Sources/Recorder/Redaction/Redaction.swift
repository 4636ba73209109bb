/// Rules that hide secrets before anything is written.
///
/// A rule is either a key name or a JSON Pointer pattern:
/// - `password` hides every member named `password`, at any depth;
/// - `/user/email` hides exactly that path;
/// - `*` stands for any one key or index and `**` for any number of them, so
///   `/users/*/token` hides the token of every user and `*/token` (no leading
///   slash, so it may start at any depth) hides every `token` that has a parent.
///
/// A hidden value becomes a marker such as `"‹redacted 5f0c21a9›"`. The hex
/// digits are a keyed hash of the value, so a diff still shows *whether* a
/// secret changed; the key is random and never written, so the marker cannot be
/// checked against guesses.
///
/// ```swift
/// let redaction = try Redaction(rules: ["password", "/user/email"])
/// redaction.redact(["user": ["email": "a@b.c", "name": "Ann"]])
/// // {"user":{"email":"‹redacted 1c9a03fe›","name":"Ann"}}
/// ```
public struct Redaction: Sendable {
    /// The rules as given, in order.
    public let rules: [String]
    private let patterns: [_Pattern]
    private let key: (UInt64, UInt64)

    /// - Throws: ``RedactionRuleError`` for an empty rule or a malformed pointer.
    public init(rules: [String]) throws(RedactionRuleError) {
        self.rules = rules
        var patterns: [_Pattern] = []
        for rule in rules {
            patterns.append(try _Pattern(rule))
        }
        self.patterns = patterns
        var generator = SystemRandomNumberGenerator()
        self.key = (generator.next(), generator.next())
    }

    /// True when there are no rules (redaction is then a no-op).
    public var isEmpty: Bool { patterns.isEmpty }

    /// The value with every matching member replaced by its marker.
    public func redact(_ value: JSONValue) -> JSONValue {
        guard !patterns.isEmpty else { return value }
        var path: [String] = []
        return redact(value, path: &path)
    }

    /// The marker that stands in for `value`.
    public func marker(for value: JSONValue) -> JSONValue {
        var hasher = Hasher()
        hasher.combine(key.0)
        hasher.combine(key.1)
        hasher.combine(JSONWriter.compact(value))
        let digest = UInt32(truncatingIfNeeded: hasher.finalize())
        let hex = String(digest, radix: 16)
        return .string("‹redacted \(String(repeating: "0", count: 8 - hex.count))\(hex)›")
    }

    private func redact(_ value: JSONValue, path: inout [String]) -> JSONValue {
        if !path.isEmpty, patterns.contains(where: { $0.matches(path) }) { return marker(for: value) }
        switch value {
        case .object(let object):
            var result = JSONObject()
            for (name, member) in object.members {
                path.append(name)
                result[name] = redact(member, path: &path)
                path.removeLast()
            }
            return .object(result)
        case .array(let elements):
            return .array(elements.enumerated().map { index, element in
                path.append(String(index))
                defer { path.removeLast() }
                return redact(element, path: &path)
            })
        default:
            return value
        }
    }
}

/// Why a redaction rule was refused. `description` is one line: the rule, then what is wrong with it.
public struct RedactionRuleError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The rule as it was given.
    public var rule: String
    /// What is wrong with it, for people.
    public var reason: String
    public var description: String { "invalid redaction rule \"\(rule)\": \(reason)" }
}

/// One compiled rule: segments matched against the path from the root.
private struct _Pattern: Sendable {
    enum Segment: Sendable, Equatable { case literal(String), anyOne, anyMany }
    let segments: [Segment]

    init(_ rule: String) throws(RedactionRuleError) {
        guard !rule.isEmpty, rule != "/" else { throw RedactionRuleError(rule: rule, reason: "a rule must name a key or a path") }
        let anchored = rule.hasPrefix("/")
        let pointer: JSONPointer
        do {
            pointer = try JSONPointer(parsing: anchored ? rule : "/" + rule)
        } catch {
            throw RedactionRuleError(rule: rule, reason: error.reason)
        }
        if pointer.tokens.contains("") { throw RedactionRuleError(rule: rule, reason: "empty path segment") }
        let segments = pointer.tokens.map { token -> Segment in
            switch token {
            case "*": .anyOne
            case "**": .anyMany
            default: .literal(token)
            }
        }
        // An unanchored rule may begin at any depth.
        self.segments = anchored ? segments : [.anyMany] + segments
    }

    func matches(_ path: [String]) -> Bool { Self.match(segments[...], path[...]) }

    private static func match(_ segments: ArraySlice<Segment>, _ path: ArraySlice<String>) -> Bool {
        guard let first = segments.first else { return path.isEmpty }
        switch first {
        case .anyMany:
            var rest = path
            while true {
                if match(segments.dropFirst(), rest) { return true }
                guard !rest.isEmpty else { return false }
                rest = rest.dropFirst()
            }
        case .anyOne:
            return !path.isEmpty && match(segments.dropFirst(), path.dropFirst())
        case .literal(let name):
            return path.first == name && match(segments.dropFirst(), path.dropFirst())
        }
    }
}
