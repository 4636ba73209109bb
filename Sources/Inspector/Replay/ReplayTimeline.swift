import Foundation
import Recorder

/// The timeline the inspector shows when it is linked with a reducer: the log
/// as recorded, except that entries after a skipped one show recomputed
/// states, and the branch of hand-dispatched actions follows the last entry.
///
/// The model finds the replay engine through it (`model.replay`), so the
/// model stays free of the user's State and Action types. The engine numbers
/// entries as the log reader does; the timeline also has a row for each damaged
/// record, so the model asks in timeline positions and this translates
/// (``engineIndex(ofPosition:)``, ``position(ofEngineIndex:)``).
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
    /// The log's states only while nothing is skipped and there is no branch: then every row shows them.
    var queryableLog: LogReader? { engine.skipped.isEmpty && engine.branch == nil ? base.queryableLog : nil }
    func refresh() -> FollowNotice? { base.refresh() }

    /// Log entries plus branch entries.
    var count: Int { base.count + (engine.branch?.entries.count ?? 0) }

    /// Position of the first branch entry (the entry after the log's last).
    var branchStart: Int { base.count }

    /// Branch entries were never recorded: the log file holds only the entries before them.
    func recordedLogIndex(ofEntry index: Int) -> Int? {
        index < branchStart ? base.recordedLogIndex(ofEntry: index) : nil
    }

    func entryIndex(ofRecordedLogIndex logIndex: Int) -> Int { base.entryIndex(ofRecordedLogIndex: logIndex) }

    /// The log's placeholders, and every branch entry (never recorded).
    func positionsWithoutRecordedEntry(before end: Int) -> [Int] {
        base.positionsWithoutRecordedEntry(before: min(end, branchStart)) + Array(branchStart..<max(branchStart, min(end, count)))
    }

    func gap(at index: Int) -> LogGap? { index < branchStart ? base.gap(at: index) : nil }
    func session(at index: Int) -> SessionStart? { index < branchStart ? base.session(at: index) : nil }
    func startsNewSession(at index: Int) -> Bool { index < branchStart && base.startsNewSession(at: index) }

    /// Branch entries continue the numbers after the last recorded one.
    func entryNumber(at index: Int) -> Int {
        index < branchStart ? base.entryNumber(at: index) : (branchStart > 0 ? base.entryNumber(at: branchStart - 1) : 0) + index - branchStart + 1
    }

    func lookUp(entryNumber number: Int) -> PlaceholderRows.Lookup {
        let lastRecorded = branchStart > 0 ? base.entryNumber(at: branchStart - 1) : 0
        if number > lastRecorded { return number - lastRecorded + branchStart - 1 < count ? .row(number - lastRecorded + branchStart - 1) : .pastTheEnd }
        return base.lookUp(entryNumber: number)
    }

    func damagedRecord(at index: Int) -> DamagedRecord? {
        index < branchStart ? base.damagedRecord(at: index) : nil
    }

    // MARK: Positions and the engine's entries

    /// The engine's number for the entry at timeline position `position` (the log
    /// reader's entries, then the branch's); nil for a damaged record's row.
    func engineIndex(ofPosition position: Int) -> Int? {
        if position >= branchStart { return engine.entryCount + (position - branchStart) }
        return base.recordedLogIndex(ofEntry: position)
    }

    /// The timeline position of the engine's entry `index`.
    func position(ofEngineIndex index: Int) -> Int {
        index >= engine.entryCount ? branchStart + (index - engine.entryCount) : base.entryIndex(ofRecordedLogIndex: index)
    }

    /// The log entries the timeline holds so far (its rows before the branch, but the damaged records'),
    /// in the engine's numbering: `0..<logEntryCount`.
    var logEntryCount: Int {
        (0..<branchStart).reversed().lazy.compactMap { self.base.recordedLogIndex(ofEntry: $0) }.first.map { $0 + 1 } ?? 0
    }

    /// ``engineIndex(ofPosition:)`` for a replay key pressed on `position`; a damaged
    /// record's row, a gap's or a new session's has no action or state to work with, so the
    /// key says so (`doing` names what it would do: `Cannot skip entry 3: its record (line 4) is damaged`).
    func engineIndex(ofPosition position: Int, toDo doing: String) throws(ReplayEditError) -> Int {
        if let index = engineIndex(ofPosition: position) { return index }
        if let gap = gap(at: position) {
            throw ReplayEditError("Cannot \(doing) " + GapDescription.entries(numbered: entryNumber(at: position), gap: gap) + ": not recorded")
        }
        if session(at: position) != nil { throw ReplayEditError("Cannot \(doing) the start of a session: select an entry") }
        let line = damagedRecord(at: position).map { " (line \($0.line))" } ?? ""
        throw ReplayEditError("Cannot \(doing) entry \(entryNumber(at: position)): its record\(line) is damaged")
    }

    /// True when the entry at `position` is skipped.
    func isSkipped(_ position: Int) -> Bool {
        engineIndex(ofPosition: position).map { engine.skipped.contains($0) } ?? false
    }

    /// Skips (or unskips) the log entry at `position`.
    func toggleSkip(at position: Int) throws(ReplayEditError) {
        engine.toggleSkip(try engineIndex(ofPosition: position, toDo: "skip"))
    }

    /// Dispatches `actionJSON` on the state at `position` (``ReplayEngine/dispatch(actionJSON:at:)``);
    /// returns the new branch entry's position.
    func dispatch(actionJSON text: String, at entryPosition: Int) throws(ReplayEditError) -> Int {
        let dispatched = try engine.dispatch(actionJSON: text, at: engineIndex(ofPosition: entryPosition, toDo: "edit"))
        return position(ofEngineIndex: dispatched)
    }

    /// Position of the entry the branch forks from, when there is a branch.
    var forkPosition: Int? { engine.branch.map { position(ofEngineIndex: $0.forkIndex) } }

    /// What `run` (numbered as the engine numbers entries) found for the entry at `position`.
    func check(at position: Int, in run: ReplayRun) -> ReplayRun.Check? {
        engineIndex(ofPosition: position).flatMap { run.check(at: $0) }
    }

    /// `run`'s summary with the entries numbered as the timeline numbers them.
    func summary(of run: ReplayRun) -> String {
        run.summary(entryNumber: { entryNumber(at: position(ofEngineIndex: $0)) })
    }

    // MARK: Entries and states

    /// The branch entry at timeline position `index`, if it is one.
    func branchEntry(at index: Int) -> ReplayBranch.Entry? {
        guard let entries = engine.branch?.entries, index >= base.count else { return nil }
        let offset = index - base.count
        return entries.indices.contains(offset) ? entries[offset] : nil
    }

    /// True when the state at `position` is recomputed (it follows a skipped entry).
    private func isRecomputed(_ position: Int) -> Bool {
        position < branchStart && engineIndex(ofPosition: position).map { engine.isRecomputed($0) } == true
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
        if isRecomputed(index) {
            // What the action changes now, in the recomputed history.
            if isSkipped(index) {
                entry.changedPaths = []
            } else if let before = stateBefore(index), let after = try? state(at: index) {
                entry.changedPaths = ChangedPaths.of(JSONDiff.patch(from: before, to: after))
            }
        }
        return entry
    }

    func state(at index: Int) throws -> JSONValue {
        if let branchEntry = branchEntry(at: index) { return branchEntry.state }
        guard isRecomputed(index), let logIndex = engineIndex(ofPosition: index) else { return try base.state(at: index) }
        return try engine.effectiveState(at: logIndex)
    }

    /// The first branch entry follows its fork, not the log's last entry.
    func stateBefore(_ index: Int) -> JSONValue? {
        if let forkPosition, index == base.count, branchEntry(at: index) != nil {
            return try? state(at: forkPosition)
        }
        // After a gap or at a new session the log's own answer holds: replay restarts there from the recorded state.
        if index > 0, index < base.count, base.gap(at: index - 1) != nil || base.session(at: index - 1) != nil { return base.stateBefore(index) }
        return index > 0 ? try? state(at: index - 1) : initialState
    }
}
