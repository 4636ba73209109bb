import Foundation
import Testing
import Recorder
@testable import Inspector

/// A terminal that replays scripted events and keeps every frame drawn.
struct ScriptedTerminal: TerminalDevice {
    var size = ScreenSize(columns: 80, rows: 24)
    var events: [InspectorEvent?]
    var frames: [ScreenBuffer] = []
    var stopped = false
    /// How long the session was willing to wait at each call.
    var timeouts: [Int] = []

    mutating func draw(_ screen: ScreenBuffer) { frames.append(screen) }
    mutating func nextEvent(timeoutMilliseconds: Int) -> InspectorEvent? {
        timeouts.append(timeoutMilliseconds)
        return events.isEmpty ? .key(.character("q")) : events.removeFirst()
    }
    mutating func stop() { stopped = true }
}

@Suite struct SessionTests {
    @Test func runsUntilQuitDrawingOnlyChangedFrames() {
        var terminal = ScriptedTerminal(events: [.key(.character("j")), nil, nil, .key(.character("q"))])
        let status = InspectorSession.run(source: InspectorFixtures.todoTimeline(), terminal: &terminal)
        #expect(status == 0)
        #expect(terminal.stopped)
        // First frame, then the frame after j; the idle ticks draw nothing new.
        #expect(terminal.frames.count == 2)
        #expect(terminal.frames.last?.plainText.contains("entry 2/6") == true)
    }

    @Test func anIdleSessionSleepsUntilAKeyAndTicksOnlyWhileSomethingGoesOn() {
        // Nothing going on: no tick wakes it (a tick every 100 ms cost 0.5–0.8 % of a core).
        var idle = ScriptedTerminal(events: [.key(.character("j")), .key(.character("q"))])
        _ = InspectorSession.run(source: InspectorFixtures.todoTimeline(), terminal: &idle)
        #expect(idle.timeouts == [-1, -1])
        // Following a log, or while it is indexed, the ticks pick up what changed.
        var following = ScriptedTerminal(events: [.key(.character("F")), nil, .key(.character("F")), .key(.character("q"))])
        _ = InspectorSession.run(source: InspectorFixtures.todoTimeline(), terminal: &following)
        #expect(following.timeouts == [-1, 100, 100, -1])
        let indexing = InspectorFixtures.todoTimeline()
        indexing.indexing = .scanning(fraction: 0.5)
        var scanning = ScriptedTerminal(events: [.key(.character("q"))])
        _ = InspectorSession.run(source: indexing, terminal: &scanning)
        #expect(scanning.timeouts == [100])
    }

    @Test func afterEscTheEndOfTheExportIsLookedForEvery20Milliseconds() {
        // The worker stops at its next chunk; the screen says so as soon as the session looks.
        var model = InspectorFixtures.model()
        model.type("jjje")
        #expect(model.send(.escape) == [.cancelExport])
        var terminal = ScriptedTerminal(events: [nil, .key(.character("q"))])
        _ = InspectorSession.run(model: &model, terminal: &terminal)
        #expect(terminal.timeouts == [InspectorSession.backgroundQueryMilliseconds, InspectorSession.backgroundQueryMilliseconds])
        #expect(InspectorSession.backgroundQueryMilliseconds == 20)
    }

    @Test func exportWritesTheMarkdownFileAndShowsItsPath() throws {
        let folder = TemporaryDirectory()
        let directory = folder.path
        let first = try ExportFile.write("# one\n", suggestedName: "todo-diff-1-2.md", directory: directory)
        let second = try ExportFile.write("# two\n", suggestedName: "todo-diff-1-2.md", directory: directory)
        #expect(first == directory + "/todo-diff-1-2.md")
        #expect(second == directory + "/todo-diff-1-2-2.md")
        #expect(try String(contentsOfFile: second, encoding: .utf8) == "# two\n")
    }

    @Test func aFailedExportSaysInWordsWhatFailed() {
        #expect(throws: ExportWriteError(description: "cannot create /nonexistent-rewind-dir/a.md: No such file or directory")) {
            try ExportFile.write("x", suggestedName: "a.md", directory: "/nonexistent-rewind-dir")
        }
    }

    /// Hands out scripted events; at `nil` in the script it first waits for the effect runner's background work,
    /// so the frame after it shows the export's outcome (awaited, not slept for).
    struct ExportingTerminal: TerminalDevice {
        var size = ScreenSize(columns: 80, rows: 24)
        var events: [InspectorEvent?]
        let runner: EffectRunner
        var frames: [ScreenBuffer] = []
        mutating func draw(_ screen: ScreenBuffer) { frames.append(screen) }
        mutating func nextEvent(timeoutMilliseconds: Int) -> InspectorEvent? {
            guard !events.isEmpty else { return .key(.character("q")) }
            let event = events.removeFirst()
            if event == nil { runner.waitUntilIdle() }
            return event
        }
        mutating func stop() {}
    }

    @Test func eWritesTheMarkDiffInTheBackgroundAndTheNoticeStays() throws {
        let folder = TemporaryDirectory()
        let directory = folder.path
        var model = InspectorFixtures.model()
        let runner = EffectRunner(source: model.source, directory: directory)
        let keys: [InspectorEvent?] = "jmGde".map { .key(.character($0)) } + [nil, .key(.character("k")), .tick]
        var terminal = ExportingTerminal(events: keys, runner: runner)
        _ = InspectorSession.run(model: &model, terminal: &terminal, effects: runner)
        let path = directory + "/todo-diff-2-6.md"
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(written.hasPrefix("# Diff: todo.jsonl, entry 2 → entry 6\n"))
        #expect(written.contains("@ /todos/2\n+ {\n+   \"title\": \"Sync done\",\n"), "\(written)")
        // After the export: the notice (cut at 80 columns), still there after another key.
        let last = terminal.frames.last?.plainText.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.hasPrefix("Exported the diff to \(directory)/"), "\(last)")
        #expect(model.overlays.notice == "Exported the diff to \(path)  (Esc dismisses)")
    }
}
