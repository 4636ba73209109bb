import Foundation
import Recorder
import RewindQuery

/// The inspector driven without a terminal, for `rewind-bench` (which cannot
/// use `@testable import` in release builds). Not public API.
package final class InspectorProbe {
    private let timeline: LogTimeline
    private var model: InspectorModel
    /// Reads states that take long in the background, as the session's runner does.
    private let runner: EffectRunner

    /// Opens a log and builds the first screen's model (no drawing yet).
    package init(path: String, columns: Int, rows: Int, indexInBackground: Bool) throws {
        // As `rewind` opens a log for the inspector (CommandSupport): damaged records keep rows.
        timeline = try LogTimeline(path: path, indexInBackground: indexInBackground, keepsDamagedRows: true)
        model = InspectorModel(source: timeline, size: ScreenSize(columns: columns, rows: rows))
        runner = EffectRunner(source: timeline, directory: FileManager.default.temporaryDirectory.path)
        for effect in reduce(&model, .tick) { start(effect) }
    }

    /// Reduces `event`, starting the background reading it asks for (not waiting for it); returns the other effects.
    @discardableResult
    private func send(_ event: InspectorEvent) -> [InspectorEffect] {
        reduce(&model, event).filter { effect in
            switch effect {
            case .buildView, .stopBuildingView: start(effect); return false
            default: return true
            }
        }
    }

    private func start(_ effect: InspectorEffect) {
        if case .buildView = effect { _ = runner.perform(effect) }
        if case .stopBuildingView = effect { _ = runner.perform(effect) }
    }

    /// Renders the current screen and returns it as text.
    package func screenText() -> String { render(model, size: model.size).plainText }

    package var isFullyIndexed: Bool { timeline.indexing == .complete }
    package var entryCount: Int { timeline.count }

    /// Entries the model knows of (it learns of newly indexed ones on a tick).
    package var modelEntryCount: Int { model.timeline.count }

    /// One tick of the run loop, without drawing.
    package func tick() { send(.tick) }

    /// One `j` press and the redraw that follows.
    package func stepDown() {
        send(.key(.down))
        _ = render(model, size: model.size)
    }

    /// Blocks until the background read-ahead of the next entry is done.
    package func waitForReadAhead() { timeline.waitForReadAhead() }

    /// Selects entry `number` (from 1) as `:number` Enter would.
    package func jump(to number: Int) {
        for key in ":\(number)" { send(.key(.character(key))) }
        send(.key(.enter))
    }

    /// Types `text` as keys (`\n` is Enter, `\u{1b}` Esc), then ticks until no scan
    /// is pending, as the run loop does; returns the seconds each event took (`reduce` + `render`).
    /// `afterEvent` runs after each event, outside the timing (memory samples).
    package func typeAndFinishScans(_ text: String, afterEvent: () -> Void = {}) -> [Double] {
        var seconds: [Double] = []
        eventCPUSeconds = []
        func timed(_ event: InspectorEvent) {
            let start = ContinuousClock.now
            let cpuStart = Self.threadCPUSeconds()
            send(event)
            _ = render(model, size: model.size)
            eventCPUSeconds.append(Self.threadCPUSeconds() - cpuStart)
            let elapsed = ContinuousClock.now - start
            seconds.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
            afterEvent()
        }
        for character in text {
            switch character {
            case "\n": timed(.key(.enter))
            case "\u{1b}": timed(.key(.escape))
            default: timed(.key(.character(character)))
            }
        }
        while model.hasPendingScan { timed(.tick) }
        return seconds
    }

    /// Blocks until the state pane shows the selected entry's state (or says why it cannot).
    package func waitUntilStateShown() {
        while model.view.loading != nil {
            runner.waitUntilIdle()
            let events = runner.takeEvents()
            if events.isEmpty { return }
            for event in events { send(event) }
        }
    }

    /// Presses `keys` (named as ``PacedSession`` names them: `j`, `<PgDn>`, `<Esc>`…) one
    /// after another; returns the seconds each took (`reduce` + `render`), what blocks the next key.
    package func pressTimed(_ keys: [String]) -> [Double] {
        keys.map { token in
            guard let key = PacedSession.key(named: token) else { return 0 }
            let start = ContinuousClock.now
            send(.key(key))
            _ = render(model, size: model.size)
            return PacedTerminalClock.seconds(ContinuousClock.now - start)
        }
    }

    /// The CPU time each event of the last ``typeAndFinishScans(_:afterEvent:)`` took on
    /// the calling thread: what the event costs, whatever else the machine is doing
    /// (on a shared, loaded box the wall-clock figure mostly measures the other processes).
    package private(set) var eventCPUSeconds: [Double] = []

    /// CPU time the calling thread has used, in seconds.
    package static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Reads every entry's row (parsed and cached as for the screen), as `f`, `w` and `/` did within one key press before they ran in slices.
    package func readAllEntries() {
        for index in 0..<timeline.count { _ = timeline.entry(at: index) }
    }

    /// Reads every entry one record at a time (`LogReader.entry(at:)`), as the
    /// scans did before they read in batches; returns how many were readable.
    package func readEntriesOneByOne() -> Int {
        (0..<timeline.count).reduce(0) { readable, index in readable + ((try? timeline.reader.entry(at: index)) == nil ? 0 : 1) }
    }

    /// Reads every entry as the scans do (batched, light parse): the action type,
    /// plus the payload's JSON (search) or the changed paths (`w`) when asked for.
    /// Returns how many were readable.
    package func scanEntries(payloadJSON: Bool = false, changedPaths: Bool = false) -> Int {
        var fields: ScannedEntry.Fields = []
        if payloadJSON { fields.insert(.payloadJSON) }
        if changedPaths { fields.insert(.changedPaths) }
        var readable = 0
        timeline.scanEntries(Array(0..<timeline.count), fields: fields) { _, entry in
            if entry != nil { readable += 1 }
            return true
        }
        return readable
    }

    /// Focuses the state pane and puts its cursor on `pointer` (opening its parents), as
    /// moving there with the keys would; false when the node is not in the selected state.
    package func selectStateNode(_ pointer: String) -> Bool {
        guard let path = try? JSONPointer(parsing: pointer) else { return false }
        model.panes.focus = .state
        model.reveal(path)
        return model.cursorRow?.path == path
    }

    /// How many changes the open `w` history lists, nil when none is open.
    package var historyChangeCount: Int? {
        if case .pathHistory(let history) = model.overlays.overlay { return history.history.count }
        return nil
    }

    /// `e` after marking entry `from` and diffing it against entry `to` (`:from m :to d e`):
    /// the seconds the `e` press took (`reduce` + `render`, what blocks the keys), and the
    /// Markdown the effect runner hands the background writer.
    package func exportMarkDiff(from: Int, to: Int) -> (seconds: Double, markdown: String)? {
        jump(to: from)
        send(.key(.character("m")))
        jump(to: to)
        send(.key(.character("d")))
        return pressExport()
    }

    /// `e` on entry `number` without a mark (the selected action's report): the seconds the
    /// press took and the Markdown it hands the background writer.
    package func exportSelectedAction(_ number: Int) -> (seconds: Double, markdown: String)? {
        jump(to: number)
        return pressExport()
    }

    /// Presses `e`: the seconds the press took (`reduce` + `render`) and the Markdown the
    /// effect runner then builds (its work, done after the key is answered).
    private func pressExport() -> (seconds: Double, markdown: String)? {
        let start = ContinuousClock.now
        let effects = send(.key(.character("e")))
        _ = render(model, size: model.size)
        let elapsed = ContinuousClock.now - start
        guard case .exportDiff(let export, _)? = effects.first, let markdown = try? export.markdown(from: model.source) else { return nil }
        send(.exportFinished(path: "-"))
        send(.key(.escape))
        return (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18, markdown)
    }

    /// Writes `text` as the background export does; returns the path.
    package static func writeExport(_ text: String, directory: String) throws -> String {
        try ExportFile.write(text, suggestedName: "bench-diff.md", directory: directory)
    }

    /// What a search typed at the `:` prompt (`find QUERY`, `bisect QUERY`) took, as the
    /// session runs it: the effects done by an ``EffectRunner``, its reports looked for every
    /// ``InspectorSession/backgroundQueryMilliseconds`` until the answer is on screen.
    package struct SearchRun {
        /// From Enter until the answer was in the model.
        package var seconds: Double
        /// The longest single event (`reduce` + `render`) meanwhile: how long a key could wait.
        package var longestEventSeconds: Double
        /// CPU time of the whole process meanwhile (every thread: the search's, the background index's).
        package var cpuSeconds: Double
        /// The message the search ended with.
        package var message: String
        /// From Enter until the background index had read the whole file (nil: it had before Enter):
        /// the search's chunks wait for the index to reach them, so a search started at once ends after it.
        package var indexedSeconds: Double?
    }

    /// Ticks until the model knows of an entry (the background index found one), then
    /// draws the first screen, as a user sees it before typing anything.
    package func showFirstScreen() {
        while model.timeline.count == 0 && timeline.indexing != .complete {
            usleep(UInt32(InspectorSession.tickMilliseconds * 1000))
            reduce(&model, .tick)
        }
        _ = render(model, size: model.size)
    }

    /// Types `:` `command` Enter and runs the search to its end (``SearchRun``).
    package func search(_ command: String) -> SearchRun {
        let runner = EffectRunner(source: timeline, directory: NSTemporaryDirectory())
        for key in ":" + command { reduce(&model, .key(.character(key))) }
        var longest = 0.0
        func timed(_ event: InspectorEvent) -> [InspectorEffect] {
            let start = ContinuousClock.now
            let effects = reduce(&model, event)
            _ = render(model, size: model.size)
            longest = max(longest, Self.seconds(since: start))
            return effects
        }
        let start = ContinuousClock.now
        let cpuStart = Self.processCPUSeconds()
        var effects = timed(.key(.enter))
        var indexedSeconds: Double?
        let indexedBefore = timeline.reader.isFullyIndexed
        while true {
            if !indexedBefore, indexedSeconds == nil, timeline.reader.isFullyIndexed { indexedSeconds = Self.seconds(since: start) }
            for effect in effects { for event in runner.perform(effect) { _ = timed(event) } }
            effects = []
            for event in runner.takeEvents() { effects += timed(event) }
            if model.hasPendingScan {
                effects += timed(.tick)
            } else if model.awaitsBackgroundQuery {
                if effects.isEmpty { usleep(UInt32(InspectorSession.backgroundQueryMilliseconds * 1000)) }
            } else if effects.isEmpty {
                break
            }
        }
        return SearchRun(seconds: Self.seconds(since: start), longestEventSeconds: longest,
                         cpuSeconds: Self.processCPUSeconds() - cpuStart, message: model.overlays.message ?? "", indexedSeconds: indexedSeconds)
    }

    /// User and system time of every thread of this process so far.
    private static func processCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    private static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// What the status bar's last line and the overlay show (for checks in the benchmark).
    package var message: String? { model.overlays.message }

    /// The compact JSON of the state after entry `index`.
    package func stateJSON(at index: Int) throws -> [UInt8] { JSONWriter.compact(try timeline.state(at: index)) }
}
