import Recorder
import RewindQuery

/// What the inspector knows about one entry without rebuilding its state.
struct TimelineEntry: Equatable, Sendable {
    /// Position in the log, from 0.
    var index: Int
    /// Seconds since the first entry.
    var timeOffset: Double
    var actionType: String
    var payload: JSONValue
    /// Where the payload holds `Date`s (the entry's `payloadDates`), for summaries.
    var payloadDatePaths: [String] = []
    /// Paths the action changed; empty when it changed nothing.
    var changedPaths: [JSONPointer]
    /// True when an effect, not the user, dispatched the action.
    var fromEffect: Bool
    /// True when the entry stores the whole state rather than a patch.
    var isKeyframe: Bool
    /// Where the action was dispatched (call site, call stack), when the recorder knew it;
    /// for the action pane and `rewind log --trace`.
    var trace: EntryTrace? = nil
    /// How long the reducer took, in seconds, when recorded.
    var duration: Double? = nil
    /// The recorder's sequence number, and for an effect's action the sequence number of the entry that sent it.
    var sequence: Int64? = nil
    var causeSequence: Int64? = nil
}

/// A record of the log that could not be read; the inspector lists these.
struct DamagedRecord: Equatable, Sendable {
    /// 1-based line number in the log file.
    var line: Int
    var reason: String
    /// True when the line's own record was read: the damage is records missing before it.
    var lineWasRead = false
}

/// What follow mode found besides new entries, for the status line.
struct FollowNotice: Equatable, Sendable {
    var message: String
    /// The log is read from its start again: entry numbers, marks and filter results no longer hold.
    var startedOver: Bool
}

/// How far the background scan of the log has got.
enum IndexingProgress: Equatable, Sendable {
    case complete
    /// `fraction` of the file's bytes scanned so far, 0...1.
    case scanning(fraction: Double)
}

/// Everything the inspector reads from a log. The model never owns the data:
/// it asks for the few entries and the one state on screen (lnav's
/// data-source idea), so a million-entry log costs no more than a small one.
///
/// Implementations cache what they rebuild; reading the same index twice is
/// cheap, and reading a neighbour of a cached state applies one patch.
protocol TimelineSource: AnyObject {
    /// The file name shown in the status bar.
    var name: String { get }
    /// Entries indexed so far (grows while indexing and in follow mode).
    var count: Int { get }
    var indexing: IndexingProgress { get }
    /// Records that could not be read, in file order.
    var damage: [DamagedRecord] { get }
    /// The last line when it was cut off (a recording still being written,
    /// or a crash mid-write); it is not an entry.
    var tornTail: DamagedRecord? { get }
    /// The state before the first entry, when the log has it.
    var initialState: JSONValue? { get }
    /// `nil` when the entry's record cannot be read.
    func entry(at index: Int) -> TimelineEntry?
    /// The damaged record whose placeholder row is at `index`, for a source that keeps
    /// one for each (the inspector's LogTimeline), so entry numbers stay those of the file.
    func damagedRecord(at index: Int) -> DamagedRecord?
    /// The gap whose placeholder row is at `index` (entries the recorder could not
    /// write), for a source that keeps rows for them.
    func gap(at index: Int) -> LogGap?
    /// The new recording session whose placeholder row is at `index` (the log was opened
    /// again there), for a source that keeps rows for them.
    func session(at index: Int) -> SessionStart?
    /// Whether the entry at `index` is the first of a recording session after the first
    /// (the log was opened again right before it).
    func startsNewSession(at index: Int) -> Bool
    /// The number position `index` shows: entries keep the numbers they were recorded
    /// with, counting what gaps and damaged records before them stand for.
    func entryNumber(at index: Int) -> Int
    /// The position of the entry numbered `number` (what `:N` and `--at N` mean).
    func lookUp(entryNumber number: Int) -> PlaceholderRows.Lookup
    /// Scans over every entry (EntryScans) read through this: hands `body` the
    /// action type and `fields` of the entries at `indices`, in order, until it
    /// returns false; nil where ``entry(at:)`` is nil. Finds what ``entry(at:)``
    /// finds, faster, and leaves its cache alone.
    func scanEntries(_ indices: [Int], fields: ScannedEntry.Fields, _ body: (Int, ScannedEntry?) -> Bool)
    /// The state after entry `index`; throws (with a one-line description)
    /// when a damaged record it depends on makes it unavailable.
    func state(at index: Int) throws -> JSONValue
    /// The state after entry `index` as a ``JSONNode``, read a node at a time: what the
    /// state pane, search, the value viewer and the diff read (a huge state need not be
    /// parsed whole). Throws as ``state(at:)`` does.
    func stateNode(at index: Int) throws -> JSONNode
    /// How many bytes of records ``state(at:)`` reads for entry `index`: 0 when the state
    /// is cached (or the source holds its states). The inspector reads a state that takes
    /// long to read on another thread, through ``concurrentReader``.
    func stateRebuildBytes(at index: Int) -> Int
    /// About how many bytes the state after entry `index` takes as JSON, without rebuilding it
    /// (the sparkline's sample of a state that takes long to read); nil when it is not known.
    func stateBytesEstimate(at index: Int) -> Int?
    /// This source, when it may be read from another thread at the same time (``LogTimeline``);
    /// nil for one that must be read on the session's thread (whose states are then at hand).
    var concurrentReader: (any TimelineSource & Sendable)? { get }
    /// Picks up entries appended to the file since the last call (follow mode
    /// calls it on every tick; background indexing grows `count` by itself).
    /// Returns a notice when the file was cut, rewritten, rotated or removed
    /// rather than appended to.
    func refresh() -> FollowNotice?
    /// The state before entry `index` ran (a replay branch's first entry follows its fork, not the previous entry).
    func stateBefore(_ index: Int) -> JSONValue?
    /// ``stateBefore(_:)`` as a ``JSONNode``: what the diff pane compares the selected state with.
    func stateNodeBefore(_ index: Int) -> JSONNode?
    /// The log whose states every entry shows, for `:find` and `:bisect` to search
    /// with `rewind find`'s engine (``QueryScan``, in the background); nil for a
    /// timeline whose states are not all the log's (a replay branch, skipped entries)
    /// or that reads none, which is searched a slice at a time through ``scanStates(_:keepingPrevious:_:)``.
    var queryableLog: LogReader? { get }
    /// The entries of `range` in order with their states (``LogReader/scanStates(_:keepingPrevious:_:)``),
    /// until `body` returns false: `:find` and `:bisect` on a timeline without a ``queryableLog``.
    func scanStates(_ range: Range<Int>, keepingPrevious: Bool, _ body: (StateScanStep) -> Bool)
    /// The header's `datePaths`: where the state holds `Date`s (docs/FORMAT.md).
    var datePaths: [String] { get }
    /// The replay work over this timeline when a reducer is linked (``ReplayTimeline`` is itself); nil otherwise.
    var replayTimeline: ReplayTimeline? { get }
    /// The log file's header and whole entries (times, sequence numbers, the recorded
    /// action), for exports; nil for a timeline that is not read from a log file.
    var recordedLog: LogReader? { get }
    /// Which of ``recordedLog``'s entries is at position `index`; nil for a position the
    /// log file holds no entry for (a damaged record's placeholder, a replay branch entry).
    func recordedLogIndex(ofEntry index: Int) -> Int?
    /// The position of ``recordedLog``'s entry `logIndex`: the inverse of ``recordedLogIndex(ofEntry:)``.
    func entryIndex(ofRecordedLogIndex logIndex: Int) -> Int
    /// The positions before `end` that ``recordedLog`` holds no entry for (a damaged record's
    /// placeholder, a gap's), in order: `:bisect` could not check them.
    func positionsWithoutRecordedEntry(before end: Int) -> [Int]
}

extension TimelineSource {
    func stateRebuildBytes(at index: Int) -> Int { 0 }
    func stateBytesEstimate(at index: Int) -> Int? { nil }
    var concurrentReader: (any TimelineSource & Sendable)? { nil }
    func damagedRecord(at index: Int) -> DamagedRecord? { nil }
    func gap(at index: Int) -> LogGap? { nil }
    func session(at index: Int) -> SessionStart? { nil }
    func startsNewSession(at index: Int) -> Bool { false }
    func entryNumber(at index: Int) -> Int { index + 1 }
    func lookUp(entryNumber number: Int) -> PlaceholderRows.Lookup {
        number >= 1 && number <= count ? .row(number - 1) : .pastTheEnd
    }

    func scanEntries(_ indices: [Int], fields: ScannedEntry.Fields, _ body: (Int, ScannedEntry?) -> Bool) {
        for index in indices {
            let entry = entry(at: index).map {
                ScannedEntry(actionType: $0.actionType, payload: $0.payload, changedPaths: $0.changedPaths, fields: fields)
            }
            if !body(index, entry) { return }
        }
    }

    /// One entry and one state at a time, for sources without a faster way.
    func scanStates(_ range: Range<Int>, keepingPrevious: Bool, _ body: (StateScanStep) -> Bool) {
        for index in range.clamped(to: 0..<count) {
            let entry = entry(at: index)
            let step = StateScanStep(index: index, lineNumber: 0, actionType: entry?.actionType ?? "", changedPaths: entry?.changedPaths ?? [],
                                     patch: nil, state: try? state(at: index), previousState: keepingPrevious ? stateBefore(index) : nil,
                                     isReadable: entry != nil)
            if !body(step) { return }
        }
    }

    /// The state before entry `index` ran, when it can be had.
    func stateBefore(_ index: Int) -> JSONValue? {
        index > 0 ? try? state(at: index - 1) : initialState
    }

    /// A source that holds its states as trees hands them out as nodes.
    func stateNode(at index: Int) throws -> JSONNode { JSONNode(try state(at: index)) }

    /// A source that holds its states as trees hands them out as nodes.
    func stateNodeBefore(_ index: Int) -> JSONNode? { stateBefore(index).map(JSONNode.init) }

    var datePaths: [String] { [] }

    var replayTimeline: ReplayTimeline? { nil }

    var recordedLog: LogReader? { nil }

    var queryableLog: LogReader? { nil }

    /// Positions are the log's entries, for a source that keeps no rows of its own.
    func recordedLogIndex(ofEntry index: Int) -> Int? {
        guard let log = recordedLog, (0..<log.entryCount).contains(index) else { return nil }
        return index
    }

    func entryIndex(ofRecordedLogIndex logIndex: Int) -> Int { logIndex }

    /// Asks every position: for small sources; a log's timeline knows its placeholders.
    func positionsWithoutRecordedEntry(before end: Int) -> [Int] {
        (0..<min(end, count)).filter { recordedLogIndex(ofEntry: $0) == nil }
    }
}
