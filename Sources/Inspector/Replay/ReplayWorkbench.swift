import Foundation
import Recorder

/// The inspector's replay work over Recorder's ``ReplaySession``: skipped entries
/// (states after them recomputed without them), a branch of hand-edited actions
/// dispatched through the user's reducer, and saving that branch as a new log.
/// Recorder keeps what apps need (replaying and verifying a log against a reducer);
/// this is only the inspector's.
final class ReplayWorkbench<State: Codable, Action>: ReplayEngine {
    let session: ReplaySession<State, Action>

    private(set) var skipped: Set<Int> = []
    /// States recomputed from the first skipped entry on, extended on demand.
    private var recomputed: (start: Int, base: State, states: [State], json: [JSONValue])?

    private(set) var branch: ReplayBranch?
    private var branchActions: [Action] = []
    private var branchStates: [State] = []
    /// What each branch action read through `Recorded` (live values), saved with the branch.
    private var branchReads: [LiveReads] = []

    init(_ session: ReplaySession<State, Action>) {
        self.session = session
    }

    /// A workbench over `reader` with the user's reducer (its result is ignored).
    convenience init<Result>(reader: LogReader, reducer: @escaping (inout State, Action) -> Result) where Action: Decodable {
        self.init(ReplaySession(reader: reader, reducer: reducer))
    }

    var entryCount: Int { session.entryCount }
    var compatibility: ReplayCompatibilityReport { session.compatibility }
    func replay(from start: Int) -> ReplayRun { session.replay(from: start) }
    func makeVerifier() -> any ReplayVerifier { session.makeVerifier() }

    // MARK: Skipping

    func toggleSkip(_ index: Int) {
        guard index >= 0 && index < entryCount else { return }
        if skipped.remove(index) == nil { skipped.insert(index) }
        recomputed = nil
    }

    func isRecomputed(_ index: Int) -> Bool {
        guard let first = skipped.min() else { return false }
        return index >= first && index < entryCount
    }

    func effectiveState(at index: Int) throws -> JSONValue {
        guard isRecomputed(index) else { return try session.reader.state(at: index) }
        return try recompute(through: index).json
    }

    /// The Swift state after entry `index` as the timeline now has it.
    private func effectiveSwiftState(at index: Int) throws -> State {
        guard isRecomputed(index) else { return try session.recordedState(at: index) }
        return try recompute(through: index).state
    }

    /// Extends the recomputation from the first skipped entry up to `index`:
    /// skipped entries leave the state as it was, the others run through the reducer.
    /// An action that cannot be decoded is left out too (it cannot be run).
    private func recompute(through index: Int) throws -> (state: State, json: JSONValue) {
        if recomputed == nil {
            guard let first = skipped.min() else { throw ReplayEditError("nothing is skipped") }
            guard let base = try session.recordedState(before: first) else {
                throw ReplayEditError("cannot recompute: the log has no state before entry \(session.reader.entryNumber(at: first))")
            }
            recomputed = (first, base, [], [])
        }
        while var work = recomputed, work.start + work.states.count <= index {
            let position = work.start + work.states.count
            var state = work.states.last ?? work.base
            if !skipped.contains(position), case .success(let action) = session.action(at: position) {
                _ = session.run(action, on: &state, values: (try? session.reader.entry(at: position).recordedValues) ?? [])
            }
            work.states.append(state)
            work.json.append(try session.encode(state, entry: position))
            recomputed = work
        }
        guard let work = recomputed else { throw ReplayEditError("nothing is skipped") }
        return (work.states[index - work.start], work.json[index - work.start])
    }

    // MARK: Branch

    func dispatch(actionJSON text: String, at position: Int) throws(ReplayEditError) -> Int {
        let json: JSONValue
        do { json = try JSONParser.parse(text) } catch { throw ReplayEditError("not valid JSON: \(error)") }
        let action: Action
        let nameHint = position < entryCount ? (try? session.reader.entry(at: position))?.action.name : nil
        do { action = try session.decodeEditedAction(json, named: nameHint) } catch { throw ReplayEditError(error.description) }

        var base: State
        var fork: Int
        var kept: Int
        if position < entryCount {
            do { base = try effectiveSwiftState(at: position) } catch {
                throw ReplayEditError("the state at entry \(session.reader.entryNumber(at: position)) cannot be restored: \(error)")
            }
            fork = position
            kept = 0
        } else {
            let offset = position - entryCount
            guard let branch, branchStates.indices.contains(offset) else { throw ReplayEditError("the branch has no entry \(offset + 1)") }
            base = branchStates[offset]
            fork = branch.forkIndex
            kept = offset + 1
        }
        let reads = session.dispatch(action, on: &base)
        let encoded: JSONValue
        do { encoded = try session.encode(base, entry: position) } catch { throw ReplayEditError(error.description) }

        var entries = Array((branch?.entries ?? []).prefix(kept))
        branchActions = Array(branchActions.prefix(kept))
        branchStates = Array(branchStates.prefix(kept))
        branchReads = Array(branchReads.prefix(kept))
        entries.append(ReplayBranch.Entry(name: session.actionName(action), payload: json, state: encoded))
        branchActions.append(action)
        branchStates.append(base)
        branchReads.append(reads)
        branch = ReplayBranch(forkIndex: fork, entries: entries)
        return entryCount + entries.count - 1
    }

    func saveBranch(to path: String) throws(ReplayEditError) -> Int {
        guard let branch else { throw ReplayEditError("no branch to save: press a on an entry to dispatch an edited action first") }
        var existing = stat()
        guard lstat(path, &existing) != 0 else { throw ReplayEditError("\(path) already exists") }
        // Everything is decoded before the file is created, so a failure leaves no half-written log.
        var copied: [(action: Any, state: State, entry: LogEntry)] = []
        do {
            for index in 0...branch.forkIndex where !skipped.contains(index) {
                copied.append((try session.copyableAction(at: index), try effectiveSwiftState(at: index), try session.reader.entry(at: index)))
            }
        } catch {
            throw ReplayEditError("\(error)")
        }
        let dispatched = branchActions.indices.map { (action: branchActions[$0], state: branchStates[$0], reads: branchReads[$0]) }
        do {
            return try session.writeLog(to: path, copying: copied, dispatched: dispatched, forkEntry: branch.forkIndex)
        } catch {
            throw ReplayEditError(error.description)
        }
    }
}
