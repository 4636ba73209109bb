/// The line being typed in a prompt (`/`, `:`, the action editor): text and a
/// cursor with the usual readline keys — ←/→, Home/End, Ctrl-A/E (start/end),
/// Ctrl-U/K (delete to start/end), Ctrl-W (delete the word before), Backspace
/// and Delete. Backspace on an empty line does nothing: only Esc closes a
/// prompt, so keys typed into it never fall through to commands.
struct LineEditor: Equatable, Sendable {
    private(set) var characters: [Character]
    /// Position of the cursor, 0...characters.count.
    private(set) var cursor: Int

    init(_ text: String = "") {
        characters = Array(text)
        cursor = characters.count
    }

    var text: String { String(characters) }

    /// Applies an editing key; false when the key is not an editing key.
    mutating func handle(_ key: Key) -> Bool {
        switch key {
        case .character(let character):
            characters.insert(character, at: cursor)
            cursor += 1
        case .left, .control("b"): cursor = max(0, cursor - 1)
        case .right, .control("f"): cursor = min(characters.count, cursor + 1)
        case .home, .control("a"): cursor = 0
        case .end, .control("e"): cursor = characters.count
        case .backspace:
            guard cursor > 0 else { return true }
            characters.remove(at: cursor - 1)
            cursor -= 1
        case .delete, .control("d"):
            if cursor < characters.count { characters.remove(at: cursor) }
        case .control("u"):
            characters.removeFirst(cursor)
            cursor = 0
        case .control("k"):
            characters.removeLast(characters.count - cursor)
        case .control("w"):
            var start = cursor
            while start > 0, characters[start - 1] == " " { start -= 1 }
            while start > 0, characters[start - 1] != " " { start -= 1 }
            characters.removeSubrange(start..<cursor)
            cursor = start
        default:
            return false
        }
        return true
    }

    /// Replaces the text (a history step), cursor at the end.
    mutating func replace(with text: String) {
        characters = Array(text)
        cursor = characters.count
    }

    /// What fits in `width` columns around the cursor: the text shown and the cursor's column in it.
    func window(width: Int) -> (text: String, cursorColumn: Int) {
        let room = max(2, width)
        let before = String(characters[..<cursor])
        if TerminalWidth.of(text) < room { return (text, TerminalWidth.of(before)) }
        // Keep the cursor in view, with `…` where text is cut off on the left.
        var start = 0
        while start < cursor, TerminalWidth.of(String(characters[start..<cursor])) + 1 >= room - 1 { start += 1 }
        var shown = start > 0 ? "…" : ""
        shown += String(characters[start..<cursor])
        let cursorColumn = TerminalWidth.of(shown)
        for character in characters[cursor...] {
            if TerminalWidth.of(shown) + TerminalWidth.of(character) >= room { break }
            shown.append(character)
        }
        return (shown, cursorColumn)
    }
}
