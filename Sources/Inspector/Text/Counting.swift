extension Int {
    /// `1 change`, `2 changes`: a count with its noun in the right number.
    func counted(_ singular: String, _ plural: String) -> String {
        "\(self) \(self == 1 ? singular : plural)"
    }
}

extension String {
    /// The text with control characters (C0, DEL, C1) written as `\u{7f}`, so
    /// plain output (`rewind log`, `stats`, `blame`) never sends a terminal a raw control code.
    var escapingControlCharacters: String {
        var result = ""
        for scalar in unicodeScalars {
            if scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value < 0xA0) {
                result += "\\u{" + String(scalar.value, radix: 16) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
