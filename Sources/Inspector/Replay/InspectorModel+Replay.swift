import Foundation
import Recorder

/// The replay keys (`r`, `a`, `s`, `x`): available when the inspector runs in a
/// debug executable linked with the user's reducer (``Inspector/main(reducer:state:action:arguments:)``),
/// whose timeline is a ``ReplayTimeline``. Without one they explain how to link it.
extension InspectorModel {
    /// The replay timeline, when a reducer is linked.
    var replay: ReplayTimeline? { source as? ReplayTimeline }

    static let replayNeedsReducer =
        "Replay needs your reducer: link Inspector in a debug executable and call Inspector.main(reducer: appReducer) (docs/REPLAY.md)"

    /// How an entry shows in the timeline after replay work.
    enum ReplayMarker: Equatable {
        case divergent, cannotReplay, skipped, branch
        /// The entry a branch was dispatched on.
        case forkPoint
    }

    /// The entry whose state entry `index`'s diff starts from: the previous one,
    /// or for a branch's first entry the entry it forks from; -1 for the initial state.
    func diffBase(of index: Int) -> Int {
        if let replay, let branch = replay.engine.branch, index == replay.branchStart { return branch.forkIndex }
        return index - 1
    }

    /// The entry the branch forks from, when there is a branch.
    var forkIndex: Int? { replay?.engine.branch?.forkIndex }

    func replayMarker(for index: Int) -> ReplayMarker? {
        guard let replay else { return nil }
        if index >= replay.branchStart { return .branch }
        if replay.engine.skipped.contains(index) { return .skipped }
        switch replayRun?.check(at: index) {
        case .diverges?: return .divergent
        case .cannotReplay?: return .cannotReplay
        default: return index == replay.engine.branch?.forkIndex ? .forkPoint : nil
        }
    }

    /// The divergence at `index` from the last `r`, if that entry diverged.
    func replayDivergence(at index: Int) -> ReplayDivergence? {
        if case .diverges(let divergence)? = replayRun?.check(at: index) { return divergence }
        return nil
    }

    // MARK: r

    /// Replays from the selection to the end, marks divergent entries and selects the first.
    mutating func replayFromSelection() {
        guard let replay else { message = Self.replayNeedsReducer; return }
        guard selection < replay.branchStart else { message = "Replay runs on the log's entries; select one of them"; return }
        let run = replay.engine.replay(from: selection)
        replayRun = run
        if let first = run.firstDivergence {
            if let filter, !filter.entries.contains(first.entryIndex) { self.filter = nil }
            select(entry: first.entryIndex)
            focus = .timeline
        }
        message = run.summary
        invalidateView()
    }

    // MARK: x

    mutating func toggleSkipAtSelection() {
        guard let replay else { message = Self.replayNeedsReducer; return }
        guard selection < replay.branchStart else { message = "Branch entries cannot be skipped"; return }
        replay.engine.toggleSkip(selection)
        let skipped = replay.engine.skipped.contains(selection)
        // States after the skip changed; the last replay's marks no longer hold.
        replayRun = nil
        message = skipped
            ? "Skipped entry \(selection + 1): states after it are recomputed without it (x again unskips)"
            : "Entry \(selection + 1) is no longer skipped"
        invalidateView()
    }

    // MARK: a

    /// Opens the action editor with the selected action's JSON.
    mutating func openActionEditor() {
        guard replay != nil else { message = Self.replayNeedsReducer; return }
        guard let entry = source.entry(at: selection) else { message = "Nothing to edit: no entry is selected"; return }
        editError = nil
        prompt = .editAction(entry.payload.description)
    }

    /// Decodes the edited JSON with the user's Action type and dispatches it on the
    /// state at the selection. A decode error keeps the editor open and shows the error.
    mutating func submitEditedAction(_ text: String) {
        guard let replay else { return }
        do {
            let position = try replay.engine.dispatch(actionJSON: text, at: selection)
            // A new branch replaces the old one: the previous replay marks still hold for the log.
            editError = nil
            count = source.count
            select(entry: position)
            focus = .timeline
            message = "Dispatched as branch entry \(position + 1); the log's entries are kept (s saves the branch as a new log)"
            invalidateView()
        } catch {
            editError = error.description
            prompt = .editAction(text)
        }
    }

    // MARK: s

    /// Asks before saving the branch as a new log next to where the inspector was started.
    mutating func saveBranch() {
        guard let replay else { message = Self.replayNeedsReducer; return }
        guard replay.engine.branch != nil else { message = "No branch yet: press a on an entry to dispatch an edited action"; return }
        let base = Self.baseName(of: source.name)
        var path = (replay.saveDirectory as NSString).appendingPathComponent("\(base)-branch.jsonl")
        var attempt = 2
        while OutputFile.nameIsTaken(path) {
            path = (replay.saveDirectory as NSString).appendingPathComponent("\(base)-branch-\(attempt).jsonl")
            attempt += 1
        }
        confirmation = .saveBranch(path: path)
    }

    /// The answer to a question on the hint line: `y` does it, any other key does not.
    mutating func answerConfirmation(_ key: Key) {
        guard let asked = confirmation else { return }
        confirmation = nil
        guard key == .character("y") || key == .character("Y") else {
            message = "Not saved"
            return
        }
        switch asked {
        case .saveBranch(let path):
            guard let replay else { return }
            do {
                let written = try replay.engine.saveBranch(to: path)
                message = "Saved the branch (\(written.counted("entry", "entries"))) to \(path)"
            } catch {
                message = "Cannot save the branch: \(error.description)"
            }
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
