import Foundation

/// Replays a log through the user's real reducer: restores recorded states
/// with the user's `Decodable` State type, decodes recorded actions with the
/// Action type, and dispatches them.
///
/// Effects are never run: the reducer's return value (an effect, `[Action]`,
/// anything) is dropped, and the actions that effects sent are replayed from
/// the recording, in their recorded order, like every other entry.
///
/// Outside values the reducer reads through ``Recorded`` are handed back as
/// recorded for each entry; a read the entry has no value for is a divergence.
///
/// The inspector's replay workbench (skipping entries, a branch of hand-edited
/// actions, saving it) builds on it: `Inspector/Replay/ReplayWorkbench.swift`.
package final class ReplaySession<State: Codable, Action>: ReplayVerifier {
    package let reader: LogReader
    private let reducer: (inout State, Action) -> Void
    private let decodeAction: ActionDecoding<Action>
    private let decoder = JSONValueDecoder()
    private var decodedActions: [Int: Result<Action, ReplayError>] = [:]
    private var cachedCompatibility: ReplayCompatibilityReport?


    /// `reducer` may return anything (an effect, `[Action]`, `Void`): the result is ignored.
    package init<Result>(reader: LogReader, reducer: @escaping (inout State, Action) -> Result) where Action: Decodable {
        self.reader = reader
        self.reducer = { state, action in _ = reducer(&state, action) }
        decodeAction = ActionDecoding { _, payload, decoder throws(JSONValueDecodingError) in try decoder.decode(Action.self, from: payload) }
    }

    /// A reducer whose actions are decoded by `decodeAction` (ReSwift's protocol-typed actions).
    init(reader: LogReader, reducer: @escaping (inout State, Action) -> Void, decodeAction: ActionDecoding<Action>) {
        self.reader = reader
        self.reducer = reducer
        self.decodeAction = decodeAction
    }

    package var entryCount: Int { reader.entryCount }

    /// A new session over the same log and reducer that shares no cache with this one,
    /// so a background queue can replay while this one serves the screen.
    package func makeVerifier() -> any ReplayVerifier {
        ReplaySession(reader: reader, reducer: reducer, decodeAction: decodeAction)
    }

    // MARK: Decoding and encoding

    /// The recorded action of entry `index`, decoded with the current Action type (cached).
    package func action(at index: Int) -> Result<Action, ReplayError> {
        if let cached = decodedActions[index] { return cached }
        let result: Result<Action, ReplayError>
        do {
            let entry = try reader.entry(at: index)
            result = decode(entry.action, entry: index)
        } catch {
            result = .failure(ReplayError(.unreadable(error)))
        }
        if decodedActions.count > 4096 { decodedActions.removeAll(keepingCapacity: true) }
        decodedActions[index] = result
        return result
    }

    func decode(_ action: LogEntry.Action, entry index: Int) -> Result<Action, ReplayError> {
        guard action.isReplayable else { return .failure(ReplayError(.actionNotReplayable(entry: numbered(index), name: action.name))) }
        do {
            return .success(try decodeAction.decode(action.name, action.payload, decoder))
        } catch {
            return .failure(ReplayError(.actionCannotDecode(entry: numbered(index), name: action.name, error)))
        }
    }

    /// Entry `index` with the number `rewind log` gives it, for what a report says about it.
    private func numbered(_ index: Int) -> ReplayError.Entry {
        ReplayError.Entry(index: index, number: reader.entryNumber(at: index))
    }

    func decodeState(_ json: JSONValue, entry: Int?) throws(ReplayError) -> State {
        guard reader.header.isStateReplayable else { throw ReplayError(.stateNotReplayable) }
        do {
            return try decoder.decode(State.self, from: json)
        } catch {
            throw ReplayError(.stateCannotDecode(entry: entry.map(numbered), error))
        }
    }

    /// The recorded state after entry `index`, decoded.
    package func recordedState(at index: Int) throws(ReplayError) -> State {
        let json: JSONValue
        do { json = try reader.state(at: index) } catch { throw ReplayError(.unreadable(error)) }
        return try decodeState(json, entry: index)
    }

    /// The recorded state before entry `index` ran, or nil when the log does not have it
    /// (no initial state in the header, or a damaged record in the way).
    package func recordedState(before index: Int) throws(ReplayError) -> State? {
        if index == 0 {
            guard let initial = reader.header.initialState else { return nil }
            return try decodeState(initial, entry: nil)
        }
        guard let json = try? reader.state(at: index - 1) else { return nil }
        return try decodeState(json, entry: index - 1)
    }

    /// Encodes a recomputed state the way the recorder encodes states (canonically, through the byte encoder).
    package func encode(_ state: State, entry: Int) throws(ReplayError) -> JSONValue {
        do {
            return try JSONParser.parse(JSONEncoding.compact(state))
        } catch {
            throw ReplayError(.stateCannotEncode(entry: numbered(entry), "\(error)"))
        }
    }

    // MARK: Verifying

    package func replay(from start: Int) -> ReplayRun { replay(from: start, stopAtFirstProblem: false) }

    /// Dispatches every action from `start` on through the reducer, comparing each
    /// recomputed state with the recorded one as JSON. After a divergence (or an
    /// entry that cannot be replayed) it continues from the recorded state, so each
    /// divergent entry is one where the reducer itself computed something else.
    ///
    /// `proceed` is asked before each entry (with its index); when it returns false
    /// the run stops there (the inspector's background replay reports progress and is cancelled through it).
    package func replay(from start: Int, stopAtFirstProblem: Bool, proceed: (Int) -> Bool = { _ in true }) -> ReplayRun {
        var run = ReplayRun(start: max(0, start), checks: [])
        let count = entryCount
        guard run.start < count else { return run }
        var current: State?
        var restartReason = "the log has no state before entry \(reader.entryNumber(at: run.start))"
        do {
            current = try recordedState(before: run.start)
        } catch {
            run.checks.append(.cannotReplay(error))
            return run
        }
        var previous: LogEntry?
        for index in run.start..<count {
            guard proceed(index) else { return run }
            let entry: LogEntry
            do {
                entry = try reader.entry(at: index)
            } catch {
                run.checks.append(.cannotReplay(ReplayError(.unreadable(error))))
                if stopAtFirstProblem { return run }
                current = nil
                restartReason = "entry \(reader.entryNumber(at: index)) is damaged"
                continue
            }
            defer { previous = entry }
            if let previous, let reason = Self.chainBreak(between: previous, and: entry, number: reader.entryNumber(at: index),
                                                            startsSession: reader.startsSession(at: index), gaps: reader.gaps) {
                current = nil
                restartReason = reason
            }
            guard let state = current else {
                run.checks.append(entry.action.isReplayable ? .restarted(reason: restartReason) : .restored(reason: Self.notCodable(entry)))
                current = try? recordedState(at: index)
                continue
            }
            let check = self.check(entry: entry, startingFrom: state, next: &current)
            run.checks.append(check)
            if stopAtFirstProblem, check.isProblem { return run }
        }
        return run
    }

    /// Replays one entry on `state`; `next` becomes the state to continue from.
    private func check(entry: LogEntry, startingFrom state: State, next: inout State?) -> ReplayRun.Check {
        let index = entry.index
        let action: Action
        switch decode(entry.action, entry: index) {
        case .success(let decoded): action = decoded
        case .failure(let error):
            next = try? recordedState(at: index)
            // Not Codable (ReSwift's ReSwiftInit, a Ping): nothing to re-run, but the
            // state after it is in the log, so replay goes on from there.
            if case .actionNotReplayable = error.reason, next != nil {
                return .restored(reason: Self.notCodable(entry))
            }
            return .cannotReplay(error)
        }
        var state = state
        let unrecordedReads = run(action, on: &state, values: entry.recordedValues)
        do throws(ReplayError) {
            let recomputedJSON = try encode(state, entry: index)
            let recordedJSON: JSONValue
            do { recordedJSON = try reader.state(at: index) } catch { throw ReplayError(.unreadable(error)) }
            if unrecordedReads.isEmpty, ReplayComparison.matches(recorded: recordedJSON, recomputed: recomputedJSON) {
                next = state
                return .matches
            }
            next = try? decodeState(recordedJSON, entry: index)
            return .diverges(ReplayDivergence(
                entryIndex: index, entryCount: entryCount, entryNumber: reader.entryNumber(at: index),
                lastEntryNumber: entryCount > 0 ? reader.entryNumber(at: entryCount - 1) : 0, action: entry.action,
                recorded: recordedJSON, recomputed: ReplayComparison.masked(recomputedJSON, like: recordedJSON),
                unrecordedReads: unrecordedReads))
        } catch {
            next = try? recordedState(at: index)
            return .cannotReplay(error)
        }
    }

    private static func notCodable(_ entry: LogEntry) -> String {
        "\(entry.action.name) was recorded through reflection (not Codable), so its recorded state was used"
    }

    /// Runs the reducer with the entry's recorded outside values bound; returns the
    /// reads it had no recorded value for.
    package func run(_ action: Action, on state: inout State, values: [Recorded.Value]) -> [String] {
        RecordedValuesContext.replaying(values) { reducer(&state, action) }
    }

    /// Why the state before `entry` is not the state after `previous`: a new
    /// recording session, entries dropped in between, or damaged lines skipped.
    static func chainBreak(between previous: LogEntry, and entry: LogEntry, number: Int, startsSession: Bool, gaps: [LogGap]) -> String? {
        if startsSession || entry.sequence == 0 { return "a new recording session starts at entry \(number)" }
        if gaps.contains(where: { $0.beforeEntry == entry.index }) { return "the recorder dropped entries before entry \(number)" }
        if entry.lineNumber != previous.lineNumber + 1 { return "records before entry \(number) are damaged or missing" }
        return nil
    }

    // MARK: Compatibility

    package var compatibility: ReplayCompatibilityReport {
        if let cachedCompatibility { return cachedCompatibility }
        let report = checkCompatibility(continuing: CompatibilityCheck(), through: entryCount).report
        cachedCompatibility = report
        return report
    }

    /// Extends `check` over entries `check.checkedEntries..<end`: one sample of every
    /// new action type is decoded, keyframes are noted; then the initial state and
    /// (up to 64, spread over what was seen) keyframe states are decoded. Never
    /// throws: problems are the report. `proceed` is asked before each entry; when it
    /// returns false the check stops there (``CompatibilityCheck/checkedEntries`` says how far it got).
    package func checkCompatibility(continuing check: CompatibilityCheck, through end: Int,
                                    proceed: (Int) -> Bool = { _ in true }) -> CompatibilityCheck {
        var check = check
        for index in check.checkedEntries..<max(check.checkedEntries, min(end, entryCount)) {
            guard proceed(index) else { break }
            check.checkedEntries = index + 1
            guard let entry = try? reader.entry(at: index) else { continue }
            if entry.isKeyframe { check.keyframes.append(index) }
            if let existing = check.positions[entry.action.name] {
                check.report.actionTypes[existing].count += 1
                continue
            }
            check.positions[entry.action.name] = check.report.actionTypes.count
            let status: ReplayCompatibilityReport.Status
            switch decode(entry.action, entry: index) {
            case .success: status = .ok
            case .failure(let error):
                if case .actionCannotDecode(_, _, let decodeError) = error.reason {
                    status = .cannotDecode(reason: decodeError.description)
                } else {
                    status = .notReplayable
                }
            }
            check.report.actionTypes.append(ReplayCompatibilityReport.ActionType(
                name: entry.action.name, count: 1, sampleEntry: index, sampleEntryNumber: reader.entryNumber(at: index), status: status))
        }
        var checked = 0
        var problem: String?
        if !reader.header.isStateReplayable {
            problem = "recorded through reflection, not Codable"
        } else {
            if let initial = reader.header.initialState {
                do { _ = try decodeState(initial, entry: nil); checked += 1 } catch { problem = "initial state: \(Self.decodeReason(error))" }
            }
            let keyframes = check.keyframes
            let stride = max(1, keyframes.count / 64)
            for (number, index) in keyframes.enumerated() where problem == nil && (number % stride == 0 || number == keyframes.count - 1) {
                do { _ = try recordedState(at: index); checked += 1 } catch { problem = "entry \(reader.entryNumber(at: index)): \(Self.decodeReason(error))" }
            }
        }
        check.report.statesChecked = checked
        check.report.stateProblem = problem
        return check
    }

    private static func decodeReason(_ error: ReplayError) -> String {
        if case .stateCannotDecode(_, let decodeError) = error.reason { return decodeError.description }
        return error.description
    }

    // MARK: For the inspector's workbench (skip, edit, branch: Inspector/Replay/ReplayWorkbench.swift)

    /// Decodes a hand-edited action with the user's Action type; `name` is the case path
    /// or type name of the entry it replaces, when there is one (ReSwift picks the type by it).
    package func decodeEditedAction(_ json: JSONValue, named name: String?) throws(JSONValueDecodingError) -> Action {
        try decodeAction.decode(name, json, decoder)
    }

    /// Runs the reducer live (not replaying): what it reads through ``Recorded`` is
    /// captured, to be saved with the action as if it had been recorded.
    package func dispatch(_ action: Action, on state: inout State) -> LiveReads {
        let ((), values) = RecordedValuesContext.capturing { reducer(&state, action) }
        return LiveReads(values: values)
    }

    /// The case path or type name the recorder would give `action`.
    package func actionName(_ action: Action) -> String { RecordedValue.actionName(action) }

    /// Entry `index`'s action for copying into a new log: decoded, or as recorded when it
    /// was recorded through reflection (ReSwift's `ReSwiftInit`, as verify restores it).
    package func copyableAction(at index: Int) throws(ReplayError) -> Any {
        switch action(at: index) {
        case .success(let decoded): return decoded
        case .failure(let error):
            guard case .actionNotReplayable = error.reason else { throw error }
            let entry: LogEntry
            do { entry = try reader.entry(at: index) } catch { throw ReplayError(.unreadable(error)) }
            return PreEncodedValue(json: entry.action.payload, replayable: false, actionName: entry.action.name)
        }
    }

    /// Writes a new log at `path` (created here, exclusively, never through a link): the
    /// `copied` log entries with their recorded times, durations, causes and outside values,
    /// then the `dispatched` actions at the last copied entry's time. Returns the entries written.
    package func writeLog(to path: String, copying copied: [(action: Any, state: State, entry: LogEntry)],
                          dispatched: [(action: Action, state: State, reads: LiveReads)], forkEntry: Int) throws(LogCopyError) -> Int {
        let initial: State?
        do { initial = try recordedState(before: 0) } catch { throw LogCopyError("\(error)") }
        var options = ActionRecorder.Options()
        // The copied entries keep their recorded times and durations: the clock starts at the
        // first entry's time and each entry is recorded at its offset from it (ActionRecorder.record).
        let firstTime = copied.first?.entry.time.timeIntervalSince1970 ?? reader.header.created.timeIntervalSince1970
        // (The base reading leaves room for the first entry's duration before it.)
        let base: UInt64 = 1 << 40
        options.clock = RecorderClock(now: { firstTime }, nanoseconds: { base })
        // Saturating: a log from elsewhere may hold times of ±1e300 (or NaN once subtracted).
        func nanoseconds(at time: Date) -> UInt64 { base.addingSaturating(UInt64(saturating: (time.timeIntervalSince1970 - firstTime) * 1e9)) }
        options.keyframeInterval = reader.header.keyframeInterval
        options.metadata = reader.header.metadata.merging(
            ["branchOf": reader.path, "forkEntry": String(forkEntry + 1)]) { _, new in new }
        // Created here, exclusively and never through a symbolic link, so the
        // recorder cannot append to (or write through) anything that appeared under the name.
        let created = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard created >= 0 else {
            throw LogCopyError(errno == EEXIST ? "\(path) already exists" : "cannot save the branch: \(path): \(String(cString: strerror(errno)))")
        }
        close(created)
        let recorder: ActionRecorder
        do { recorder = try ActionRecorder(file: path, options: options) } catch { throw LogCopyError("\(error)") }
        var newSequence: [Int64: Int64] = [:]
        var written = 0
        for (offset, item) in copied.enumerated() {
            // The recorded times and durations go along.
            let end = nanoseconds(at: item.entry.time)
            let start = end - min(base, UInt64(saturating: item.entry.duration * 1e9))
            let origin = item.entry.effectOf.flatMap { newSequence[$0] }
            // The outside values go along, so the saved log replays like this one.
            let values = item.entry.recordedValues.map { CapturedValue(name: $0.name, value: PreEncodedValue(json: $0.json)) }
            if let sequence = recorder.record(
                state: item.state, action: item.action, start: start, end: end, effectOf: origin,
                initialState: offset == 0 ? initial : nil, values: values, actionType: Action.self) {
                newSequence[item.entry.sequence] = sequence
            }
            written += 1
        }
        // Dispatched by hand, never recorded: they carry the fork entry's time.
        let forkTime = copied.last.map { nanoseconds(at: $0.entry.time) } ?? 0
        for (offset, item) in dispatched.enumerated() {
            recorder.record(state: item.state, action: item.action, start: forkTime, end: forkTime, effectOf: nil,
                            initialState: written == 0 && offset == 0 ? initial : nil, values: item.reads.values)
            written += 1
        }
        do { try recorder.close() } catch { throw LogCopyError("\(error)") }
        return written
    }
}

/// What a reducer dispatched live read through ``Recorded`` (saved with its action).
package struct LiveReads {
    let values: [CapturedValue]
}

/// Why ``ReplaySession/writeLog(to:copying:dispatched:forkEntry:)`` wrote no log, in one line.
package struct LogCopyError: Error, Sendable, Equatable, CustomStringConvertible {
    package var description: String
    init(_ description: String) { self.description = description }
}

/// How a replay session turns a recorded action (its case path or type name, and
/// its payload) back into the reducer's Action type.
package struct ActionDecoding<Action> {
    package let decode: (_ name: String?, _ payload: JSONValue, _ decoder: JSONValueDecoder) throws(JSONValueDecodingError) -> Action

    package init(decode: @escaping (_ name: String?, _ payload: JSONValue, _ decoder: JSONValueDecoder) throws(JSONValueDecodingError) -> Action) {
        self.decode = decode
    }
}
