extension Int {
    /// `1 change`, `2 changes`: a count with its noun in the right number.
    func counted(_ singular: String, _ plural: String) -> String {
        "\(self) \(self == 1 ? singular : plural)"
    }
}

extension String {
    /// Text from a recording (or a peer), for a terminal: control characters (C0, DEL,
    /// C1), the bidirectional overrides and isolates that reorder what follows them
    /// (U+202A–U+202E, U+2066–U+2069, U+061C, U+200E/U+200F) and the line and paragraph
    /// separators (U+2028/U+2029) written as `\u{7f}`. The one function every command's
    /// plain output, the listener's messages and errors pass outside text through, so a
    /// recording never sends a terminal an escape sequence or reorders a line. Files
    /// for other tools (JSON, JSON Patch, Redux DevTools) keep exact values instead.
    var escapingControlCharacters: String {
        // Nothing to escape is by far the common case: no copy then.
        guard unicodeScalars.contains(where: \.needsEscapingForTerminal) else { return self }
        var result = ""
        for scalar in unicodeScalars {
            if scalar.needsEscapingForTerminal {
                result += "\\u{" + String(scalar.value, radix: 16) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

extension Unicode.Scalar {
    /// C0, DEL, C1, bidi controls and line/paragraph separators (see ``Swift/String/escapingControlCharacters``).
    var needsEscapingForTerminal: Bool {
        switch value {
        case 0..<0x20, 0x7F..<0xA0: true
        case 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}

extension String {
    /// Multi-line text for a terminal (a tree diff, a Markdown report, pretty JSON):
    /// as ``escapingControlCharacters`` but newlines and tabs stay. Inside JSON strings
    /// the writer has already escaped C0; what is left (DEL, C1, bidi controls, line
    /// separators) is written `\u0085`, which in JSON is the same value.
    var escapingControlCharactersKeepingLines: String {
        escaping { $0.needsEscapingForTerminal && $0 != "\n" && $0 != "\t" }
    }

    /// Only DEL, C1, bidi controls and line separators, as `\u0085`: what the command-line
    /// streams escape on their way to a terminal (C0 is the commands' own to escape).
    var escapingC1AndBidiControls: String {
        escaping { $0.needsEscapingForTerminal && $0.value >= 0x7F }
    }

    private func escaping(_ needsEscape: (Unicode.Scalar) -> Bool) -> String {
        guard unicodeScalars.contains(where: needsEscape) else { return self }
        var result = ""
        for scalar in unicodeScalars {
            if needsEscape(scalar) {
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
