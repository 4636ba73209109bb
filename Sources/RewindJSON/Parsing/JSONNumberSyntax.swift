/// RFC 8259's number grammar, in one place for the parser (which goes on to
/// convert the number) and the log's record skimmer (which only judges it).
package struct JSONNumberSyntax {
    /// One past the number's last byte.
    package var end: Int
    package var isNegative: Bool
    /// Digits before the point, not counting the sign.
    package var integerDigitCount: Int
    /// The value of those digits, accumulated while scanning: exact up to 18
    /// digits (it wraps beyond, and must not be used then).
    var integerMagnitude: UInt64
    var hasFraction: Bool
    /// Digits of the exponent; 0 when there is none.
    package var exponentDigitCount: Int

    package var isInteger: Bool { !hasFraction && exponentDigitCount == 0 }

    /// Why the bytes are not a number, and where.
    package struct Failure: Error {
        var reason: String
        var offset: Int
    }

    /// Scans the number that starts at `start` (a '-' or a digit).
    @inline(__always)
    package static func scan(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) throws(Failure) -> JSONNumberSyntax {
        var position = start
        let isNegative = bytes[position] == UInt8(ascii: "-")
        if isNegative { position += 1 }
        guard position < bytes.count, isDigit(bytes[position]) else { throw Failure(reason: "expected a digit in a number", offset: position) }
        let digitsStart = position
        var magnitude: UInt64 = 0
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if position < bytes.count && isDigit(bytes[position]) { throw Failure(reason: "leading zeros are not allowed in numbers", offset: position) }
        } else {
            while position < bytes.count && isDigit(bytes[position]) {
                magnitude = magnitude &* 10 &+ UInt64(bytes[position] &- 0x30)
                position += 1
            }
        }
        var syntax = JSONNumberSyntax(end: position, isNegative: isNegative, integerDigitCount: position - digitsStart,
                                      integerMagnitude: magnitude, hasFraction: false, exponentDigitCount: 0)
        if position < bytes.count && bytes[position] == UInt8(ascii: ".") {
            syntax.hasFraction = true
            position += 1
            guard position < bytes.count, isDigit(bytes[position]) else { throw Failure(reason: "expected a digit after the decimal point", offset: position) }
            while position < bytes.count && isDigit(bytes[position]) { position += 1 }
        }
        if position < bytes.count && bytes[position] | 0x20 == UInt8(ascii: "e") {
            position += 1
            if position < bytes.count && (bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")) { position += 1 }
            let exponentStart = position
            guard position < bytes.count, isDigit(bytes[position]) else { throw Failure(reason: "expected a digit in the exponent", offset: position) }
            while position < bytes.count && isDigit(bytes[position]) { position += 1 }
            syntax.exponentDigitCount = position - exponentStart
        }
        syntax.end = position
        return syntax
    }

    @inline(__always) private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

}
