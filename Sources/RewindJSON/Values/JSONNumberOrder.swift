// The order of JSON numbers by their exact value: what `JSONValue`'s equality
// of numbers means (equal exactly when neither comes first), and what the query
// language's `<` and `>` compare (docs/QUERIES.md, "What comparisons mean").

extension JSONValue {
    /// How two finite numbers compare by exact value: -1, 0 or 1; nil when either
    /// is not a number, or is a non-finite double (written as a string).
    ///
    /// A double's value is that of the shortest text that reads back to it, which is
    /// what is written (`0.1` is one tenth); integers and `.number`s are exactly
    /// their digits, however many. `-0.0` is not `0` (it is recorded as a different
    /// value), so it comes right before it, as in IEEE 754's total order.
    ///
    /// ```swift
    /// JSONValue.numberOrder(9007199254740993, 9007199254740992.0)   // 1
    /// JSONValue.numberOrder(1, 1.0)                                 // 0
    /// JSONValue.numberOrder(-0.0, 0)                                // -1
    /// ```
    package static func numberOrder(_ a: JSONValue, _ b: JSONValue) -> Int? {
        switch (a, b) {
        case (.integer(let x), .integer(let y)):
            return x < y ? -1 : x == y ? 0 : 1
        case (.double(let x), .double(let y)):
            guard x.isFinite, y.isFinite else { return nil }
            return doubleOrder(x, y)
        case (.integer(let x), .double(let y)):
            return integerOrder(x, y)
        case (.double(let x), .integer(let y)):
            return integerOrder(y, x).map { -$0 }
        default:
            guard let x = _ExactDecimal(a), let y = _ExactDecimal(b) else { return nil }
            return x.order(y)
        }
    }

    /// Finite doubles: their values are in the order of their shortest texts (rounding is monotonic), -0 before 0.
    private static func doubleOrder(_ x: Double, _ y: Double) -> Int {
        if x < y { return -1 }
        if x > y { return 1 }
        return x.sign == y.sign ? 0 : x.sign == .minus ? -1 : 1
    }

    /// An integer against a double, exactly.
    private static func integerOrder(_ x: Int64, _ y: Double) -> Int? {
        guard y.isFinite else { return nil }
        // Below 2^53 every integer is a double and a whole double is its own shortest
        // text, so comparing as doubles is exact (an integer beyond rounds, but stays beyond).
        if y.magnitude < 0x1p53 {
            let order = doubleOrder(Double(x), y)
            // 0 against -0.0: the integer is +0, after it.
            return order == 0 && x == 0 && y.sign == .minus ? 1 : order
        }
        guard let left = _ExactDecimal(.integer(x)), let right = _ExactDecimal(.double(y)) else { return nil }
        return left.order(right)
    }
}

/// A finite number as its sign, its significant digits and where they sit:
/// ±0.d₁d₂…dₙ × 10^(exponent + offset), digits without leading or trailing zeros
/// (none for zero), the exponent as written (any length), the offset what the
/// digits' position adds. Ordered and compared exactly, whatever the sizes.
struct _ExactDecimal {
    var isNegative: Bool
    var digits: [UInt8]
    var exponent: _DecimalInteger
    var offset: Int

    /// The number `value` holds; nil for anything else, a non-finite double included.
    init?(_ value: JSONValue) {
        switch value {
        case .integer(let integer): self.init(text: String(integer))
        case .double(let double) where double.isFinite: self.init(text: double.description)
        case .number(let number): self.init(text: number.text)
        default: return nil
        }
    }

    /// Number text as JSON spells it (and as `Double.description` does: `1e-05`, `-0.0`).
    init(text: String) {
        let bytes = Array(text.utf8)
        var index = 0
        isNegative = bytes.first == UInt8(ascii: "-")
        if isNegative { index = 1 }
        var mantissa: [UInt8] = []
        var fractionDigits = 0
        var seenPoint = false
        while index < bytes.count, bytes[index] == UInt8(ascii: ".") || (bytes[index] >= 0x30 && bytes[index] <= 0x39) {
            if bytes[index] == UInt8(ascii: ".") {
                seenPoint = true
            } else {
                if seenPoint { fractionDigits += 1 }
                mantissa.append(bytes[index])
            }
            index += 1
        }
        exponent = _DecimalInteger(bytes[min(index + 1, bytes.count)...])
        let leadingZeros = mantissa.prefix { $0 == 0x30 }.count
        let trailingZeros = mantissa[leadingZeros...].reversed().prefix { $0 == 0x30 }.count
        digits = Array(mantissa[leadingZeros..<(mantissa.count - trailingZeros)])
        // The value is mantissa × 10^(exponent − fractionDigits): the digits kept, their count
        // and the zeros dropped after them move the point.
        offset = digits.count + trailingZeros - fractionDigits
    }

    var isZero: Bool { digits.isEmpty }

    /// -1, 0 or 1.
    func order(_ other: _ExactDecimal) -> Int {
        // -x < -0 < +0 < x.
        let rank = signRank, otherRank = other.signRank
        if rank != otherRank { return rank < otherRank ? -1 : 1 }
        if isZero { return 0 }
        let magnitude = magnitudeOrder(other)
        return isNegative ? -magnitude : magnitude
    }

    private var signRank: Int { isZero ? (isNegative ? 1 : 2) : (isNegative ? 0 : 3) }

    /// Both not zero: the one whose first digit sits higher is larger; at the same height, the digits decide.
    private func magnitudeOrder(_ other: _ExactDecimal) -> Int {
        let height = _DecimalInteger.order(exponent, plus: offset, other.exponent, plus: other.offset)
        if height != 0 { return height }
        for (mine, theirs) in zip(digits, other.digits) where mine != theirs { return mine < theirs ? -1 : 1 }
        return digits.count == other.digits.count ? 0 : digits.count < other.digits.count ? -1 : 1
    }
}

/// An exponent as written, a decimal integer of any length (JSON sets no bound).
struct _DecimalInteger {
    var isNegative = false
    /// Digits (ASCII) without leading zeros; none for zero.
    var digits: [UInt8] = []

    /// `e+12`'s `+12` (what follows the `e`); nothing is zero.
    init(_ text: ArraySlice<UInt8>) {
        var text = text
        if let sign = text.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            isNegative = sign == UInt8(ascii: "-")
            text = text.dropFirst()
        }
        digits = Array(text.drop { $0 == 0x30 })
        if digits.isEmpty { isNegative = false }
    }

    /// The value when it has at most 18 digits (so adding an offset cannot overflow).
    private var small: Int? {
        guard digits.count <= 18 else { return nil }
        let magnitude = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        return isNegative ? -magnitude : magnitude
    }

    /// How `a + offsetA` compares with `b + offsetB` (offsets are small: a text's length at most).
    static func order(_ a: _DecimalInteger, plus offsetA: Int, _ b: _DecimalInteger, plus offsetB: Int) -> Int {
        let difference: Int
        if let x = a.small, let y = b.small {
            difference = x - y
        } else if let near = nearDifference(a, b) {
            difference = near
        } else {
            // At least 10^18 apart: no offset bridges that.
            return greater(a, b) ? 1 : -1
        }
        let total = difference + offsetA - offsetB
        return total < 0 ? -1 : total == 0 ? 0 : 1
    }

    /// `a − b` when it is under 2·10^18 in size (one of them has more than 18 digits); nil when further apart.
    private static func nearDifference(_ a: _DecimalInteger, _ b: _DecimalInteger) -> Int? {
        guard a.isNegative == b.isNegative || (a.digits.isEmpty || b.digits.isEmpty) else { return nil }
        let negative = a.isNegative || b.isNegative
        let width = max(a.digits.count, b.digits.count)
        let x = [UInt8](repeating: 0x30, count: width - a.digits.count) + a.digits
        let y = [UInt8](repeating: 0x30, count: width - b.digits.count) + b.digits
        // Split into a high part and the last 18 digits: the magnitudes are near only when the high parts differ by at most one.
        let split = max(0, width - 18)
        func low(_ digits: [UInt8]) -> Int { digits[split...].reduce(0) { $0 * 10 + Int($1 - 0x30) } }
        let (highX, highY) = (Array(x[..<split]), Array(y[..<split]))
        let magnitude: Int
        if highX == highY {
            magnitude = low(x) - low(y)
        } else if increment(highY) == highX {
            magnitude = 1_000_000_000_000_000_000 + low(x) - low(y)
        } else if increment(highX) == highY {
            magnitude = -1_000_000_000_000_000_000 + low(x) - low(y)
        } else {
            return nil
        }
        return negative ? -magnitude : magnitude
    }

    /// Digits (ASCII, fixed width) plus one, in the same width (with a carry out, one wider).
    private static func increment(_ digits: [UInt8]) -> [UInt8] {
        var digits = digits
        var index = digits.count - 1
        while index >= 0 {
            if digits[index] < 0x39 {
                digits[index] += 1
                return digits
            }
            digits[index] = 0x30
            index -= 1
        }
        return [0x31] + digits
    }

    /// Whether `a > b` (they are not equal).
    private static func greater(_ a: _DecimalInteger, _ b: _DecimalInteger) -> Bool {
        if a.isNegative != b.isNegative { return b.isNegative }
        let magnitudeGreater = a.digits.count != b.digits.count
            ? a.digits.count > b.digits.count
            : a.digits.lexicographicallyPrecedes(b.digits) == false && a.digits != b.digits
        return a.isNegative ? !magnitudeGreater : magnitudeGreater
    }
}
