import Foundation

/// Text from a recording (action types, payloads, values, file and type names) made
/// safe for the place it takes in the Swift source `rewind testgen` writes: a `//`
/// comment, a string literal or an identifier. A recording is data from elsewhere
/// (a colleague's bug report, an imported Redux DevTools file), so none of it may end
/// a comment, end a literal, or declare anything.
enum SwiftSource {
    /// Scalars never written raw: C0 controls (newline and carriage return end a `//`
    /// comment, and a string literal rejects all of them), DEL (rejected in literals), C1
    /// controls, the line and paragraph separators, the bidirectional controls that make
    /// source read differently from how it compiles, and the byte order mark.
    static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F..<0xA0: true
        case 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069, 0xFEFF: true
        default: false
        }
    }

    /// The text of a `//` comment line: every escaped scalar as `\u{d}`, so nothing ends the comment.
    static func comment(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if isEscaped(scalar) { result += "\\u{" + String(scalar.value, radix: 16) + "}" } else { result.unicodeScalars.append(scalar) }
        }
        return result
    }

    /// `"…"`: quotes and backslashes escaped, escaped scalars as `\u{…}`.
    static func stringLiteral(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if isEscaped(scalar) { result += "\\u{" + String(scalar.value, radix: 16) + "}" } else { result.unicodeScalars.append(scalar) }
            }
        }
        return result + "\""
    }

    /// A literal that reads like `text` (JSON keeps its quotes and backslashes as they are):
    /// plain quotes when nothing needs them, else `#"…"#` with as many `#` as the text needs;
    /// escaped scalars as `\#u{…}` (with that many `#`), so the string holds exactly `text`.
    static func rawStringLiteral(_ text: String) -> String {
        let escapes = text.unicodeScalars.contains(where: isEscaped)
        if !escapes && !text.contains("\"") && !text.contains("\\") { return "\"" + text + "\"" }
        var hashes = "#"
        while text.contains("\"" + hashes) || text.contains("\\" + hashes) { hashes += "#" }
        var body = ""
        for scalar in text.unicodeScalars {
            if isEscaped(scalar) { body += "\\" + hashes + "u{" + String(scalar.value, radix: 16) + "}" } else { body.unicodeScalars.append(scalar) }
        }
        return hashes + "\"" + body + "\"" + hashes
    }

    /// A type name from a file name: `todo-checkout.swift` → `TodoCheckout`. Letters outside
    /// ASCII are kept where Swift accepts them in an identifier; a name Swift reserves or one
    /// that would hide a type the test itself uses (`Self`, `Any`, `Void`, `XCTestCase`, or a
    /// name in `avoiding`: the reducer's and the imported modules') gets `Tests` after it.
    static func typeName(from fileName: String, avoiding: Set<String> = []) -> String {
        let base = (fileName as NSString).deletingPathExtension
        var words: [String] = []
        var word = ""
        for scalar in base.unicodeScalars {
            // `_` separates words as `-` and spaces do: `todo_flow` → `TodoFlow`.
            if isIdentifierScalar(scalar) && scalar != "_" {
                word.unicodeScalars.append(scalar)
            } else if !word.isEmpty {
                words.append(word)
                word = ""
            }
        }
        if !word.isEmpty { words.append(word) }
        var name = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        if let first = name.unicodeScalars.first, !(first.properties.isXIDStart || first == "_") { name = "Recording" + name }
        if name.isEmpty { name = "Recording" }
        if reservedTypeNames.contains(name) || avoiding.contains(name) { name += "Tests" }
        return name
    }

    /// The identifiers in a piece of Swift (`TodoDomain.reduce` → `TodoDomain`, `reduce`),
    /// for ``typeName(from:avoiding:)``: a test type must not hide what its reducer names.
    static func identifiers(in code: String) -> Set<String> {
        var found: Set<String> = []
        var word = ""
        for scalar in code.unicodeScalars {
            if isIdentifierScalar(scalar) { word.unicodeScalars.append(scalar) } else if !word.isEmpty { found.insert(word); word = "" }
        }
        if !word.isEmpty { found.insert(word) }
        return found
    }

    /// Whether `text` can be written as one Swift identifier (a module name after `import`).
    static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first.properties.isXIDStart || first == "_" else { return false }
        return text.unicodeScalars.allSatisfy(isIdentifierScalar) && !reservedTypeNames.contains(text)
    }

    /// A type's name from a log header (`AppState`, `Array<Todo>`, `MyApp.Action`) for an
    /// editor placeholder, or nil when it holds anything else (`#>` would end the placeholder).
    static func typeExpression(_ text: String?) -> String? {
        guard let text, !text.isEmpty, text.utf8.count <= 200 else { return nil }
        let punctuation: Set<Unicode.Scalar> = [".", "<", ">", ",", " ", "[", "]", "?", ":", "(", ")"]
        return text.unicodeScalars.allSatisfy { isIdentifierScalar($0) || punctuation.contains($0) } ? text : nil
    }

    private static func isIdentifierScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII ? (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_")
            : scalar.properties.isXIDContinue && !isEscaped(scalar)
    }

    /// Names a generated test's own type may not take: Swift's keywords that start with a
    /// capital, and the types the test and the macros it uses refer to without qualifying.
    static let reservedTypeNames: Set<String> = [
        "Self", "Any", "Type", "Protocol", "Void", "Never", "Bool", "Int", "String", "Error", "Optional", "Array", "Dictionary",
        "Sendable", "Result", "Task", "Foundation", "Testing", "XCTest", "XCTestCase", "RewindTesting", "Recorder",
        "FixtureReplay", "Suite", "Test", "Trait", "Issue", "Comment", "SourceLocation",
    ]
}
