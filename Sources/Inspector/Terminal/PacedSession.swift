import Foundation
import Recorder

/// The real inspector session (``InspectorSession``) driven by a person's keys at a
/// person's pace, for `rewind-bench`: how long each key waits for its answer, and
/// the longest stretch the session spent away from the keyboard. Not public API.
///
/// A key is answered when the session asks for the next event after it: by then it
/// has reduced it, done its effects and drawn the screen. The next key comes a pause
/// after that, as a person presses the next key once they see the last one's answer.
package enum PacedSession {
    /// One key and how long it waited: from when it was pressed (or due, if the session
    /// was busy then) to when the session had drawn its answer and asked for the next.
    package struct Press: Sendable {
        package var label: String
        package var seconds: Double
        /// The process's resident bytes once the key was answered (0 when not measured).
        package var residentBytes: Int
    }

    package struct Report: Sendable {
        package var presses: [Press]
        /// The longest time between two reads of the keyboard, whatever the session was doing
        /// (a tick's work included): the longest a key pressed then would have waited.
        package var longestAway: Double
        /// The last key pressed before that stretch began (what the session was busy with).
        package var longestAwayAfter: String
        /// What the screen showed last (after the script, before `q`).
        package var lastScreen: String
        /// Seconds from the start until each `wait:` step saw its text, and from the last key pressed before it.
        package var waits: [(text: String, seconds: Double, afterKey: Double)]
    }

    /// Opens `path` as `rewind <path>` does and types `script` into it: a key per item
    /// (`j`, `G`, `<Enter>`, `<Esc>`, `<Tab>`, `<Space>`, `<PgDn>`, `<PgUp>`, `<Home>`, `<End>`,
    /// `<Down>`, `<Up>`, `<Left>`, `<Right>`), `wait:TEXT` (until the screen shows TEXT, at most
    /// `patience` seconds) or `sleep:SECONDS`. Files `e` writes go to `directory`. `residentBytes`
    /// measures the process's memory after each key (the benchmark's, which knows the platform).
    package static func run(path: String, script: [String], directory: String, columns: Int = 120, rows: Int = 40,
                            pause: Double = 0.15, patience: Double = 60, residentBytes: @escaping () -> Int = { 0 }) throws -> Report {
        let timeline = try LogTimeline(path: path, indexInBackground: true, keepsDamagedRows: true)
        var terminal = PacedTerminal(size: ScreenSize(columns: columns, rows: rows), script: script, pause: pause, patience: patience,
                                     residentBytes: residentBytes)
        _ = InspectorSession.run(source: timeline, terminal: &terminal, hiddenActionTypes: [], hideListDirectory: directory)
        return Report(presses: terminal.presses, longestAway: terminal.longestAway, longestAwayAfter: terminal.longestAwayAfter,
                      lastScreen: terminal.lastScreen, waits: terminal.waits)
    }

    static func key(named token: String) -> Key? {
        switch token {
        case "<Enter>": .enter
        case "<Esc>": .escape
        case "<Tab>": .tab
        case "<S-Tab>": .backTab
        case "<Space>": .character(" ")
        case "<PgDn>": .pageDown
        case "<PgUp>": .pageUp
        case "<Home>": .home
        case "<End>": .end
        case "<Down>": .down
        case "<Up>": .up
        case "<Left>": .left
        case "<Right>": .right
        default: token.count == 1 ? .character(token.first!) : nil
        }
    }
}

/// A terminal whose keyboard is a script: keys come a pause after the last one was
/// answered, and the session's timeouts are honoured as a real terminal's are.
private struct PacedTerminal: TerminalDevice {
    let size: ScreenSize
    var script: [String]
    let pause: Double
    let patience: Double
    var presses: [PacedSession.Press] = []
    var waits: [(text: String, seconds: Double, afterKey: Double)] = []
    var longestAway = 0.0
    var longestAwayAfter = ""
    var lastScreen = ""
    /// The last key delivered.
    private var lastKey = ""
    private let start = ContinuousClock.now
    private var lastRead: ContinuousClock.Instant?
    /// When the last key was pressed.
    private var lastPressed: ContinuousClock.Instant?
    /// The key delivered and not answered yet, with when it was pressed.
    private var answering: (label: String, pressed: ContinuousClock.Instant)?
    /// When the next key is pressed.
    private var due = ContinuousClock.now
    private var waitingSince: ContinuousClock.Instant?

    let residentBytes: () -> Int

    init(size: ScreenSize, script: [String], pause: Double, patience: Double, residentBytes: @escaping () -> Int) {
        self.size = size
        self.script = script
        self.pause = pause
        self.patience = patience
        self.residentBytes = residentBytes
    }

    mutating func draw(_ screen: ScreenBuffer) { lastScreen = screen.plainText }

    mutating func nextEvent(timeoutMilliseconds: Int) -> InspectorEvent? {
        let now = ContinuousClock.now
        if let lastRead, Self.seconds(now - lastRead) > longestAway {
            longestAway = Self.seconds(now - lastRead)
            longestAwayAfter = lastKey
        }
        defer { lastRead = ContinuousClock.now }
        if let pressed = answering {
            presses.append(PacedSession.Press(label: pressed.label, seconds: Self.seconds(now - pressed.pressed), residentBytes: residentBytes()))
            answering = nil
            due = now + .seconds(pause)
        }
        guard let step = script.first else { return .key(.character("q")) }
        if step.hasPrefix("wait:") {
            let text = String(step.dropFirst(5))
            let since = waitingSince ?? now
            waitingSince = since
            if lastScreen.contains(text) || Self.seconds(now - since) > patience {
                let seen = lastScreen.contains(text)
                waits.append((text, seen ? Self.seconds(now - start) : .infinity, seen ? Self.seconds(now - (lastPressed ?? start)) : .infinity))
                script.removeFirst()
                waitingSince = nil
                due = now + .seconds(pause)
                return nil
            }
            sleep(upTo: 0.005, timeoutMilliseconds: timeoutMilliseconds)
            return nil
        }
        if step.hasPrefix("sleep:") {
            script.removeFirst()
            due = now + .seconds(Double(step.dropFirst(6)) ?? 0)
            return nil
        }
        if now < due {
            sleep(upTo: Self.seconds(due - now), timeoutMilliseconds: timeoutMilliseconds)
            if ContinuousClock.now < due { return nil }
        }
        script.removeFirst()
        guard let key = PacedSession.key(named: step) else { return nil }
        answering = (step, due)
        lastPressed = due
        lastKey = step
        return .key(key)
    }

    /// Waits as `nextEvent` would with nothing typed: at most the session's timeout (negative: as long as asked).
    private func sleep(upTo seconds: Double, timeoutMilliseconds: Int) {
        let limit = timeoutMilliseconds < 0 ? seconds : min(seconds, Double(timeoutMilliseconds) / 1000)
        if limit > 0 { usleep(UInt32(limit * 1_000_000)) }
    }

    mutating func stop() {}

    static func seconds(_ duration: Duration) -> Double { PacedTerminalClock.seconds(duration) }
}

enum PacedTerminalClock {
    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
