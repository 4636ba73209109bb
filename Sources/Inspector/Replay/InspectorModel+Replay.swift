import Foundation
import Recorder

/// The replay keys (`r`, `a`, `s`, `x`): available when the inspector runs in a
/// debug executable linked with the user's reducer (``Inspector/main(reducer:state:action:arguments:)``),
/// whose timeline is a ``ReplayTimeline``. Without one they explain how to link it.
extension InspectorModel {
    /// The replay timeline, when a reducer is linked.
    var replay: ReplayTimeline? { source.replayTimeline }

    static let replayNeedsReducer = KeyRequirement.linkedReducer.reason

    /// How an entry shows in the timeline after replay work.
    enum ReplayMarker: Equatable {
        case divergent, cannotReplay, skipped, branch
        /// The entry a branch was dispatched on.
        case forkPoint
    }

    /// The row whose state entry `index`'s diff starts from: the previous entry (the last
    /// one recorded, across gaps), a new session's row (its start), or for a branch's first
    /// entry the entry it forks from; -1 for the initial state.
    func diffBase(of index: Int) -> Int {
        if let replay, let fork = replay.forkPosition, index == replay.branchStart { return fork }
        var base = index - 1
        while base >= 0, source.gap(at: base) != nil { base -= 1 }
        return base
    }

    /// The entry the branch forks from, when there is a branch.
    var forkIndex: Int? { replay?.forkPosition }

    func replayMarker(for index: Int) -> ReplayMarker? {
        guard let replay else { return nil }
        if index >= replay.branchStart { return .branch }
        if replay.isSkipped(index) { return .skipped }
        switch replayCheck(at: index) {
        case .diverges?: return .divergent
        case .cannotReplay?: return .cannotReplay
        default: return index == replay.forkPosition ? .forkPoint : nil
        }
    }

    /// The divergence at `index` from the last `r`, if that entry diverged.
    func replayDivergence(at index: Int) -> ReplayDivergence? {
        if case .diverges(let divergence)? = replayCheck(at: index) { return divergence }
        return nil
    }

    /// What the last `r` found for the entry at `index`.
    private func replayCheck(at index: Int) -> ReplayRun.Check? {
        guard let replay, let run = replays.replayRun else { return nil }
        return replay.check(at: index, in: run)
    }

    // MARK: r

    /// Starts replaying from the selection to the end on the session's background
    /// queue (``InspectorEffect/replay(from:job:)``); the keys keep working meanwhile
    /// and the status bar shows how far it got. ``finishReplay(job:run:)`` marks the result.
    mutating func replayFromSelection() {
        guard let replay else { explainUnavailable(.replayFromSelection); return }
        guard timeline.selection < replay.branchStart else { overlays.message = "Replay runs on the log's entries; select one of them"; return }
        let start: Int
        do { start = try replay.engineIndex(ofPosition: timeline.selection, toDo: "replay from") } catch { overlays.message = error.description; return }
        if let running = replays.replaying { request(.cancelReplay(job: running.job)) }
        let job = (replays.replaying?.job ?? replays.lastReplayJob) + 1
        replays.lastReplayJob = job
        replays.replaying = ReplayProgress(job: job, start: timeline.selection, fraction: 0)
        overlays.message = "Replaying from entry \(label(ofRow: timeline.selection)) in the background (Esc cancels)"
        request(.replay(from: start, job: job))
    }

    /// The background replay got through `fraction` of its entries.
    mutating func noteReplayProgress(job: Int, fraction: Double) {
        guard replays.replaying?.job == job else { return }
        replays.replaying?.fraction = fraction
    }

    /// Marks divergent entries of a finished replay and selects the first.
    /// A run that was cancelled or replaced by a newer `r` is dropped.
    mutating func finishReplay(job: Int, run: ReplayRun) {
        guard replays.replaying?.job == job else { return }
        replays.replaying = nil
        replays.replayRun = run
        guard let replay else { return }
        if let first = run.firstDivergence.map({ replay.position(ofEngineIndex: $0.entryIndex) }) {
            if let filter = timeline.filter, !filter.entries.contains(first) { self.timeline.filter = nil }
            select(entry: first)
            panes.focus = .timeline
        }
        overlays.message = replay.summary(of: run)
        invalidateView()
    }

    /// Esc while replaying: stops the background replay. False when none runs.
    mutating func cancelReplay() -> Bool {
        guard let running = replays.replaying else { return false }
        replays.replaying = nil
        request(.cancelReplay(job: running.job))
        overlays.message = "Replay from entry \(label(ofRow: running.start)) cancelled"
        return true
    }

    // MARK: Compatibility

    /// Asks for the compatibility report to be extended over entries indexed since
    /// the last pass (one pass at a time, in the background); a log read again from
    /// its start is checked from its start.
    mutating func scheduleCompatibilityCheck() {
        guard let replay, replays.compatibilityChecking == nil else { return }
        // The engine's count: the timeline's rows also hold the damaged records, which have nothing to check.
        let logEntries = replay.logEntryCount
        var check = replays.compatibility ?? CompatibilityCheck()
        if check.checkedEntries > logEntries { check = CompatibilityCheck() }
        guard replays.compatibility == nil || check.checkedEntries < logEntries else { return }
        replays.compatibilityChecking = CompatibilityProgress(checked: check.checkedEntries, through: logEntries)
        request(.checkCompatibility(continuing: check, through: logEntries))
    }

    mutating func noteCompatibilityProgress(checked: Int) {
        replays.compatibilityChecking?.checked = checked
    }

    mutating func finishCompatibilityCheck(_ check: CompatibilityCheck) {
        replays.compatibilityChecking = nil
        replays.compatibility = check
    }

    /// `replay: all 6 action types ok`, with how far the check got while it runs.
    var compatibilityText: String? {
        guard replay != nil else { return nil }
        let progress = replays.compatibilityChecking.map { "checking \($0.checked * 100 / max(1, $0.through))%" }
        guard let report = replays.compatibility?.report else { return "replay: " + (progress ?? "checking…") }
        return report.summary + (progress.map { " (\($0))" } ?? "")
    }

    // MARK: x

    mutating func toggleSkipAtSelection() {
        guard let replay else { explainUnavailable(.toggleSkip); return }
        guard timeline.selection < replay.branchStart else { overlays.message = "Branch entries cannot be skipped"; return }
        do { try replay.toggleSkip(at: timeline.selection) } catch { overlays.message = error.description; return }
        let skipped = replay.isSkipped(timeline.selection)
        // States after the skip changed; the last replay's marks no longer hold.
        replays.replayRun = nil
        overlays.message = skipped
            ? "Skipped entry \(label(ofRow: timeline.selection)): states after it are recomputed without it (x again unskips)"
            : "Entry \(label(ofRow: timeline.selection)) is no longer skipped"
        invalidateView()
    }

    // MARK: a

    /// Opens the action editor with the selected action's JSON.
    mutating func openActionEditor() {
        guard let replay else { explainUnavailable(.editAction); return }
        do { _ = try replay.engineIndex(ofPosition: timeline.selection, toDo: "edit") } catch { overlays.message = error.description; return }
        guard let entry = source.entry(at: timeline.selection) else { overlays.message = "Nothing to edit: no entry is selected"; return }
        overlays.editError = nil
        overlays.prompt = .editAction(entry.payload.description)
    }

    /// Decodes the edited JSON with the user's Action type and dispatches it on the
    /// state at the selection. A decode error keeps the editor open and shows the error.
    mutating func submitEditedAction(_ text: String) {
        guard let replay else { return }
        do {
            let position = try replay.dispatch(actionJSON: text, at: timeline.selection)
            // A new branch replaces the old one: the previous replay marks still hold for the log.
            overlays.editError = nil
            timeline.count = source.count
            select(entry: position)
            panes.focus = .timeline
            overlays.message = "Dispatched as branch entry \(number(position)); the log's entries are kept (s saves the branch as a new log)"
            invalidateView()
        } catch {
            overlays.editError = error.description
            overlays.prompt = .editAction(text)
        }
    }

    // MARK: s

    /// Asks the session for a free file name for the branch next to where the
    /// inspector was started (``InspectorEffect/chooseBranchFile(suggestedName:)``);
    /// the answer (``branchFileChosen(path:)``) puts the question on the hint line.
    mutating func saveBranch() {
        guard let replay else { explainUnavailable(.saveBranch); return }
        guard replay.engine.branch != nil else { overlays.message = "No branch yet: press a on an entry to dispatch an edited action"; return }
        request(.chooseBranchFile(suggestedName: "\(Self.baseName(of: source.name))-branch.jsonl"))
    }

    mutating func branchFileChosen(path: String) {
        overlays.confirmation = .saveBranch(path: path)
    }

    /// The answer to a question on the hint line: `y` does it, any other key does not.
    mutating func answerConfirmation(_ key: Key) {
        guard let asked = overlays.confirmation else { return }
        overlays.confirmation = nil
        guard key == .character("y") || key == .character("Y") else {
            overlays.message = "Not saved"
            return
        }
        switch asked {
        case .saveBranch(let path):
            overlays.message = "Saving the branch to \(path)…"
            request(.saveBranch(path: path))
        }
    }
}

extension InspectorModel {
    /// A question waiting for `y` on the hint line.
    enum Confirmation: Equatable, Sendable {
        case saveBranch(path: String)

        var question: String {
            switch self {
            case .saveBranch(let path): "Save the branch as \(path)? (y/n)"
            }
        }
    }
}

/// How far the background replay (`r`) got.
struct ReplayProgress: Equatable, Sendable {
    /// Which `r` this is: a result of an older one is dropped.
    var job: Int
    var start: Int
    var fraction: Double
}

/// How far the background compatibility check got in its current pass.
struct CompatibilityProgress: Equatable, Sendable {
    var checked: Int
    var through: Int
}
