import CNcurses
import Foundation

/// The only file that talks to ncurses: starts and stops the terminal,
/// draws a `ScreenBuffer` and turns key codes into `InspectorEvent`s.
struct CursesTerminal: TerminalDevice {
    private let window: UnsafeMutablePointer<WINDOW>
    private let usesColor: Bool

    /// Starts full-screen mode, or returns nil when the terminal cannot be
    /// driven (unknown `TERM`). Uses `newterm`, which reports failure, where
    /// `initscr` would print and exit.
    init?() {
        // UTF-8 and wide characters need the user's locale before curses starts.
        _ = CNcurses_setlocale_all()
        guard CNcurses_start_on_standard_streams() != nil, let window = CNcurses_stdscr() else { return nil }
        // A terminal without cursor addressing (TERM=dumb) would get garbage: refuse it like an unknown TERM.
        guard CNcurses_can_address_cursor() != 0 else {
            endwin()
            return nil
        }
        self.window = window
        // Esc must not wait the default second for a possible escape sequence.
        if ProcessInfo.processInfo.environment["ESCDELAY"] == nil { _ = CNcurses_set_escdelay(25) }
        raw()
        noecho()
        keypad(window, true)
        // Home and End as tmux, screen, rxvt and the VT220 send them, whatever TERM's terminfo
        // says (inside tmux with TERM=xterm-256color, terminfo has \EOH but tmux sends \E[1~).
        for (sequence, code) in [("\u{1b}[1~", KEY_HOME), ("\u{1b}[7~", KEY_HOME), ("\u{1b}[H", KEY_HOME), ("\u{1b}OH", KEY_HOME),
                                 ("\u{1b}[4~", KEY_END), ("\u{1b}[8~", KEY_END), ("\u{1b}[F", KEY_END), ("\u{1b}OF", KEY_END)] {
            _ = define_key(sequence, code)
        }
        curs_set(0)
        _ = mousemask(CNcurses_mouse_events(), nil)
        mouseinterval(0)
        let noColor = !(ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
        usesColor = !noColor && has_colors()
        if usesColor {
            start_color()
            use_default_colors()
            for (role, color) in Self.palette { init_pair(Int16(Self.pairNumber(role)), Int16(color), -1) }
        }
    }

    private static let palette: [(ColorRole, Int32)] = [
        (.accent, COLOR_CYAN), (.added, COLOR_GREEN), (.removed, COLOR_RED),
        (.changed, COLOR_YELLOW), (.muted, COLOR_BLUE), (.warning, COLOR_RED),
    ]

    private static func pairNumber(_ role: ColorRole) -> Int {
        switch role {
        case .standard: 0
        case .accent: 1
        case .added: 2
        case .removed: 3
        case .changed: 4
        case .muted: 5
        case .warning: 6
        }
    }

    var size: ScreenSize {
        ScreenSize(columns: Int(CNcurses_getmaxx(window)), rows: Int(CNcurses_getmaxy(window)))
    }

    mutating func draw(_ screen: ScreenBuffer) {
        werase(window)
        for row in 0..<screen.size.rows {
            var column = 0
            while column < screen.size.columns {
                // One call per run of equally styled cells.
                let style = screen[row, column].style
                let start = column
                var text: [wchar_t] = []
                while column < screen.size.columns, screen[row, column].style == style {
                    let cell = screen[row, column]
                    if !cell.isContinuation {
                        for scalar in cell.text.unicodeScalars { text.append(wchar_t(bitPattern: scalar.value)) }
                    }
                    column += 1
                }
                text.append(0)
                _ = CNcurses_set_attributes(window, attributes(for: style))
                _ = CNcurses_put_wide_string(window, Int32(row), Int32(start), text)
            }
        }
        _ = CNcurses_set_attributes(window, CNcurses_A_NORMAL())
        wrefresh(window)
    }

    private func attributes(for style: CellStyle) -> UInt32 {
        var attributes = CNcurses_A_NORMAL()
        if style.bold { attributes |= CNcurses_A_BOLD() }
        if style.reverse { attributes |= CNcurses_A_REVERSE() }
        if style.dim { attributes |= CNcurses_A_DIM() }
        if style.underline { attributes |= CNcurses_A_UNDERLINE() }
        if usesColor, style.foreground != .standard { attributes |= UInt32(bitPattern: CNcurses_COLOR_PAIR(Int32(Self.pairNumber(style.foreground)))) }
        return attributes
    }

    mutating func nextEvent(timeoutMilliseconds: Int) -> InspectorEvent? {
        wtimeout(window, Int32(timeoutMilliseconds))
        var value: UInt32 = 0
        let result = CNcurses_read_key(window, &value)
        if result == CNcurses_ERR() { return nil }
        if result == CNcurses_KEY_CODE_YES() { return keyCodeEvent(Int32(bitPattern: value)) }
        switch value {
        case 3: return .interrupt                  // Ctrl-C (raw mode delivers it as a key)
        case 9: return .key(.tab)
        case 10, 13: return .key(.enter)
        case 27: return .key(.escape)
        case 8, 127: return .key(.backspace)
        case 1...26: return .key(.control(Character(Unicode.Scalar(value + 0x60)!)))
        default:
            guard let scalar = Unicode.Scalar(value), value >= 0x20 else { return nil }
            return .key(.character(Character(scalar)))
        }
    }

    private func keyCodeEvent(_ code: Int32) -> InspectorEvent? {
        switch code {
        case KEY_UP: return .key(.up)
        case KEY_DOWN: return .key(.down)
        case KEY_LEFT: return .key(.left)
        case KEY_RIGHT: return .key(.right)
        case KEY_HOME: return .key(.home)
        case KEY_END: return .key(.end)
        case KEY_PPAGE: return .key(.pageUp)
        case KEY_NPAGE: return .key(.pageDown)
        case KEY_ENTER: return .key(.enter)
        case KEY_BACKSPACE: return .key(.backspace)
        case KEY_DC: return .key(.delete)
        case KEY_BTAB: return .key(.backTab)
        case KEY_RESIZE: return .resize(size)
        case KEY_MOUSE: return mouseEvent()
        default: return nil
        }
    }

    private func mouseEvent() -> InspectorEvent? {
        var x: Int32 = 0, y: Int32 = 0
        var buttons: UInt = 0
        guard CNcurses_read_mouse(&x, &y, &buttons) == 0 else { return nil }
        let state = mmask_t(buttons)
        let kind: MouseEvent.Kind
        if state & CNcurses_BUTTON4_PRESSED() != 0 {
            kind = .wheelUp
        } else if CNcurses_is_wheel_down(state) != 0 {
            kind = .wheelDown
        } else if state & (CNcurses_BUTTON1_PRESSED() | CNcurses_BUTTON1_CLICKED()) != 0 {
            kind = .press
        } else {
            return nil
        }
        return .mouse(MouseEvent(kind: kind, column: Int(x), row: Int(y)))
    }

    mutating func copyToClipboard(_ text: String) {
        // OSC 52 goes around ncurses, straight to the terminal, between frames.
        let sequence = "\u{1b}]52;c;" + Data(text.utf8).base64EncodedString() + "\u{7}"
        FileHandle.standardOutput.write(Data(sequence.utf8))
    }

    mutating func redrawAll() {
        clearok(window, true)
    }

    mutating func stop() {
        endwin()
    }
}
