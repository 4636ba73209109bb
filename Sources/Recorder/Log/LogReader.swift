import Foundation

/// Reads a Rewind log without loading it: entries are found by an incremental
/// index of line offsets and parsed only when asked for; states are rebuilt
/// from the nearest keyframe plus at most K patches, with a small cache.
///
/// ```swift
/// let reader = try LogReader(path: "checkout.jsonl")
/// let entry = try reader.entry(at: 41)              // action, time, changed paths
/// let state = try reader.state(at: 41)              // JSONValue after that action
/// ```
///
/// Huge or growing logs: open with `indexing: .lazily`, then call
/// ``indexMore(maxBytes:)`` (from any thread) until ``isFullyIndexed``, and
/// ``refresh()`` to pick up records appended since (follow mode).
///
/// Thread-safe. The index lock is held only to read or extend the index;
/// scanning the file and parsing records happen outside it, so a background
/// scan or a state being rebuilt on one thread never stalls another thread
/// that only wants an entry.
public final class LogReader: @unchecked Sendable {
    /// Longest line the reader accepts (a record holding a bigger state is
    /// reported as damage rather than read), which bounds its memory use.
    public static let maximumLineBytes = 64 << 20

    /// How much of the file ``init(path:indexing:)`` scans before returning.
    public enum Indexing: Sendable {
        /// The whole file (command-line tools, tests).
        case all
        /// About the first 4 MB; call ``indexMore(maxBytes:)`` for the rest.
        case lazily
        /// About the first `bytes` bytes (at least the header).
        case prefix(bytes: Int)

        var initialBytes: Int {
            switch self {
            case .all: Int.max
            case .lazily: 4 << 20
            case .prefix(let bytes): bytes
            }
        }
    }

    public let path: String
    /// The log's first header.
    public let header: LogHeader

    let file: ReadOnlyFile
    /// Guards `index`, `fileSize`, `stateCache` and `rebuilding`; held briefly.
    private let lock = NSCondition()
    private var index = LogIndex()
    private var fileSize: Int64
    private var stateCache = StateCache(capacity: 16)
    /// Bumped when the file was cut and indexing starts over, so a state
    /// rebuilt from the old contents is not cached.
    private var generation = 0
    /// States being rebuilt right now: a second thread asking for one waits
    /// for it rather than parsing the same keyframe again.
    private var rebuilding: Set<Int> = []
    /// A buffer ``scanEntries(_:fields:_:)`` keeps between calls (taken and
    /// put back under `lock`), so a scan in slices does not allocate one per slice.
    private var spareScanBuffer: [UInt8] = []
    /// One scan at a time (background indexing and follow-mode refreshes); guards `scanBuffer`.
    private let scanLock = NSLock()
    private var scanBuffer: [UInt8] = []

    /// Opens a log and reads its header.
    ///
    /// Throws a ``LogReadError`` for a missing file, a directory, an empty or
    /// binary file, JSON that is not a log, or a log from a newer format version.
    public init(path: String, indexing: Indexing = .all) throws(LogReadError) {
        self.path = path
        file = try ReadOnlyFile(path: path)
        fileSize = file.size
        guard fileSize > 0 else { throw LogReadError(.empty, path: path) }

        var first: [UInt8] = []
        let read = file.read(into: &first, at: 0, count: LogLine.headerPrefix.count)
        guard read == LogLine.headerPrefix.count, first.starts(with: LogLine.headerPrefix) else {
            throw LogReadError(.notALog, path: path)
        }
        index.scan(file, fileSize: fileSize, maxBytes: indexing.initialBytes, buffer: &scanBuffer)
        guard let line = index.headerLine else {
            if index.tornTail != nil && index.damage.isEmpty { throw LogReadError(.tornHeader, path: path) }
            throw LogReadError(.damagedHeader("its checksum does not match"), path: path)
        }
        var bytes: [UInt8] = []
        file.read(into: &bytes, at: line.offset, count: line.length)
        let header: LogHeader
        do {
            let record = try JSONParser.parse(bytes[..<line.length])
            header = try LogHeader(record: record)
        } catch let error as LogRecordError {
            throw LogReadError(.damagedHeader(error.description), path: path)
        } catch {
            throw LogReadError(.damagedHeader("\(error)"), path: path)
        }
        guard header.version <= LogLine.formatVersion else {
            throw LogReadError(.futureVersion(header.version), path: path)
        }
        self.header = header
    }

    // MARK: Index

    /// Entries indexed so far (all of them once ``isFullyIndexed``).
    public var entryCount: Int { lock.withLock { index.entryCount } }

    /// True when the whole file, as of the last ``refresh()``, has been scanned.
    public var isFullyIndexed: Bool {
        lock.withLock { index.tornTail != nil || index.scannedOffset >= fileSize }
    }

    /// Fraction of the file scanned, 0...1, for a progress display.
    public var indexProgress: Double {
        lock.withLock {
            guard fileSize > 0, index.tornTail == nil else { return 1 }
            return min(1, Double(index.scannedOffset) / Double(fileSize))
        }
    }

    /// Scans about `maxBytes` more of the file. Returns true while more remains.
    @discardableResult
    public func indexMore(maxBytes: Int = 16 << 20) -> Bool {
        scanLock.withLock {
            var (more, size) = lock.withLock { (index.continuation(), fileSize) }
            more.scan(file, fileSize: size, maxBytes: maxBytes, buffer: &scanBuffer)
            return lock.withLock {
                index.append(more)
                return index.tornTail == nil && index.scannedOffset < fileSize
            }
        }
    }

    /// Picks up records appended since the last look (for following a log
    /// that is still being written) and indexes them. Returns the number of new entries.
    @discardableResult
    public func refresh() -> Int {
        scanLock.withLock {
            let size = file.size
            var (before, scanned) = lock.withLock {
                let before = index.entryCount
                if size < index.scannedOffset {
                    // The file was cut (a recorder recovered its torn tail): start over.
                    index = LogIndex()
                    stateCache = StateCache(capacity: 16)
                    generation += 1
                }
                fileSize = size
                return (before, index.continuation())
            }
            scanned.scan(file, fileSize: size, maxBytes: Int.max, buffer: &scanBuffer)
            return lock.withLock {
                index.append(scanned)
                return max(0, index.entryCount - before)
            }
        }
    }

    /// Keyframe entries indexed so far (known from the index, without parsing).
    public var keyframeCount: Int { lock.withLock { index.keyframeCount } }

    /// Whether the entry at `index` holds a whole state, from the index alone
    /// (false for an index out of range).
    public func isKeyframe(at position: Int) -> Bool {
        lock.withLock { index.flags.indices.contains(position) && index.flags[position].contains(.keyframe) }
    }

    /// Damaged lines found so far in the middle of the log (skipped; not entries).
    public var damage: [LogDamage] { lock.withLock { index.damage } }

    /// The torn final line, if the log ends with an incomplete or damaged record
    /// (what a crash while writing leaves). It is ignored.
    public var tornTail: LogDamage? { lock.withLock { index.tornTail } }

    /// Places where the recorder dropped entries (drop queue policy).
    public var gaps: [LogGap] { lock.withLock { index.gaps } }

    /// Size of the file in bytes, as of the last ``refresh()``.
    public var byteCount: Int64 { lock.withLock { fileSize } }

    // MARK: Entries and states

    /// The entry at `index` (0-based, among readable entries).
    public func entry(at index: Int) throws(LogReadError) -> LogEntry {
        try parsedEntry(at: index).0.entry
    }

    /// The state after the entry at `index`, rebuilt from the nearest keyframe.
    ///
    /// Throws when a damaged line lies between that keyframe and the entry;
    /// states are available again from the next keyframe.
    public func state(at index: Int) throws(LogReadError) -> JSONValue {
        try rebuildState(at: index)
    }

    /// The state before the entry at `index`: the previous entry's state, or the
    /// header's initial state for the first entry of the log.
    public func stateBefore(_ index: Int) throws(LogReadError) -> JSONValue? {
        if index == 0 { return header.initialState }
        return try state(at: index - 1)
    }

    /// The spare scan buffer, for one scan at a time (another gets a new one).
    func takeScanBuffer() -> [UInt8] {
        lock.withLock {
            defer { spareScanBuffer = [] }
            return spareScanBuffer
        }
    }

    /// Keeps `buffer` for the next scan unless it grew past a few windows (a huge line).
    func returnScanBuffer(_ buffer: [UInt8]) {
        guard buffer.count <= 4 * Self.scanWindowBytes else { return }
        lock.withLock { if buffer.count > spareScanBuffer.count { spareScanBuffer = buffer } }
    }

    /// Where each entry's line is, nil for an index out of range; one brief hold of the lock.
    func lineLocations(_ positions: some Collection<Int>) -> [LineLocation?] {
        lock.withLock {
            positions.map { position in
                guard position >= 0 && position < index.entryCount else { return nil }
                return LineLocation(offset: index.offsets[position], length: Int(index.lengths[position]))
            }
        }
    }

    /// Where each entry of `positions` is, with its line number and index flags
    /// (what a state scan needs to know whether a patch follows on); one hold of the lock.
    func stateScanLocations(_ positions: Range<Int>) -> [(location: LineLocation, lineNumber: Int, flags: LogIndex.EntryFlags)] {
        lock.withLock {
            positions.clamped(to: 0..<index.entryCount).map { position in
                (LineLocation(offset: index.offsets[position], length: Int(index.lengths[position])),
                 Int(index.lineNumbers[position]), index.flags[position])
            }
        }
    }

    /// The line of the entry at `position` and its parsed record (state not parsed).
    private func parsedEntry(at position: Int) throws(LogReadError) -> (ParsedEntry, [UInt8]) {
        let location = lock.withLock { () -> (offset: Int64, length: Int, lineNumber: Int)? in
            guard position >= 0 && position < index.entryCount else { return nil }
            return (index.offsets[position], Int(index.lengths[position]), Int(index.lineNumbers[position]))
        }
        guard let (offset, length, lineNumber) = location else {
            throw LogReadError(.entryOutOfRange(index: position, count: entryCount), path: path)
        }
        var bytes: [UInt8] = []
        let read = file.read(into: &bytes, at: offset, count: length)
        guard read == length else {
            throw LogReadError(.damagedRecord(line: lineNumber, reason: "the file is shorter than when it was indexed"), path: path)
        }
        let parsed = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(LogRecordError) -> ParsedEntry in
                try ParsedEntry(line: UnsafeBufferPointer(rebasing: buffer[..<length]), index: position, lineNumber: lineNumber)
            }
        }
        switch parsed {
        case .success(let entry): return (entry, bytes)
        case .failure(let error): throw LogReadError(.damagedRecord(line: lineNumber, reason: error.description), path: path)
        }
    }

    // Parsing happens outside the lock; a thread asking for a state another
    // thread is rebuilding (the inspector's read-ahead) waits for that result.
    private func rebuildState(at target: Int) throws(LogReadError) -> JSONValue {
        let (cachedTarget, startGeneration) = lock.withLock { () -> (JSONValue?, Int) in
            while rebuilding.contains(target) { lock.wait() }
            if let cached = stateCache[target] { return (cached, generation) }
            rebuilding.insert(target)
            return (nil, generation)
        }
        if let cachedTarget { return cachedTarget }
        defer {
            lock.withLock {
                rebuilding.remove(target)
                lock.broadcast()
            }
        }
        // Walk back to a keyframe (or a cached state), collecting patches.
        var patches: [(index: Int, patch: JSONPatch)] = []
        var position = target
        var state: JSONValue
        while true {
            if position != target, let cached = lock.withLock({ stateCache[position] }) {
                state = cached
                break
            }
            let (parsed, bytes) = try parsedEntry(at: position)
            if let range = parsed.stateRange {
                do {
                    state = try JSONParser.parse(bytes[range])
                } catch {
                    throw LogReadError(.damagedRecord(line: parsed.entry.lineNumber, reason: "its state: \(error)"), path: path)
                }
                break
            }
            let flags = lock.withLock { index.flags[position] }
            guard let patch = parsed.patch, position > 0, flags.isDisjoint(with: [.afterDamage, .sessionStart, .afterGap]) else {
                let damagedLine = lock.withLock { index.damage.last { $0.offset < index.offsets[position] }?.lineNumber }
                throw LogReadError(.stateUnavailable(entry: target, damagedLine: flags.contains(.afterDamage) ? damagedLine : nil), path: path)
            }
            patches.append((position, patch))
            position -= 1
        }
        for (position, patch) in patches.reversed() {
            do {
                state = try patch.applied(to: state)
            } catch {
                throw LogReadError(.damagedRecord(line: parsedLine(position), reason: "its patch does not apply: \(error)"), path: path)
            }
        }
        lock.withLock { if generation == startGeneration { stateCache[target] = state } }
        return state
    }
}

extension LogReader {
    private func parsedLine(_ position: Int) -> Int { lock.withLock { Int(index.lineNumbers[position]) } }
}

/// A few recently rebuilt states, so stepping to a neighbour applies one patch.
struct StateCache {
    let capacity: Int
    private var items: [(index: Int, state: JSONValue)] = []

    init(capacity: Int) { self.capacity = capacity }

    subscript(index: Int) -> JSONValue? {
        get { items.last { $0.index == index }?.state }
        set {
            items.removeAll { $0.index == index }
            guard let newValue else { return }
            items.append((index, newValue))
            if items.count > capacity { items.removeFirst() }
        }
    }
}
