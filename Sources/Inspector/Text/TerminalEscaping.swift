extension String {
    /// Text from outside (a recording, a peer, a file name), for a terminal, on one line:
    /// every character that could control or reorder the terminal is written `\u001b`.
    /// That is C0 (newline and tab included, so a value cannot forge a line of a listing),
    /// DEL, C1 (U+0080–U+009F, which some terminals obey as ESC sequences), the
    /// bidirectional controls that reorder what follows them (U+061C, U+200E/U+200F,
    /// U+202A–U+202E, U+2066–U+2069) and the line and paragraph separators (U+2028/U+2029).
    ///
    /// The one function for outside text on a terminal: commands escape each field they
    /// put on a line with it, and ``TextStreams`` passes everything they print through
    /// ``escapingControlCharactersKeepingLines``. The form is JSON's, so inside a JSON
    /// string it stands for the same value: printed JSON stays exact. Files for other
    /// tools (JSON, JSON Patch, Redux DevTools, log slices) are written unescaped.
    var escapingControlCharacters: String {
        TerminalEscaping.escape(self, keepingLineBreaks: false)
    }

    /// The same for text of several lines (a report, a tree diff, pretty-printed JSON):
    /// newlines and tabs stay, everything else ``escapingControlCharacters`` escapes is escaped.
    var escapingControlCharactersKeepingLines: String {
        TerminalEscaping.escape(self, keepingLineBreaks: true)
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

enum TerminalEscaping {
    /// Whether UTF-8 `bytes` may hold a scalar to escape: a look at the bytes alone, no decoding.
    static func mayNeedEscaping(_ bytes: UnsafeBufferPointer<UInt8>, keepingLineBreaks: Bool) -> Bool {
        bytes.contains { mayNeedEscaping($0, keepingLineBreaks: keepingLineBreaks) }
    }

    /// Whether `byte` may start a scalar to escape: every such scalar starts with a byte below
    /// 0x20, 0x7F, or a lead byte 0xC2 (C1), 0xD8 (U+061C) or 0xE2 (U+2000–U+2FFF).
    @inline(__always)
    static func mayNeedEscaping(_ byte: UInt8, keepingLineBreaks: Bool) -> Bool {
        byte < 0x20 ? !(keepingLineBreaks && (byte == 0x0A || byte == 0x09)) : byte == 0x7F || byte == 0xC2 || byte == 0xD8 || byte == 0xE2
    }

    static func escape(_ text: String, keepingLineBreaks: Bool) -> String {
        // Nothing to escape is by far the common case (and whole exports pass here): a
        // look at the bytes, and no copy.
        guard text.utf8.contains(where: { mayNeedEscaping($0, keepingLineBreaks: keepingLineBreaks) }) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            if scalar.needsEscapingForTerminal && !(keepingLineBreaks && (scalar == "\n" || scalar == "\t")) {
                // Every such scalar is below U+10000: four hex digits, as JSON writes it.
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
