import Foundation
import Recorder

/// Runs the inspector: draw, wait for an event (or a tick, so indexing
/// progress and follow mode show up), reduce, do the effects, repeat.
///
/// The terminal's effects (quit, clipboard, redraw) are done here; the rest
/// (files, background replay and checks) by an ``EffectRunner``, whose answers
/// go back through `reduce` like any other event.
enum InspectorSession {
    static let tickMilliseconds = 100
    /// How often the reports of a background search, and the end of an export being cancelled, are
    /// looked for: what they say shows this soon.
    static let backgroundQueryMilliseconds = 20

    /// Runs until the user quits. Returns the exit status. `hideListLog` keys the log's own
    /// hide-list (HiddenActionTypes), kept under `hideListDirectory` with the project's.
    static func run(source: any TimelineSource, terminal: inout some TerminalDevice,
                    hiddenActionTypes: [String]? = nil, hideListLog: String? = nil,
                    hideListDirectory: String = FileManager.default.currentDirectoryPath) -> Int32 {
        // A huge state's buffers go back to the system once let go, instead of staying resident.
        Platform.returnLargeAllocationsToTheSystem()
        let hiddenActionTypes = hiddenActionTypes ?? HiddenActionTypes.load(directory: hideListDirectory)
        var model = InspectorModel(source: source, size: terminal.size)
        model.timeline.hiddenActionTypes = Set(hiddenActionTypes)
        model.timeline.hideListLog = hideListLog
        model.timeline.logHiddenActionTypes = Set(hideListLog.map { HiddenActionTypes.load(forLog: $0, directory: hideListDirectory) } ?? [])
        if !model.timeline.hiddenActionTypes.isEmpty || !model.timeline.logHiddenActionTypes.isEmpty { model.applyFilter(shown: nil) }
        return run(model: &model, terminal: &terminal, hideListDirectory: hideListDirectory)
    }

    /// Runs `model` until the user quits (tests set up the model and the runner first).
    /// `hideListDirectory` is where the hide-lists are saved when no runner is given.
    static func run(model: inout InspectorModel, terminal: inout some TerminalDevice, effects runner: EffectRunner? = nil,
                    hideListDirectory: String = FileManager.default.currentDirectoryPath) -> Int32 {
        let runner = runner ?? EffectRunner(source: model.source, directory: hideListDirectory)
        var shown: ScreenBuffer?
        // The first pass asks for what starts by itself (the compatibility check).
        var effects = reduce(&model, .tick)
        while true {
            // What the background work did since the last turn.
            for event in runner.takeEvents() { effects += reduce(&model, event) }
            while !effects.isEmpty {
                switch effects.removeFirst() {
                case .quit:
                    terminal.stop()
                    return 0
                case .copyToClipboard(let text):
                    terminal.copyToClipboard(text)
                case .redraw:
                    terminal.redrawAll()
                    shown = nil
                case let effect:
                    for event in runner.perform(effect) { effects += reduce(&model, event) }
                }
            }
            let screen = render(model, size: model.size)
            if screen != shown {
                terminal.draw(screen)
                shown = screen
            }
            // A scan in progress takes its next slice as soon as no key is waiting; a background query's
            // reports and the end of an export being cancelled (Esc says so at once) are looked for
            // often, other background work, indexing and follow mode every tick;
            // with nothing going on, the session sleeps until a key (a resize, a mouse event) comes:
            // an idle inspector costs no CPU.
            let timeout = model.hasPendingScan ? 0
                : model.awaitsBackgroundQuery || model.scans.exporting?.cancelling == true ? backgroundQueryMilliseconds
                : model.needsTicks || !runner.isIdle ? tickMilliseconds : -1
            let event = terminal.nextEvent(timeoutMilliseconds: timeout) ?? .tick
            effects = reduce(&model, event)
        }
    }
}
