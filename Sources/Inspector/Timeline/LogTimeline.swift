import Foundation
import Recorder

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

    /// Opens `path`; with `indexInBackground` only the start of the file is
    /// scanned before returning (the interactive inspector), otherwise all of it (commands).
    init(path: String, indexInBackground: Bool = false) throws(LogReadError) {
        reader = try LogReader(path: path, indexing: indexInBackground ? .lazily : .all)
        self.path = path
        name = (path as NSString).lastPathComponent
        indexer = indexInBackground && !reader.isFullyIndexed ? BackgroundIndexer(reader: reader) : nil
        readsAhead = indexInBackground
    }

    deinit { indexer?.cancel() }

    var count: Int { reader.entryCount }

    var indexing: IndexingProgress {
        reader.isFullyIndexed ? .complete : .scanning(fraction: reader.indexProgress)
    }

    var damage: [DamagedRecord] { reader.damage.map { DamagedRecord(line: $0.lineNumber, reason: $0.reason) } }
    var tornTail: DamagedRecord? { reader.tornTail.map { DamagedRecord(line: $0.lineNumber, reason: $0.reason) } }
    var initialState: JSONValue? { reader.header.initialState }
    var datePaths: [String] { reader.header.datePaths }
    var recordedLog: LogReader? { reader }

    func entry(at index: Int) -> TimelineEntry? {
        if let cached = lock.withLock({ summaries[index] }) { return cached }
        guard let entry = try? reader.entry(at: index) else { return nil }
        var start = lock.withLock { firstEntryTime }
        if start == nil {
            start = index == 0 ? entry.time : (try? reader.entry(at: 0))?.time
            lock.withLock { firstEntryTime = start }
        }
        let summary = TimelineEntry(
            index: index,
            timeOffset: max(0, entry.time.timeIntervalSince(start ?? entry.time)),
            actionType: entry.action.name,
            payload: entry.action.payload,
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
        reader.scanEntries(indices, fields: fields, body)
    }

    func scanStates(_ range: Range<Int>, keepingPrevious: Bool, _ body: (StateScanStep) -> Bool) {
        reader.scanStates(range, keepingPrevious: keepingPrevious, body)
    }

    func state(at index: Int) throws -> JSONValue {
        let state: JSONValue
        do {
            state = try reader.state(at: index)
        } catch {
            throw StateUnavailable(readerError: error)
        }
        if readsAhead { readAhead(index + 1) }
        return state
    }

    /// Blocks until the read-ahead queued so far is done (benchmarks).
    func waitForReadAhead() { readAheadQueue.sync {} }

    /// Blocks until the background scan has finished (tests: awaited, not polled).
    func waitUntilIndexed() { indexer?.waitUntilFinished() }

    /// Prepares entry `index`'s row and state in the background (the reader caches the state).
    private func readAhead(_ index: Int) {
        guard index < count, lock.withLock({ prefetching.insert(index).inserted }) else { return }
        readAheadQueue.async { [self] in
            _ = entry(at: index)
            _ = try? reader.state(at: index)
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
        case .missing(let why):
            // Said once, not on every tick.
            let said = lock.withLock { defer { lastMissing = why }; return lastMissing == why }
            return said ? nil : FollowNotice(message: why, startedOver: false)
        }
        lock.withLock {
            // Entries are re-read from scratch.
            summaries.removeAll()
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
        DispatchQueue.global(qos: .utility).async(group: finished) { [self] in
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
    let description: String

    init(readerError: LogReadError) {
        var text = readerError.description
        if text.hasPrefix(readerError.path + ": ") { text.removeFirst(readerError.path.count + 2) }
        if let range = text.range(of: "cannot be rebuilt: ") { text = "it cannot be rebuilt: " + text[range.upperBound...] }
        description = text
    }
}
