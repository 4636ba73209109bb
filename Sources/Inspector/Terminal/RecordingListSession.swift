/// Runs the list view of `rewind DIR`: Enter runs the inspector on the chosen
/// log in the same terminal; its `q` returns here, Ctrl-C leaves both.
enum RecordingListSession {
    static func run(_ start: RecordingListModel, terminal: inout some TerminalDevice) -> Int32 {
        var model = start
        var shown: ScreenBuffer?
        while true {
            let screen = render(model)
            if screen != shown {
                terminal.draw(screen)
                shown = screen
            }
            let event = terminal.nextEvent(timeoutMilliseconds: InspectorSession.tickMilliseconds) ?? .tick
            for effect in model.reduce(event) {
                switch effect {
                case .quit:
                    terminal.stop()
                    return 0
                case .open(let path):
                    let timeline: LogTimeline
                    do {
                        timeline = try LogTimeline(path: path, indexInBackground: true)
                    } catch {
                        model.message = error.description
                        continue
                    }
                    var inspector = InspectorModel(source: timeline, size: terminal.size)
                    var borrowed = BorrowedTerminal(base: terminal)
                    _ = InspectorSession.run(model: &inspector, terminal: &borrowed)
                    terminal = borrowed.base
                    if borrowed.sawInterrupt {
                        terminal.stop()
                        return 0
                    }
                    model.size = terminal.size
                    _ = model.reduce(.resize(terminal.size))
                    shown = nil
                }
            }
        }
    }
}

/// The terminal lent to the inspector: its quit returns to the list instead of
/// closing the terminal, and a Ctrl-C is remembered so the list leaves too.
struct BorrowedTerminal<Base: TerminalDevice>: TerminalDevice {
    var base: Base
    private(set) var sawInterrupt = false

    init(base: Base) { self.base = base }

    var size: ScreenSize { base.size }
    mutating func draw(_ screen: ScreenBuffer) { base.draw(screen) }
    mutating func nextEvent(timeoutMilliseconds: Int) -> InspectorEvent? {
        let event = base.nextEvent(timeoutMilliseconds: timeoutMilliseconds)
        if event == .interrupt { sawInterrupt = true }
        return event
    }
    mutating func stop() {}
}
