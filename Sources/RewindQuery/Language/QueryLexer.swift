import Recorder

/// A word, symbol or value of a query, with the column it starts at.
struct QueryToken: Equatable {
    enum Kind: Equatable {
        /// `/cart/total`: a JSON Pointer.
        case pointer(JSONPointer)
        /// `"Ann"`, `42`, `-1.5`, `true`, `false`, `null`.
        case literal(JSONValue)
        /// `==`, `<`, `(`, `&&`, …
        case symbol(String)
        /// A bare word: a keyword (`and`, `exists`, `action`, …) or an action type.
        case word(String)
        case end
    }

    var kind: Kind
    /// 1-based column of the token's first character.
    var column: Int
    /// The token as typed, for error messages.
    var text: String
}

/// Splits a query into tokens; a string, number or pointer that is malformed
/// is reported at its column.
enum QueryLexer {
    /// Characters that end a pointer or a bare word.
    private static let delimiters: Set<Character> = ["(", ")", "=", "!", "<", ">", "\"", "&", "|"]

    static func tokens(_ text: String) throws(QueryError) -> [QueryToken] {
        let characters = Array(text)
        var tokens: [QueryToken] = []
        var position = 0
        func token(_ kind: QueryToken.Kind, from start: Int) {
            tokens.append(QueryToken(kind: kind, column: start + 1, text: String(characters[start..<position])))
        }
        while position < characters.count {
            let character = characters[position]
            let start = position
            if character.isWhitespace {
                position += 1
                continue
            }
            switch character {
            case "(", ")":
                position += 1
                token(.symbol(String(character)), from: start)
            case "=", "!", "<", ">":
                position += 1
                if position < characters.count, characters[position] == "=" { position += 1 }
                let symbol = String(characters[start..<position])
                if symbol == "=" { throw QueryError(column: start + 1, reason: "'=' is not an operator; compare with '=='") }
                token(.symbol(symbol), from: start)
            case "&", "|":
                position += 1
                guard position < characters.count, characters[position] == character else {
                    throw QueryError(column: start + 1, reason: "'\(character)' is not an operator; use '\(character)\(character)' or '\(character == "&" ? "and" : "or")'")
                }
                position += 1
                token(.word(character == "&" ? "and" : "or"), from: start)
            case "\"":
                position += 1
                var escaped = false
                while position < characters.count, escaped || characters[position] != "\"" {
                    escaped = !escaped && characters[position] == "\\"
                    position += 1
                }
                guard position < characters.count else { throw QueryError(column: start + 1, reason: "the string is not closed (missing '\"')") }
                position += 1
                let literal = String(characters[start..<position])
                guard let value = try? JSONParser.parse(literal) else {
                    throw QueryError(column: start + 1, reason: "\(Self.shownEscaped(literal)) is not a valid string (JSON escapes only)")
                }
                token(.literal(value), from: start)
            case "/":
                while position < characters.count, !characters[position].isWhitespace, !delimiters.contains(characters[position]) { position += 1 }
                let text = String(characters[start..<position])
                do {
                    token(.pointer(try JSONPointer(parsing: text)), from: start)
                } catch {
                    throw QueryError(column: start + 1, reason: error.description)
                }
            default:
                while position < characters.count, !characters[position].isWhitespace, !delimiters.contains(characters[position]) { position += 1 }
                let word = String(characters[start..<position])
                if character == "-" || character.isNumber {
                    guard let value = try? JSONParser.parse(word), value.doubleValue != nil else {
                        throw QueryError(column: start + 1, reason: "'\(word)' is not a number")
                    }
                    token(.literal(value), from: start)
                } else {
                    switch word {
                    case "true": token(.literal(true), from: start)
                    case "false": token(.literal(false), from: start)
                    case "null": token(.literal(.null), from: start)
                    default: token(.word(word), from: start)
                    }
                }
            }
        }
        tokens.append(QueryToken(kind: .end, column: characters.count + 1, text: ""))
        return tokens
    }

    /// A string literal as the user would have to write it: its control characters
    /// (a raw newline, which JSON strings may not hold) as JSON escapes, so a reason stays one line.
    static func shownEscaped(_ literal: String) -> String {
        var shown = ""
        for scalar in literal.unicodeScalars {
            switch scalar {
            case "\n": shown += "\\n"
            case "\r": shown += "\\r"
            case "\t": shown += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                shown += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }
}
