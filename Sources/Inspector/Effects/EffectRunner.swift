import Foundation
import Recorder
import RewindQuery

/// Does the work `reduce` asks for that is not the terminal's — writing files,
/// choosing their names, replaying, checking compatibility and searching in the background —
/// so that `reduce` and `render` stay free of I/O and long work. What comes of
/// it goes back to the model as events: at once for what is done on the spot
/// (``perform(_:)``'s result), later for background work (``takeEvents()``).
final class EffectRunner {
    /// Where exports and saved branches go: the directory the inspector was started in.
    let directory: String
    let exports: ExportWorker
    let replays = ReplayWorker()
    let queries = QueryWorker()
    /// Reads states that take long on another thread; nil for a source read on the session's thread only.
    let views: ViewBuilder?
    /// How long the session waits for a view being built before drawing without it (tests: zero).
    var viewPatience: Duration = .milliseconds(40)
    private let source: any TimelineSource

    init(source: any TimelineSource, directory: String = FileManager.default.currentDirectoryPath) {
        self.source = source
        self.directory = directory
        exports = ExportWorker(directory: directory)
        views = source.concurrentReader.map(ViewBuilder.init)
    }

    /// The replay work of a debug executable linked with a reducer.
    private var engine: (any ReplayEngine)? { source.replayTimeline?.engine }

    /// Does `effect`; returns the events it produced on the spot. The terminal's
    /// effects (quit, clipboard, redraw) are the session's and do nothing here.
    func perform(_ effect: InspectorEffect) -> [InspectorEvent] {
        switch effect {
        case .exportDiff(let export, let suggestedName):
            // Written on the export queue as it is made when the source can be read from there (a
            // report of a 30 MB diff takes seconds); a source read on this thread only holds its states in memory.
            if let reader = source.concurrentReader {
                return [.exportStarted(path: exports.start(suggestedName: suggestedName) { try export.write(from: reader, to: $0) })]
            }
            do {
                let text = try export.markdown(from: source)
                return [.exportStarted(path: exports.start(suggestedName: suggestedName) { try $0.write(text) })]
            } catch {
                return [.exportFailed(reason: "\(error)")]
            }
        case .cancelExport:
            exports.cancel()
        case .saveHiddenActionTypes(let types):
            do {
                try HiddenActionTypes.save(types, directory: directory)
            } catch {
                return [.hideListSaveFailed(reason: "\(error)")]
            }
        case .saveLogHiddenActionTypes(let log, let types):
            do {
                try HiddenActionTypes.save(types, forLog: log, directory: directory)
            } catch {
                return [.hideListSaveFailed(reason: "\(error)")]
            }
        case .chooseBranchFile(let suggestedName):
            return [.branchFileChosen(path: FreeFileName.path(for: suggestedName, in: directory))]
        case .saveBranch(let path):
            guard let engine else { return [.branchSaveFailed(reason: "no reducer is linked")] }
            // On the session's thread: the branch and the skipped entries live in the engine the screen reads.
            do {
                return [.branchSaved(path: path, entries: try engine.saveBranch(to: path))]
            } catch {
                return [.branchSaveFailed(reason: error.description)]
            }
        case .replay(let start, let job):
            guard let engine else { return [] }
            replays.replay(engine.makeVerifier(), from: start, job: job)
        case .cancelReplay(let job):
            replays.cancel(job: job)
        case .checkCompatibility(let check, let end):
            guard let engine else { return [] }
            replays.checkCompatibility(engine.makeVerifier(), continuing: check, through: end)
        case .buildView(let request, let job):
            // A source read on this thread only has its states at hand: built here.
            guard let views else { return [.viewBuilt(job: job, view: SelectionView.build(request, source: source))] }
            views.build(request, job: job)
            return viewPatience > .zero ? views.waitBriefly(viewPatience) : []
        case .stopBuildingView:
            views?.stop()
        case .describeChanges(let changes):
            guard let views else { return [.changesDescribed(Dictionary(changes.map { ($0.entry, ValueChangeText.values(of: $0, source: source)) }) { $1 })] }
            views.describe(changes)
        case .runQuery(let job, let kind, let query):
            // A timeline without a queryable log never asks (it is searched in slices).
            guard let reader = source.queryableLog else { return [.queryFinished(job: job, firstBreak: nil)] }
            queries.start(job: job, kind: kind, query: query, reader: reader)
        case .cancelQuery(let job):
            queries.cancel(job: job)
        case .quit, .copyToClipboard, .redraw:
            break
        }
        return []
    }

    /// True when no background work is running or has news to hand over: the session may
    /// then wait for a key without ticking.
    var isIdle: Bool { exports.isIdle && replays.isIdle && queries.isIdle && (views?.isIdle ?? true) }

    /// What the background work reported since the last call, in order.
    func takeEvents() -> [InspectorEvent] {
        exports.takeEvents() + replays.takeEvents() + queries.takeEvents() + (views?.takeEvents() ?? [])
    }

    /// Blocks until every piece of background work started so far is done (tests).
    func waitUntilIdle() {
        exports.waitUntilIdle()
        replays.waitUntilIdle()
        queries.waitUntilIdle()
        views?.waitUntilIdle()
    }
}
