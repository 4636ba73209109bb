/// The seam between the inspector and a real terminal: draw a buffer, read
/// the next event. `CursesTerminal` is the real one; tests can script one.
protocol TerminalDevice {
    var size: ScreenSize { get }
    mutating func draw(_ screen: ScreenBuffer)
    /// The next key, mouse or resize event, or `nil` after `timeoutMilliseconds` of quiet.
    mutating func nextEvent(timeoutMilliseconds: Int) -> InspectorEvent?
    mutating func stop()
    /// Puts `text` on the clipboard of the terminal (OSC 52; tmux needs `set-clipboard on`).
    mutating func copyToClipboard(_ text: String)
    /// Repaints everything on the next draw (Ctrl-L), not only what changed.
    mutating func redrawAll()
}

extension TerminalDevice {
    mutating func copyToClipboard(_ text: String) {}
    mutating func redrawAll() {}
}
