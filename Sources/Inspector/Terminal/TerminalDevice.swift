/// The seam between the inspector and a real terminal: draw a buffer, read
/// the next event. `CursesTerminal` is the real one; tests can script one.
protocol TerminalDevice {
    var size: ScreenSize { get }
    mutating func draw(_ screen: ScreenBuffer)
    /// The next key, mouse or resize event, or `nil` after `timeoutMilliseconds` of quiet.
    mutating func nextEvent(timeoutMilliseconds: Int) -> InspectorEvent?
    mutating func stop()
}
