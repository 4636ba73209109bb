import Foundation
import Recorder

/// The timeline the inspector shows when it is linked with a reducer: the log
/// as recorded, except that entries after a skipped one show recomputed
/// states, and the branch of hand-dispatched actions follows the last entry.
///
/// The model finds the replay engine through it (`model.replay`), so the
/// model stays free of the user's State and Action types.
final class ReplayTimeline: TimelineSource {
    let base: any TimelineSource
    let engine: any ReplayEngine

    init(base: any TimelineSource, engine: any ReplayEngine) {
        self.base = base
        self.engine = engine
    }

    var name: String { base.name }
    var indexing: IndexingProgress { base.indexing }
    var damage: [DamagedRecord] { base.damage }
    var tornTail: DamagedRecord? { base.tornTail }
    var initialState: JSONValue? { base.initialState }
    var datePaths: [String] { base.datePaths }
    var replayTimeline: ReplayTimeline? { self }
    var recordedLog: LogReader? { base.recordedLog }
    func refresh() -> FollowNotice? { base.refresh() }

    /// Log entries plus branch entries.
    var count: Int { base.count + (engine.branch?.entries.count ?? 0) }

    /// Position of the first branch entry (the entry after the log's last).
    var branchStart: Int { base.count }

    /// Branch entries were never recorded: the log file holds only the entries before them.
    func recordedLogIndex(ofEntry index: Int) -> Int? {
        index < branchStart ? base.recordedLogIndex(ofEntry: index) : nil
    }

    /// The branch entry at timeline position `index`, if it is one.
    func branchEntry(at index: Int) -> ReplayBranch.Entry? {
        guard let entries = engine.branch?.entries, index >= base.count else { return nil }
        let offset = index - base.count
        return entries.indices.contains(offset) ? entries[offset] : nil
    }

    func entry(at index: Int) -> TimelineEntry? {
        if let branchEntry = branchEntry(at: index) {
            let before = stateBefore(index)
            return TimelineEntry(
                index: index, timeOffset: base.entry(at: max(0, base.count - 1))?.timeOffset ?? 0,
                actionType: branchEntry.name, payload: branchEntry.payload,
                changedPaths: before.map { ChangedPaths.of(JSONDiff.patch(from: $0, to: branchEntry.state)) } ?? [JSONPointer()],
                fromEffect: false, isKeyframe: true)
        }
        guard var entry = base.entry(at: index) else { return nil }
        if engine.isRecomputed(index) {
            // What the action changes now, in the recomputed history.
            if engine.skipped.contains(index) {
                entry.changedPaths = []
            } else if let before = stateBefore(index), let after = try? state(at: index) {
                entry.changedPaths = ChangedPaths.of(JSONDiff.patch(from: before, to: after))
            }
        }
        return entry
    }

    func state(at index: Int) throws -> JSONValue {
        if let branchEntry = branchEntry(at: index) { return branchEntry.state }
        return try engine.isRecomputed(index) ? engine.effectiveState(at: index) : base.state(at: index)
    }

    /// The first branch entry follows its fork, not the log's last entry.
    func stateBefore(_ index: Int) -> JSONValue? {
        if let branch = engine.branch, index == base.count, branchEntry(at: index) != nil {
            return try? state(at: branch.forkIndex)
        }
        return index > 0 ? try? state(at: index - 1) : initialState
    }
}
