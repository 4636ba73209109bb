import Foundation
import Recorder
import RewindQuery

/// A log file as the inspector reads it: `LogReader` behind the
/// `TimelineSource` the model uses. For huge logs the rest of the file is
/// indexed on a background thread while the first screen is already up.
///
/// Interactive use also reads ahead: after a state is shown, the next entry's
/// row and state are prepared on a background queue, so the step after it
/// (even onto a keyframe, which needs a full parse) finds them ready.
final class LogTimeline: TimelineSource, @unchecked Sendable {
    let reader: LogReader
    let path: String
    let name: String
    /// Guards `summaries`, `firstEntryTime`, `prefetching` and `lastMissing` (the read-ahead queue uses them too).
    private let lock = NSLock()
    private var summaries: [Int: TimelineEntry] = [:]
    private var firstEntryTime: Date?
    private let indexer: BackgroundIndexer?
    private let readsAhead: Bool
    private var prefetching: Set<Int> = []
    /// The last "missing" notice given, so follow mode says it once.
    private var lastMissing: String?
    private let readAheadQueue = DispatchQueue(label: "rewind.inspector.read-ahead", qos: .userInitiated)
    /// Keep a placeholder row per damaged record, per gap and per later session (the interactive inspector).
    private let keepsDamagedRows: Bool
    /// Where the placeholders are, for the damage, gaps and sessions found so far (guarded by `lock`; rebuilt when more is found).
    private var placeholderRows = PlaceholderRows()
    private var placeholdersFor = (0, 0, 0)

    /// Opens `path`; with `indexInBackground` only the start of the file is
    /// scanned before returning (the interactive inspector), otherwise all of it (commands).
    /// `keepsDamagedRows` gives each damaged record, each gap and each later session a row of
    /// its own; either way entries are numbered as recorded (``entryNumber(at:)``).
    /// `lazyStates`: which keyframes the reader holds as bytes (tests make small states lazy).
    convenience init(path: String, indexInBackground: Bool = false, keepsDamagedRows: Bool = false,
                     lazyStates: LazyStates = .standard) throws(LogReadError) {
        try self.init(path: path, indexing: indexInBackground ? .lazily : .all, indexInBackground: indexInBackground,
                      keepsDamagedRows: keepsDamagedRows, lazyStates: lazyStates)
    }

    /// Opens `path` with only its first `bytes` indexed, for a caller that
    /// indexes the rest itself while it scans (``QueryScan/runIndexing()``).
    /// `prefetched` is the file ``LogReader/prefetch(path:bytes:)`` opened for it, if any.
    convenience init(path: String, indexingFirst bytes: Int, prefetched: PrefetchedFile? = nil) throws(LogReadError) {
        try self.init(path: path, indexing: .prefix(bytes: bytes), indexInBackground: false, keepsDamagedRows: false, prefetched: prefetched)
    }

    private init(path: String, indexing: LogReader.Indexing, indexInBackground: Bool, keepsDamagedRows: Bool,
                 prefetched: PrefetchedFile? = nil, lazyStates: LazyStates = .standard) throws(LogReadError) {
        self.keepsDamagedRows = keepsDamagedRows
        if let prefetched {
            reader = try LogReader(path: path, indexing: indexing, prefetched: prefetched)
        } else {
            reader = try LogReader(path: path, indexing: indexing, opened: nil, readAhead: nil, lazyStates: lazyStates)
        }
        self.path = path
        name = (path as NSString).lastPathComponent
        indexer = indexInBackground && !reader.isFullyIndexed ? BackgroundIndexer(reader: reader) : nil
        readsAhead = indexInBackground
    }

    deinit { indexer?.cancel() }

    var count: Int { rows.rowCount(entries: reader.entryCount) }

    /// The placeholders for the damage, gaps and (with `keepsDamagedRows`) sessions found so far
    /// (rows of their own when `keepsDamagedRows`; numbers only otherwise).
    private var rows: PlaceholderRows {
        let (damage, gaps) = (reader.damage, reader.gaps)
        let sessionCount = keepsDamagedRows ? reader.laterSessionCount : 0
        if damage.isEmpty && gaps.isEmpty && sessionCount == 0 { return PlaceholderRows() }
        if let known = lock.withLock({ placeholdersFor == (damage.count, gaps.count, sessionCount) ? placeholderRows : nil }) { return known }
        // How many readable entries come before each damaged line: a binary search by line number.
        let entries = reader.entryCount
        let damaged = damage.map { record in
            var low = 0, high = entries
            while low < high {
                let middle = (low + high) / 2
                if let line = try? reader.entryReadUpToItsState(at: middle).lineNumber, line < record.lineNumber { low = middle + 1 } else { high = middle }
            }
            return PlaceholderRows.Placeholder(kind: .damaged(DamagedRecord(line: record.lineNumber, reason: record.reason)), entriesBefore: low)
        }
        let missing = gaps.map { PlaceholderRows.Placeholder(kind: .gap($0), entriesBefore: $0.beforeEntry) }
        let sessions = sessionCount == 0 ? [] : reader.laterSessions.map { session in
            PlaceholderRows.Placeholder(kind: .session(SessionStart(
                line: session.lineNumber, description: EntryListing.sessionDescription(session),
                initialState: session.header?.initialState)), entriesBefore: session.beforeEntry)
        }
        let built = PlaceholderRows(damaged + missing + sessions, rowsForPlaceholders: keepsDamagedRows)
        lock.withLock { placeholderRows = built; placeholdersFor = (damage.count, gaps.count, sessions.count) }
        return built
    }

    func damagedRecord(at index: Int) -> DamagedRecord? { rows.record(atRow: index) }
    func gap(at index: Int) -> LogGap? { rows.gap(atRow: index) }
    func session(at index: Int) -> SessionStart? { rows.session(atRow: index) }
    func startsNewSession(at index: Int) -> Bool {
        guard let readerIndex = rows.readerIndex(ofRow: index) else { return false }
        return readerIndex > 0 && reader.startsSession(at: readerIndex)
    }
    /// The gaps with the first number each takes, in file order (commands print them between entries).
    var numberedGaps: [(gap: LogGap, firstNumber: Int)] {
        rows.numbered.compactMap { if case .gap(let gap) = $0.placeholder.kind { (gap, $0.firstNumber) } else { nil } }
    }
    func entryNumber(at index: Int) -> Int { rows.number(ofRow: index) }
    func lookUp(entryNumber number: Int) -> PlaceholderRows.Lookup { rows.lookUp(number: number, entries: reader.entryCount) }

    var indexing: IndexingProgress {
        reader.isFullyIndexed ? .complete : .scanning(fraction: reader.indexProgress)
    }

    var damage: [DamagedRecord] { reader.damage.map { DamagedRecord(line: $0.lineNumber, reason: $0.reason, lineWasRead: $0.lineWasRead) } }
    var tornTail: DamagedRecord? { reader.tornTail.map { DamagedRecord(line: $0.lineNumber, reason: $0.reason) } }
    var initialState: JSONValue? { reader.header.initialState }
    var datePaths: [String] { reader.header.datePaths }
    var recordedLog: LogReader? { reader }
    var queryableLog: LogReader? { reader }

    func recordedLogIndex(ofEntry index: Int) -> Int? {
        guard let readerIndex = rows.readerIndex(ofRow: index), (0..<reader.entryCount).contains(readerIndex) else { return nil }
        return readerIndex
    }

    func entryIndex(ofRecordedLogIndex logIndex: Int) -> Int { rows.row(ofReaderIndex: logIndex) }

    func positionsWithoutRecordedEntry(before end: Int) -> [Int] { rows.placeholderRows.filter { $0 < end } }

    func entry(at index: Int) -> TimelineEntry? {
        if let cached = lock.withLock({ summaries[index] }) { return cached }
        // A row needs the entry's head, not its state: a 30 MB keyframe's row reads 64 kB of it.
        guard let readerIndex = rows.readerIndex(ofRow: index), let entry = try? reader.entryReadUpToItsState(at: readerIndex) else { return nil }
        var start = lock.withLock { firstEntryTime }
        if start == nil {
            start = index == 0 ? entry.time : (try? reader.entryReadUpToItsState(at: 0))?.time
            lock.withLock { firstEntryTime = start }
        }
        let summary = TimelineEntry(
            index: index,
            timeOffset: max(0, entry.time.timeIntervalSince(start ?? entry.time)),
            actionType: entry.action.name,
            payload: entry.action.payload,
            payloadDatePaths: entry.action.datePaths,
            changedPaths: entry.changedPaths,
            fromEffect: entry.effectOf != nil,
            isKeyframe: entry.isKeyframe,
            trace: entry.trace,
            duration: entry.duration,
            sequence: entry.sequence,
            causeSequence: entry.effectOf)
        lock.withLock {
            // Only what is on screen is parsed; keep a screenful or two of summaries.
            if summaries.count >= 2048 { summaries.removeAll(keepingCapacity: true) }
            summaries[index] = summary
        }
        return summary
    }

    func scanEntries(_ indices: [Int], fields: ScannedEntry.Fields, _ body: (Int, ScannedEntry?) -> Bool) {
        let rows = self.rows
        guard !rows.isEmpty else { reader.scanEntries(indices, fields: fields, body); return }
        // Runs of readable entries go to the reader's batched scan; a placeholder is handed over as unreadable.
        var start = 0
        while start < indices.count {
            if rows.readerIndex(ofRow: indices[start]) == nil {
                if !body(indices[start], nil) { return }
                start += 1
                continue
            }
            var end = start + 1
            while end < indices.count, rows.readerIndex(ofRow: indices[end]) != nil { end += 1 }
            var goOn = true
            reader.scanEntries(indices[start..<end].map { rows.readerIndex(ofRow: $0)! }, fields: fields) { readerIndex, entry in
                goOn = body(rows.row(ofReaderIndex: readerIndex), entry)
                return goOn
            }
            if !goOn { return }
            start = end
        }
    }

    func scanStates(_ range: Range<Int>, keepingPrevious: Bool, _ body: (StateScanStep) -> Bool) {
        let rows = self.rows
        guard !rows.isEmpty else { reader.scanStates(range, keepingPrevious: keepingPrevious, body); return }
        // The reader's entries of those rows, numbered back as rows (the placeholders have no state to scan).
        let first = rows.readerIndex(ofRow: range.lowerBound) ?? rows.readerIndex(ofRow: range.lowerBound + 1) ?? 0
        let last = (range.lowerBound..<range.upperBound).reversed().lazy.compactMap { rows.readerIndex(ofRow: $0) }.first
        guard let last, first <= last else { return }
        reader.scanStates(first..<(last + 1), keepingPrevious: keepingPrevious) { step in
            var step = step
            step.index = rows.row(ofReaderIndex: step.index)
            return body(step)
        }
    }

    /// The state the entry at `index` started from: across the gaps right before it, the last
    /// recorded state (what a diff or a value's history compares with); for the first entry of
    /// a new session, the state that session started from (nil when its header has none).
    func stateNodeBefore(_ index: Int) -> JSONNode? {
        let rows = self.rows
        var row = index - 1
        while row >= 0 {
            if let session = rows.session(atRow: row) { return session.initialState.map(JSONNode.init) }
            guard rows.gap(atRow: row) != nil else { break }
            row -= 1
        }
        // Commands keep no row for a session: the entry that starts one starts from its header's state.
        if startsNewSession(at: index), let readerIndex = rows.readerIndex(ofRow: index) {
            return reader.laterSessions.first { $0.beforeEntry == readerIndex }?.header?.initialState.map(JSONNode.init)
        }
        return row >= 0 ? try? stateNode(at: row) : initialState.map(JSONNode.init)
    }

    func stateBefore(_ index: Int) -> JSONValue? { stateNodeBefore(index)?.value }

    func state(at index: Int) throws -> JSONValue { try stateNode(at: index).value }

    /// The reader's node: a huge keyframe's state held over its line's bytes, not a tree of it.
    func stateNode(at index: Int) throws -> JSONNode {
        guard let readerIndex = rows.readerIndex(ofRow: index) else {
            if let session = rows.session(atRow: index) {
                guard let state = session.initialState else {
                    throw StateUnavailable(description: "the new session's header holds no state before its first entry",
                                           reason: "it is the start of a new recording session whose header holds no state")
                }
                return JSONNode(state)
            }
            if let gap = rows.gap(atRow: index) {
                throw StateUnavailable(description: GapDescription.sentence(numbered: rows.number(ofRow: index), gap: gap),
                                       reason: "it was not recorded" + GapDescription.because(gap))
            }
            let record = rows.record(atRow: index)
            let damage = "record is damaged (line \(record?.line ?? 0): \(record?.reason ?? "unreadable"))"
            throw StateUnavailable(description: "entry \(rows.number(ofRow: index))'s " + damage, reason: "its " + damage)
        }
        let state: JSONNode
        do {
            state = try reader.stateNode(at: readerIndex)
        } catch {
            throw StateUnavailable(readerError: error)
        }
        if readsAhead { readAhead(index + 1) }
        return state
    }

    func stateRebuildBytes(at index: Int) -> Int {
        rows.readerIndex(ofRow: index).map { reader.stateRebuildBytes(at: $0) } ?? 0
    }

    func stateBytesEstimate(at index: Int) -> Int? {
        rows.readerIndex(ofRow: index).flatMap { reader.keyframeBytes(forStateAt: $0) }
    }

    var concurrentReader: (any TimelineSource & Sendable)? { self }

    /// Blocks until the read-ahead queued so far is done (benchmarks).
    func waitForReadAhead() { readAheadQueue.sync {} }

    /// Blocks until the background scan has finished (tests: awaited, not polled).
    func waitUntilIndexed() { indexer?.waitUntilFinished() }

    /// Prepares entry `index`'s row and state in the background (the reader caches the state).
    private func readAhead(_ index: Int) {
        guard index < count, lock.withLock({ prefetching.insert(index).inserted }) else { return }
        readAheadQueue.async { [self] in
            _ = entry(at: index)
            if let readerIndex = rows.readerIndex(ofRow: index) { _ = try? reader.stateNode(at: readerIndex) }
            lock.withLock { _ = prefetching.remove(index) }
        }
    }

    func refresh() -> FollowNotice? {
        // While the background scan runs, it is the one reading the file.
        guard indexer?.isRunning != true, reader.isFullyIndexed else { return nil }
        let outcome = reader.refresh()
        let notice: FollowNotice?
        switch outcome {
        case .unchanged, .appended: return nil
        case .truncated: notice = FollowNotice(message: "\(name) was cut or rewritten in place: reading it again from the start", startedOver: true)
        case .replaced: notice = FollowNotice(message: "\(name) was rotated or replaced: reading the new file from the start", startedOver: true)
        case .missing(var why):
            // Said once, not on every tick; the file by its name, as the other notices and the status bar name it.
            let said = lock.withLock { defer { lastMissing = why }; return lastMissing == why }
            if why.hasPrefix(path) { why = name + why.dropFirst(path.count) }
            return said ? nil : FollowNotice(message: why, startedOver: false)
        }
        lock.withLock {
            // Entries are re-read from scratch.
            summaries.removeAll()
            placeholdersFor = (-1, -1, -1)
            firstEntryTime = nil
            lastMissing = nil
        }
        return notice
    }

    /// Size of the file in bytes.
    var byteCount: Int64 { reader.byteCount }
}

/// Scans the rest of a log in small steps on a background thread, so the
/// reader's lock is never held long and the screen stays responsive.
final class BackgroundIndexer: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false
    private var running = true
    private let finished = DispatchGroup()

    init(reader: LogReader) {
        // What a person waits for (`G`, `:N`, and `:find`, whose chunks wait for the index to reach
        // them), so not `.utility`: libdispatch runs that at nice +2 on Linux (throttled on Darwin),
        // below the search threads that wait for it and below every other process on a busy machine.
        DispatchQueue.global(qos: .userInitiated).async(group: finished) { [self] in
            while !isCancelled, reader.indexMore(maxBytes: 2 << 20) {}
            lock.withLock { running = false }
        }
    }

    func waitUntilFinished() { finished.wait() }

    private var isCancelled: Bool { lock.withLock { cancelled } }
    var isRunning: Bool { lock.withLock { running } }
    func cancel() { lock.withLock { cancelled = true } }
}

/// Why a state cannot be shown, worded for the state pane: the reader's
/// message without the file path (already in the status bar) and without its
/// 0-based entry number (the inspector counts from 1).
struct StateUnavailable: Error, CustomStringConvertible {
    /// The state pane's wording: `it cannot be rebuilt: it depends on line 3, …`.
    let description: String
    /// Only the why, worded to follow a command's own subject and "cannot be rebuilt: "
    /// (`it depends on line 3, which is damaged; …`), so no message says it twice.
    let reason: String

    init(description: String, reason: String) {
        self.description = description
        self.reason = reason
    }

    init(readerError: LogReadError) {
        var text = readerError.description
        if text.hasPrefix(readerError.path + ": ") { text.removeFirst(readerError.path.count + 2) }
        if let range = text.range(of: "cannot be rebuilt: ") {
            reason = String(text[range.upperBound...])
            description = "it cannot be rebuilt: " + reason
        } else {
            reason = text
            description = text
        }
    }

    /// Why the state behind `error` (from ``TimelineSource/state(at:)``) cannot be had,
    /// to follow "… cannot be rebuilt: ".
    static func reason(of error: any Error) -> String {
        (error as? StateUnavailable)?.reason ?? "\(error)"
    }
}
