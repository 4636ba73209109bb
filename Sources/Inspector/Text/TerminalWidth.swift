#if canImport(Glibc)
import Glibc
#endif
import CCellWidth
import Recorder

/// How many terminal columns a character takes — exactly what ncurses will
/// advance when it draws it, so text is never drawn over.
///
/// ncurses measures each code point with the C library's `wcwidth` and puts
/// zero-width ones (ZWJ, VS16, combining marks) in the cell before: a flag is
/// two 1-column regional indicators (2), a ZWJ family is its people side by
/// side (👨‍👩‍👧: 6), `❤️` is the 1-column heart (VS16 adds nothing), a keycap `1️⃣` is
/// 1. The same sum is taken here, with glibc's tables from a UTF-8 locale of
/// its own (unit tests run in the "C" locale, where `wcwidth` rejects
/// everything non-ASCII); the built-in table below is only the fallback where
/// no UTF-8 locale exists.
enum TerminalWidth {
    static func of(_ character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        let value = first.value
        if value >= 0x20 && value < 0x7F && character.unicodeScalars.count == 1 { return 1 }
        // Control characters are drawn as `?` (ScreenBuffer.write).
        if character.isControlCharacter { return 1 }
        if let width = CellWidths.sum(character.unicodeScalars) { return width }
        return fallbackWidth(character)
    }

    static func of(_ text: some StringProtocol) -> Int {
        // Printable ASCII (most JSON): a cell a byte, found without breaking the text into
        // characters, which costs ~20× more (a diff of 10,000 lines of JSON took 40 ms a view).
        let printableASCII = text.utf8.withContiguousStorageIfAvailable { bytes in bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F } }
        if printableASCII == true { return text.utf8.count }
        return text.reduce(0) { $0 + of($1) }
    }

    /// The built-in estimate, used only where the C library has no UTF-8 locale.
    static func fallbackWidth(_ character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        let value = first.value
        if value < 0x300 { return 1 }
        if character.unicodeScalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
        switch first.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        return isWide(value) ? 2 : 1
    }

    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0, 0x23F3,
             0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F, 0x2693, 0x26A1, 0x26AA...0x26AB,
             0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE, 0x26D4, 0x26EA, 0x26F2...0x26F3, 0x26F5, 0x26FA,
             0x26FD, 0x2705, 0x270A...0x270B, 0x2728, 0x274C, 0x274E, 0x2753...0x2755, 0x2757,
             0x2795...0x2797, 0x27B0, 0x27BF, 0x2B1B...0x2B1C, 0x2B50, 0x2B55,
             0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
             0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
             0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x17000...0x18AFF, 0x1B000...0x1B2FF,
             0x1F004, 0x1F0CF, 0x1F18E, 0x1F191...0x1F19A, 0x1F200...0x1F251, 0x1F300...0x1F64F,
             0x1F680...0x1F6FF, 0x1F7E0...0x1F7EB, 0x1F90C...0x1F9FF, 0x1FA70...0x1FAFF,
             0x20000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}

/// The C library's `wcwidth` in a UTF-8 locale of its own, so the answer does
/// not depend on the process locale (ncurses runs after `setlocale(LC_ALL, "")`,
/// and every glibc UTF-8 locale shares one width table).
private enum CellWidths {
    #if canImport(Glibc)
    /// Created once and never freed; read-only after creation.
    nonisolated(unsafe) private static let utf8Locale: locale_t? = newlocale(LC_CTYPE_MASK, "C.UTF-8", nil)
    #endif

    /// The cells ncurses gives these code points, or nil without a UTF-8 locale.
    static func sum(_ scalars: Character.UnicodeScalarView) -> Int? {
        #if canImport(Glibc)
        guard let locale = utf8Locale else { return nil }
        let previous = uselocale(locale)
        defer { uselocale(previous) }
        var total = 0
        for scalar in scalars { total += max(0, Int(CCellWidth_wcwidth(scalar.value))) }
        return total
        #else
        return nil
        #endif
    }
}

extension String {
    /// The longest prefix that fits in `width` columns, with `…` when cut.
    /// One pass that stops at the cut: a 10 MB payload costs no more than a short one.
    func truncated(toWidth width: Int) -> String {
        guard width > 0 else { return "" }
        var used = 0
        var cut: String.Index?
        var position = startIndex
        while position < endIndex {
            used += TerminalWidth.of(self[position])
            if cut == nil && used > width - 1 { cut = position }
            if used > width { return String(self[..<(cut ?? position)]) + "…" }
            position = index(after: position)
        }
        return self
    }

    /// Pads with spaces on the right to exactly `width` columns (truncating if longer).
    func padded(toWidth width: Int) -> String {
        let cut = truncated(toWidth: width)
        return cut + String(repeating: " ", count: max(0, width - TerminalWidth.of(cut)))
    }

    /// Pads with spaces on the left to `width` columns.
    func leftPadded(toWidth width: Int) -> String {
        String(repeating: " ", count: max(0, width - TerminalWidth.of(self))) + self
    }
}
