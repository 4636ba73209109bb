/// A JSON document in memory.
///
/// Objects keep their keys in the order they were encoded or parsed, so a
/// recorded state prints the way the app's types declare it. Numbers keep
/// their exact value: integers that fit in 64 bits are `.integer`, numbers a
/// `Double` writes back unchanged are `.double` (`-0.0` included), and the
/// rest (`UInt64.max`, a 38-digit `Decimal`, `1e400`) are `.number`, kept as
/// their text.
///
/// ```swift
/// let state: JSONValue = ["count": 1, "todos": ["buy milk"]]
/// state["count"]            // .integer(1)
/// ```
///
/// Equality is JSON's, exactly: numbers compare by value (`1 == 1.0`, but
/// `-0.0 != 0`), object members regardless of order, and strings and keys by
/// their Unicode scalars, so `"é"` (U+00E9) and `"e\u{301}"` differ. JSON has
/// no NaN or infinity; Rewind writes them as the strings `"NaN"`,
/// `"Infinity"` and `"-Infinity"`, so `.double(.nan)` equals itself and
/// `.string("NaN")` (see docs/JSON.md).
public enum JSONValue: Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A whole number that fits in 64 bits, signed.
    case integer(Int64)
    /// A number whose `Double` writes back with the value read (`0.1`,
    /// `-0.0`, `1e300`), or a non-finite double (written as a string).
    case double(Double)
    /// A number neither of the above holds exactly, kept as its JSON text.
    case number(JSONNumber)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object; its members keep their order.
    case object(JSONObject)
}

extension JSONValue {
    /// The member named `key` when this is an object, otherwise `nil`.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let object) = self else { return nil }
        return object[key]
    }

    /// The element at `index` when this is an array and the index is in range.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// A short name for the kind of value, for error messages: "object", "array", …
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .integer, .double, .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// The numeric value of a number, as the nearest `Double` (a `.number`
    /// beyond `Double`'s range is ±infinity), otherwise `nil`.
    public var doubleValue: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .double(let value): value
        case .number(let value): value.doubleValue
        default: nil
        }
    }

    /// The text of a `.string`, otherwise `nil`.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The elements of an `.array`, otherwise `nil`.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The members of an `.object`, otherwise `nil`.
    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The flag of a `.bool`, otherwise `nil`.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// A number that is a whole number in `Int64`'s range, otherwise `nil`.
    public var int64Value: Int64? {
        switch self {
        case .integer(let value): value
        case .double(let value) where value.rounded() == value && abs(value) < 9.2e18: Int64(value)
        case .number(let value): value.isIntegerLiteral ? Int64(value.text) : nil
        default: nil
        }
    }
}

// Numbers compare by value (1 == 1.0) and objects ignore key order, because
// that is what JSON means; key order is kept only for display. A double's
// value is that of the shortest text that reads back to it, which is what is
// written: exactly what a `.number` holding that text equals.
extension JSONValue: Equatable {
    // Values of different kinds (numbers of different cases, a non-finite
    // double and a string) are rare: compared out of line, so this stays small.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.integer(let a), .integer(let b)): return a == b
        case (.double(let a), .double(let b)): return a == b ? a.sign == b.sign : a.isNaN && b.isNaN
        case (.string(let a), .string(let b)): return a.hasSameScalars(as: b)
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)): return a == b
        case (.null, _), (.bool, _), (.array, _), (.object, _): return false
        default: break
        }
        return mixedKinds(lhs, rhs)
    }

    /// Two values of different cases, or two `.number`s.
    @inline(never)
    private static func mixedKinds(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.integer(let a), .double(let b)), (.double(let b), .integer(let a)): integer(a, equals: b)
        case (.number(let a), .number(let b)): a == b
        // One definition of a number's value for equality and order (`numberOrder`).
        case (.number, .integer), (.integer, .number), (.number, .double), (.double, .number): numberOrder(lhs, rhs) == 0
        case (.double(let a), .string(let b)), (.string(let b), .double(let a)): nonFinite(a, isNamed: b)
        default: false
        }
    }

    private static func integer(_ integer: Int64, equals double: Double) -> Bool {
        // Equal values convert to the same double, so this rules out the rest cheaply.
        guard Double(integer) == double else { return false }
        // Below 2^53 a whole double is its own shortest text; -0.0 is not 0.
        if double.magnitude < 0x1p53 { return integer != 0 || double.sign == .plus }
        return _DecimalValue(integer) == _DecimalValue(double)
    }

    /// Whether `double` is written as the string `name`.
    private static func nonFinite(_ double: Double, isNamed name: String) -> Bool {
        nonFiniteName(double).map { name.hasSameScalars(as: $0) } ?? false
    }

    /// The string a non-finite double is written as; nil for a finite one.
    static func nonFiniteName(_ double: Double) -> String? {
        if double.isFinite { return nil }
        return double.isNaN ? "NaN" : double < 0 ? "-Infinity" : "Infinity"
    }
}

extension JSONValue: Hashable {
    // Equal numbers of different cases hash as their nearest double; a
    // non-finite double hashes as the string it is written as.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value): hasher.combine(value)
        case .integer(let value): hasher.combine(Double(value))
        case .double(let value):
            if let name = Self.nonFiniteName(value) { name.hashScalars(into: &hasher) } else { hasher.combine(value) }
        case .number(let value): hasher.combine(value)
        case .string(let value): value.hashScalars(into: &hasher)
        case .array(let value): hasher.combine(value)
        case .object(let value): hasher.combine(value)
        }
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements))
    }
}
