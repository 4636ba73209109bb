/// A key the inspector understands, independent of the terminal library.
enum Key: Hashable, Sendable {
    case character(Character)
    case up, down, left, right
    case home, end, pageUp, pageDown
    case enter, tab, backTab, escape, backspace, delete
    /// Ctrl with a letter, lowercased: `.control("l")` is Ctrl-L.
    case control(Character)

    /// How the help overlay spells the key.
    var label: String {
        switch self {
        case .character(" "): "Space"
        case .character(let character): String(character)
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        case .home: "Home"
        case .end: "End"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .enter: "Enter"
        case .tab: "Tab"
        case .backTab: "S-Tab"
        case .escape: "Esc"
        case .backspace: "Bksp"
        case .delete: "Del"
        case .control(let letter): "C-" + String(letter)
        }
    }
}

/// A mouse action at a screen position (0-based column and row).
struct MouseEvent: Equatable, Sendable {
    enum Kind: Equatable, Sendable { case press, wheelUp, wheelDown }
    var kind: Kind
    var column: Int
    var row: Int
}

/// Everything that can change the model.
enum InspectorEvent: Equatable, Sendable {
    case key(Key)
    case mouse(MouseEvent)
    case resize(ScreenSize)
    /// Time passed: pick up indexing progress and, in follow mode, new entries.
    case tick
    /// Ctrl-C: leave at once, whatever is open.
    case interrupt
    /// The session's background export wrote `fraction` of the file.
    case exportProgress(fraction: Double)
    /// The terminal layer finished an export the model asked for.
    case exportFinished(path: String)
    case exportFailed(reason: String)
}

/// Work the model asks the outside world to do; `reduce` itself stays pure.
enum InspectorEffect: Equatable, Sendable {
    case quit
    /// Write `markdown` to a new file, in the background; `suggestedName` is a file name without directory.
    case exportDiff(markdown: String, suggestedName: String)
    /// Put `text` on the terminal's clipboard (OSC 52).
    case copyToClipboard(String)
    /// Remember the hide-list for the project (`.rewind/hidden-actions` in the current directory).
    case saveHiddenActionTypes([String])
    /// Remember the hide-list of one log file (`.rewind/hidden-actions-by-log`, keyed by `log`, its absolute path).
    case saveLogHiddenActionTypes(log: String, types: [String])
    /// Ctrl-L: repaint the whole terminal (something else wrote over it).
    case redraw
}
