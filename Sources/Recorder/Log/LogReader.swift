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
/// ``refresh()`` to pick up records appended since (follow mode). Like
/// `tail -F`, ``refresh()`` notices a log cut or rewritten in place and one
/// rotated or replaced under its name, and then reads the file the name now leads to.
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

    /// The log file this reader reads, as it was given.
    public let path: String
    /// The log's first header (of the file now read, after ``refresh()`` reopened it).
    public var header: LogHeader { lock.withLock { currentHeader } }

    /// Guards `file`, `currentHeader`, `headerSeal`, `index`, `fileSize`, `stateCache`, `rebuilding` and `laterSessionStarts`; held briefly.
    private let lock = NSCondition()
    /// The file read now: replaced when ``refresh()`` reopens the log by name.
    private var file: ReadOnlyFile
    private var currentHeader: LogHeader
    /// The last bytes of the header line (its checksum digits), to notice the
    /// file rewritten in place; nil until the file read now has a complete header.
    private var headerSeal: [UInt8]?
    private var index = LogIndex()
    private var fileSize: Int64
    private var stateCache = StateCache()
    /// Bumped when the file was cut and indexing starts over, so a state
    /// rebuilt from the old contents is not cached.
    private var generation = 0
    /// States being rebuilt right now: a second thread asking for one waits
    /// for it rather than parsing the same keyframe again.
    private var rebuilding: Set<Int> = []
    /// The `created` of later sessions' headers read so far, by the header line's offset
    /// (nil: unreadable): what dates their entries' `t`.
    private var laterSessionStarts: [Int64: Date?] = [:]
    /// A buffer ``scanEntries(_:fields:_:)`` keeps between calls (taken and
    /// put back under `lock`), so a scan in slices does not allocate one per slice.
    private var spareScanBuffer: [UInt8] = []
    /// One scan at a time (background indexing and follow-mode refreshes); guards `scanBuffer`.
    private let scanLock = NSLock()
    private var scanBuffer = ReadBufferPool.take()
    /// The read-ahead of a prefetched cold file, until an indexing scan takes it (guarded by `lock`).
    private var prefetchedReadAhead: (any LogFileReadAhead)?
    /// Which keyframes' states are held lazily, over the bytes of their line.
    package let lazyStates: LazyStates

    /// Opens a log and reads its header.
    ///
    /// Throws a ``LogReadError`` for a missing file, a directory, an empty or
    /// binary file, JSON that is not a log, or a log from a newer format version.
    public convenience init(path: String, indexing: Indexing = .all) throws(LogReadError) {
        try self.init(path: path, indexing: indexing, opened: nil, readAhead: nil)
    }

    /// The same for `path` already `opened` (nil: open it here), its bytes taken from
    /// `readAhead` where it holds them (the header, and an indexing scan's lines).
    /// With `lazyStates`, keyframes are held lazily from another size on (tests make small states lazy).
    package init(path: String, indexing: Indexing, opened: ReadOnlyFile?, readAhead: (any LogFileReadAhead)?,
                 lazyStates: LazyStates = .standard) throws(LogReadError) {
        self.path = path
        self.lazyStates = lazyStates
        let file: ReadOnlyFile
        if let opened { file = opened } else { file = try ReadOnlyFile(path: path) }
        self.file = file
        prefetchedReadAhead = readAhead
        fileSize = file.size
        guard fileSize > 0 else { throw LogReadError(.empty, path: path) }

        var first: [UInt8] = []
        let read = file.read(into: &first, at: 0, count: LogLine.headerPrefix.count, through: readAhead)
        guard read == LogLine.headerPrefix.count, first.starts(with: LogLine.headerPrefix) else {
            throw LogReadError(.notALog, path: path)
        }
        index.scan(file, fileSize: fileSize, maxBytes: indexing.initialBytes, buffer: &scanBuffer, readAhead: readAhead) { _, _, _, _ in true }
        guard let line = index.headerLine else {
            if index.tornTail != nil && index.damage.isEmpty { throw LogReadError(.tornHeader, path: path) }
            throw LogReadError(.damagedHeader("its checksum does not match" + (index.carriageReturnLines == 0 && Self.firstLineEndsWithCarriageReturn(file) ? " (its line ends with a carriage return, and the record does not verify without it either)" : "")), path: path)
        }
        let header = try Self.readHeader(file, line: line, path: path)
        guard header.version <= LogLine.formatVersion else {
            throw LogReadError(.futureVersion(header.version), path: path)
        }
        currentHeader = header
        headerSeal = Self.headerSeal(file, line: line)
    }

    deinit { ReadBufferPool.giveBack(scanBuffer) }

    private static func readHeader(_ file: ReadOnlyFile, line: (offset: Int64, length: Int), path: String) throws(LogReadError) -> LogHeader {
        var bytes: [UInt8] = []
        file.read(into: &bytes, at: line.offset, count: line.length)
        do {
            let record = try JSONParser.parse(bytes[..<line.length])
            return try LogHeader(record: record)
        } catch let error as LogRecordError {
            throw LogReadError(.damagedHeader(error.description), path: path)
        } catch {
            throw LogReadError(.damagedHeader("\(error)"), path: path)
        }
    }

    /// The header line's checksum digits and closing `"}`: 10 bytes that change
    /// whenever another log is written over this one.
    private static func headerSeal(_ file: ReadOnlyFile, line: (offset: Int64, length: Int)) -> [UInt8]? {
        guard line.length >= 10 else { return nil }
        var bytes: [UInt8] = []
        let read = file.read(into: &bytes, at: line.offset + Int64(line.length) - 10, count: 10)
        return read == 10 ? Array(bytes[..<10]) : nil
    }

    private static func firstLineEndsWithCarriageReturn(_ file: ReadOnlyFile) -> Bool {
        var bytes: [UInt8] = []
        let read = file.read(into: &bytes, at: 0, count: min(Int(file.size), 1 << 20))
        guard let newline = bytes[..<read].firstIndex(of: 0x0A) else { return false }
        return newline > 0 && bytes[newline - 1] == 0x0D
    }

    /// True when the file's line endings were converted to CRLF: its records
    /// were read without the carriage returns (their checksums verify without them).
    public var hasCarriageReturns: Bool { lock.withLock { index.carriageReturnLines > 0 } }

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
        indexMore(maxBytes: maxBytes) { _, _, _, _ in true }
    }

    /// ``indexMore(maxBytes:)``, handing each entry line to `observer` as it is indexed.
    /// With `prefetching`, those bytes and the `maxBytes` after them are asked
    /// of the disk first (``ReadOnlyFile/prefetch(offset:count:)``), so the next call finds them read.
    /// With `readAhead` (of this reader's file), the bytes are taken from it instead, and nothing is prefetched.
    package func indexMore(maxBytes: Int, prefetching: Bool = false, readAhead: (any LogFileReadAhead)? = nil, observer: LogIndex.EntryObserver) -> Bool {
        scanLock.withLock {
            var (more, size, file) = lock.withLock { (index.continuation(), fileSize, self.file) }
            let readAhead = readAhead?.file === file ? readAhead : nil
            if prefetching && readAhead == nil { file.prefetch(offset: more.scannedOffset, count: 2 * Int64(maxBytes)) }
            more.scan(file, fileSize: size, maxBytes: maxBytes, buffer: &scanBuffer, readAhead: readAhead, observer: observer)
            return lock.withLock {
                index.append(more)
                return index.tornTail == nil && index.scannedOffset < fileSize
            }
        }
    }

    /// The file read now, how far it is indexed and its size, with the prefetch's read-ahead
    /// when there is one (taken: the reader lets it go with the indexing scan that asks for it).
    package func takeIndexingPosition() -> (file: ReadOnlyFile, scanned: Int64, size: Int64, readAhead: (any LogFileReadAhead)?) {
        lock.withLock { (file, index.scannedOffset, fileSize, prefetchedReadAhead.take()) }
    }

    /// Picks up what changed in the file since the last look (following a log
    /// that is still being written) and says what that was: records appended
    /// (indexed now), or the log cut, rewritten or replaced under its name, in
    /// which case the file the name leads to now is read from its start (as
    /// `tail -F` does) and entry numbers start over.
    ///
    /// ```swift
    /// switch reader.refresh() {
    /// case .appended(let count): print("\(count) new entries")
    /// case .truncated, .replaced: print("reading \(reader.path) again from the start")
    /// case .missing(let why): print("waiting: \(why)")
    /// case .unchanged: break
    /// }
    /// ```
    @discardableResult
    public func refresh() -> LogFileChange {
        scanLock.withLock {
            let (current, headerLine, scanned, seal) = lock.withLock { (file, index.headerLine, index.scannedOffset, headerSeal) }
            guard let named = FileIdentity(path: path) else {
                return .missing("\(path) was moved away or removed; showing what it held, waiting for a new log under that name")
            }
            if named != current.identity {
                // Rotated (`mv log log.1`, a new log) or replaced by a rename: follow the name.
                guard let reopened = try? ReadOnlyFile(path: path) else {
                    return .missing("\(path) was replaced by a file that cannot be read")
                }
                // Judged as opening it would judge it; what was read stays until a log is under the name again.
                guard Self.mayBecomeALog(reopened) else {
                    return .missing("\(path) was replaced by a file that is not a Rewind log (the first line is not a Rewind header); "
                        + "showing what it held, waiting for a Rewind log under that name")
                }
                startOver(with: reopened)
                return .replaced
            }
            let size = current.size
            let rewritten = size < scanned || (headerLine.map { line in seal != Self.headerSeal(current, line: line) } ?? false)
            if rewritten {
                // Cut (`: > log`, copytruncate, a recorder cutting a torn tail) or written over (`cat other > log`).
                startOver(with: current)
                return .truncated
            }
            var (scan, before) = lock.withLock {
                fileSize = size
                return (index.continuation(), index.entryCount)
            }
            scan.scan(current, fileSize: size, maxBytes: Int.max, buffer: &scanBuffer)
            let added = lock.withLock {
                index.append(scan)
                return max(0, index.entryCount - before)
            }
            adoptHeaderIfNeeded()
            return added > 0 ? .appended(added) : .unchanged
        }
    }

    /// True when `file` starts as a log does: with a header, or with the start of
    /// one or nothing yet (a recorder that has just created it).
    private static func mayBecomeALog(_ file: ReadOnlyFile) -> Bool {
        var first: [UInt8] = []
        let read = file.read(into: &first, at: 0, count: LogLine.headerPrefix.count)
        return LogLine.headerPrefix.starts(with: first.prefix(max(0, read)))
    }

    /// Forgets everything read and indexes `file` from its start (under `scanLock`).
    private func startOver(with file: ReadOnlyFile) {
        let size = file.size
        var fresh = LogIndex()
        fresh.scan(file, fileSize: size, maxBytes: Int.max, buffer: &scanBuffer)
        lock.withLock {
            self.file = file
            index = fresh
            fileSize = size
            stateCache = StateCache()
            laterSessionStarts = [:]
            generation += 1
            headerSeal = nil
        }
        adoptHeaderIfNeeded()
    }

    /// After starting over: once the file has a complete header, it is the header.
    private func adoptHeaderIfNeeded() {
        let pending = lock.withLock { () -> (ReadOnlyFile, (offset: Int64, length: Int))? in
            guard headerSeal == nil, let line = index.headerLine else { return nil }
            return (file, line)
        }
        guard let (file, line) = pending, let header = try? Self.readHeader(file, line: line, path: path) else { return }
        let seal = Self.headerSeal(file, line: line)
        lock.withLock {
            guard self.file === file else { return }
            currentHeader = header
            headerSeal = seal
        }
    }

    /// Keyframe entries indexed so far (known from the index, without parsing).
    public var keyframeCount: Int { lock.withLock { index.keyframeCount } }

    /// Whether the entry at `index` holds a whole state, from the index alone
    /// (false for an index out of range).
    public func isKeyframe(at position: Int) -> Bool {
        lock.withLock { index.flags.indices.contains(position) && index.flags[position].contains(.keyframe) }
    }

    /// Whether a new recording session (a header: the log was opened again) starts
    /// right before the entry at `index`, from the index alone (false out of range).
    public func startsSession(at position: Int) -> Bool {
        lock.withLock { index.flags.indices.contains(position) && index.flags[position].contains(.sessionStart) }
    }

    /// The recording sessions after the first (each time the log was opened again):
    /// the entry each starts before, and its header (when, which process) when that
    /// line can be read again.
    public var laterSessions: [LogSession] {
        let found = lock.withLock { index.laterSessions }
        let file = lock.withLock { self.file }
        return found.map { session in
            var bytes: [UInt8] = []
            let read = file.read(into: &bytes, at: session.offset, count: session.length)
            let record = read == session.length ? try? JSONParser.parse(bytes[..<session.length]) : nil
            return LogSession(beforeEntry: session.beforeEntry, lineNumber: session.lineNumber, header: record.flatMap { try? LogHeader(record: $0) })
        }
    }

    /// The framing of the last record in its place (its checksum and number checked): where a
    /// writer that appends to this log goes on from (``LogChain``). Reads that one line only.
    package var lastRecordSeal: LogLine.Seal? {
        let (line, file) = lock.withLock { (index.lastRecordLine, self.file) }
        guard let line else { return nil }
        var bytes: [UInt8] = []
        guard file.read(into: &bytes, at: line.offset, count: line.length) == line.length else { return nil }
        return bytes.withUnsafeBytes { LogLine.unseal(UnsafeRawBufferPointer(rebasing: $0[..<line.length])) }
    }

    /// The number `rewind log` and the inspector show for the entry at `index` (from 0):
    /// entries keep the numbers they were recorded with, so every gap before it counts
    /// the entries it stands for and every damaged record one.
    public func entryNumber(at index: Int) -> Int {
        lock.withLock {
            let line = index >= 0 && index < self.index.lineNumbers.count ? Int(self.index.lineNumbers[index]) : Int.max
            // Saturating: each gap stands for at most 2⁴⁰ entries (LogLimits), but a file may hold millions of gaps.
            let dropped = self.index.gaps.reduce(0) { $0.addingSaturating($1.beforeEntry <= index ? max(1, $1.droppedCount) : 0) }
            return (index + 1).addingSaturating(dropped).addingSaturating(self.index.damage.count { $0.lineNumber < line })
        }
    }

    /// When the session of the entry at `position` started: its header's `created`, which an
    /// entry's `t` counts from (format 3). Reads a later session's header once.
    package func sessionStart(ofEntry position: Int) -> Date? {
        let found = lock.withLock { () -> (start: Date??, file: ReadOnlyFile, line: (offset: Int64, length: Int)?) in
            // The last session starting at or before the entry (binary search: a log may hold many).
            var (low, high) = (0, index.laterSessions.count)
            while low < high {
                let middle = (low + high) / 2
                if index.laterSessions[middle].beforeEntry <= position { low = middle + 1 } else { high = middle }
            }
            guard low > 0 else { return (.some(currentHeader.created), file, nil) }
            let session = index.laterSessions[low - 1]
            return (laterSessionStarts[session.offset], file, (session.offset, session.length))
        }
        if let start = found.start { return start }
        guard let line = found.line else { return nil }
        var bytes: [UInt8] = []
        let read = found.file.read(into: &bytes, at: line.offset, count: line.length)
        let record = read == line.length ? try? JSONParser.parse(bytes[..<line.length]) : nil
        let start = record.flatMap { try? LogHeader(record: $0) }?.created
        lock.withLock { if self.file === found.file { laterSessionStarts[line.offset] = start } }
        return start
    }

    /// How many sessions after the first were found so far (``laterSessions`` without reading their headers).
    public var laterSessionCount: Int { lock.withLock { index.laterSessions.count } }

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

    /// Bytes read first of a line longer than this, when only the entry's head is wanted (the
    /// members before its state or patch): they hold it unless its payload is huge too.
    package static let entryHeadBytes = 64 << 10

    /// ``entry(at:)`` for a list of entries (the inspector's rows): a keyframe longer than
    /// ``entryHeadBytes`` is read only up to its state, so the row of a 30 MB keyframe costs what
    /// a small entry's does. The same entry as ``entry(at:)`` (any other line is read whole, as
    /// is one whose head does not read); only bytes after the state, which the index's checksum
    /// vouched for, are not looked at.
    package func entryReadUpToItsState(at position: Int) throws(LogReadError) -> LogEntry {
        let location = lock.withLock { () -> (offset: Int64, length: Int, lineNumber: Int, file: ReadOnlyFile)? in
            guard position >= 0 && position < index.entryCount else { return nil }
            return (index.offsets[position], Int(index.lengths[position]), Int(index.lineNumbers[position]), file)
        }
        guard let (offset, length, lineNumber, file) = location, length > Self.entryHeadBytes else { return try entry(at: position) }
        var bytes: [UInt8] = []
        guard file.read(into: &bytes, at: offset, count: Self.entryHeadBytes) == Self.entryHeadBytes else { return try entry(at: position) }
        let start = sessionStart(ofEntry: position)
        let head = bytes.withUnsafeBufferPointer { buffer in
            try? ParsedEntry(head: UnsafeBufferPointer(rebasing: buffer[..<Self.entryHeadBytes]), index: position, lineNumber: lineNumber,
                             sessionStart: start)
        }
        // A head that does not read is read as part of the whole line: the same entry, or the same error.
        guard let head else { return try entry(at: position) }
        return head.entry
    }

    /// The state after the entry at `index`, rebuilt from the nearest keyframe.
    ///
    /// Throws when a damaged line lies between that keyframe and the entry
    /// (states are available again from the next keyframe), or when there is no entry `index`.
    public func state(at index: Int) throws(LogReadError) -> JSONValue {
        try rebuildState(at: index).value
    }

    /// The state after the entry at `index` as the inspector holds it: a node read a
    /// node at a time (``JSONNode``), which for a huge keyframe need not be a tree
    /// of all of it. Throws as ``state(at:)`` does.
    package func stateNode(at index: Int) throws(LogReadError) -> JSONNode {
        try rebuildState(at: index)
    }

    /// How many bytes of records ``state(at:)`` would read and parse for the entry at
    /// `index`: 0 when the state is cached, else its chain's (the keyframe or cached state
    /// it starts from, and the patches since). From the index alone, without reading:
    /// what the inspector asks before deciding whether a state can be had at once. A state
    /// another thread is rebuilding counts as not cached: asking for it waits for that.
    package func stateRebuildBytes(at index: Int) -> Int {
        lock.withLock {
            guard index >= 0 && index < self.index.entryCount, stateCache[index] == nil || rebuilding.contains(index) else { return 0 }
            var bytes = 0
            var position = index
            while true {
                if position != index, stateCache[position] != nil { return bytes }
                bytes += Int(self.index.lengths[position])
                let flags = self.index.flags[position]
                if position == 0 || !flags.isDisjoint(with: [.keyframe, .afterDamage, .sessionStart, .afterGap]) { return bytes }
                position -= 1
            }
        }
    }

    /// The byte length of the keyframe record the state at `index` is rebuilt from, from
    /// the index alone: about the state's size (the patches since a keyframe stay well
    /// under a state, see `KeyframePolicy`). Nil when its chain does not start at a keyframe.
    package func keyframeBytes(forStateAt index: Int) -> Int? {
        lock.withLock {
            guard index >= 0 && index < self.index.entryCount else { return nil }
            var position = index
            while true {
                let flags = self.index.flags[position]
                if flags.contains(.keyframe) { return Int(self.index.lengths[position]) }
                if position == 0 || !flags.isDisjoint(with: [.afterDamage, .sessionStart, .afterGap]) { return nil }
                position -= 1
            }
        }
    }

    /// The state before the entry at `index`: the previous entry's state, or the
    /// header's initial state for the first entry of the log; for the first entry of
    /// a later session (the log was opened again), the state that session started
    /// from (nil when its header holds none). Across a gap, the last recorded state.
    public func stateBefore(_ index: Int) throws(LogReadError) -> JSONValue? {
        if index == 0 { return header.initialState }
        if startsSession(at: index) { return laterSessions.first { $0.beforeEntry == index }?.header?.initialState }
        return try state(at: index - 1)
    }

    /// The number `rewind log` gives the first entry `gap` stands for (counted as ``entryNumber(at:)`` counts).
    package func firstEntryNumber(of gap: LogGap) -> Int {
        lock.withLock {
            let numbersBefore = index.gaps.reduce(0) { $0 + ($1.lineNumber < gap.lineNumber ? max(1, $1.droppedCount) : 0) }
            return gap.beforeEntry + 1 + numbersBefore + index.damage.count { $0.lineNumber < gap.lineNumber }
        }
    }

    /// Entries a scan locates per hold of the lock.
    package static let scanBatchEntries = 512
    /// Most bytes a scan reads at once (a longer line is read alone).
    package static let scanWindowBytes = 1 << 20

    /// The spare scan buffer, for one scan at a time (another gets a new one).
    package func takeScanBuffer() -> [UInt8] {
        lock.withLock {
            defer { spareScanBuffer = [] }
            return spareScanBuffer
        }
    }

    /// Keeps `buffer` for the next scan unless it grew past a few windows (a huge line).
    package func returnScanBuffer(_ buffer: [UInt8]) {
        guard buffer.count <= 4 * Self.scanWindowBytes else { return }
        lock.withLock { if buffer.count > spareScanBuffer.count { spareScanBuffer = buffer } }
    }

    /// Where each entry's line is, nil for an index out of range, and the file
    /// they are in; one brief hold of the lock.
    package func lineLocations(_ positions: some Collection<Int>) -> (ReadOnlyFile, [LineLocation?]) {
        lock.withLock {
            (file, positions.map { position in
                guard position >= 0 && position < index.entryCount else { return nil }
                return LineLocation(offset: index.offsets[position], length: Int(index.lengths[position]))
            })
        }
    }

    /// Where each entry of `positions` is, with its line number and index flags
    /// (what a state scan needs to know whether a patch follows on); one hold of the lock.
    package func stateScanLocations(_ positions: Range<Int>) -> (ReadOnlyFile, [(location: LineLocation, lineNumber: Int, flags: LogIndex.EntryFlags)]) {
        lock.withLock {
            (file, positions.clamped(to: 0..<index.entryCount).map { position in
                (LineLocation(offset: index.offsets[position], length: Int(index.lengths[position])),
                 Int(index.lineNumbers[position]), index.flags[position])
            })
        }
    }

    /// The line of the entry at `position` and its parsed record (state not parsed).
    private func parsedEntry(at position: Int) throws(LogReadError) -> (ParsedEntry, [UInt8]) {
        let location = lock.withLock { () -> (offset: Int64, length: Int, lineNumber: Int, file: ReadOnlyFile)? in
            guard position >= 0 && position < index.entryCount else { return nil }
            return (index.offsets[position], Int(index.lengths[position]), Int(index.lineNumbers[position]), file)
        }
        guard let (offset, length, lineNumber, file) = location else {
            throw LogReadError(.entryOutOfRange(index: position, count: entryCount), path: path)
        }
        var bytes: [UInt8] = []
        let read = file.read(into: &bytes, at: offset, count: length)
        guard read == length else {
            throw LogReadError(.damagedRecord(line: lineNumber, reason: "the file is shorter than when it was indexed"), path: path)
        }
        let start = sessionStart(ofEntry: position)
        let parsed = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(LogRecordError) -> ParsedEntry in
                try ParsedEntry(line: UnsafeBufferPointer(rebasing: buffer[..<length]), index: position, lineNumber: lineNumber,
                                sessionStart: start)
            }
        }
        switch parsed {
        case .success(let entry): return (entry, bytes)
        case .failure(let error): throw LogReadError(.damagedRecord(line: lineNumber, reason: "\(error)"), path: path)
        }
    }

    // Parsing happens outside the lock; a thread asking for a state another
    // thread is rebuilding (the inspector's read-ahead) waits for that result.
    private func rebuildState(at target: Int) throws(LogReadError) -> JSONNode {
        // Checked under the lock this takes anyway: an index past the end would trap in the index's arrays.
        let lookup = lock.withLock { () -> (cached: JSONNode?, generation: Int)? in
            guard target >= 0 && target < index.entryCount else { return nil }
            while rebuilding.contains(target) { lock.wait() }
            if let cached = stateCache[target] { return (cached, generation) }
            rebuilding.insert(target)
            return (nil, generation)
        }
        guard let (cachedTarget, startGeneration) = lookup else {
            throw LogReadError(.entryOutOfRange(index: target, count: entryCount), path: path)
        }
        if let cachedTarget { return cachedTarget }
        defer {
            lock.withLock {
                rebuilding.remove(target)
                lock.broadcast()
            }
        }
        // Walk back through the index alone to a keyframe (or a cached state). Logs that
        // `LogBuilder` wrote do not mark their keyframes, so a chain may also start where
        // patches cannot reach past (the first entry, a new session, a gap, damage).
        let chain = lock.withLock { () -> (start: Int, cached: JSONNode?, derivation: StateCache.Derivation?) in
            var position = target
            while true {
                if position != target, let cached = stateCache[position] { return (position, cached, stateCache.derivation(at: position)) }
                let flags = index.flags[position]
                if position == 0 || !flags.isDisjoint(with: [.keyframe, .afterDamage, .sessionStart, .afterGap]) { return (position, nil, nil) }
                position -= 1
            }
        }
        // Every line from there to the target, in one read: they lie one after another.
        let first = chain.cached == nil ? chain.start : chain.start + 1
        var state = chain.cached ?? JSONNode(.null)
        // What the state will hold beyond its keyframe's tree, for the cache's bound.
        var derivation = chain.derivation
        if first <= target {
            let (file, lines) = lock.withLock { () -> (ReadOnlyFile, [(offset: Int64, length: Int)]) in
                (self.file, (first...target).map { (offset: index.offsets[$0], length: Int(index.lengths[$0])) })
            }
            let spanStart = lines[0].offset
            let spanLength = Int(lines[lines.count - 1].offset - spanStart) + lines[lines.count - 1].length
            var bytes: [UInt8] = []
            guard file.read(into: &bytes, at: spanStart, count: spanLength) == spanLength else {
                throw LogReadError(.damagedRecord(line: parsedLine(first), reason: "the file is shorter than when it was indexed"), path: path)
            }
            // The keyframe's state (if the chain starts at one), and where the patches after it are.
            var patchLines: [Int] = []
            var patchRanges: [Range<Int>] = []
            var keyframeLine: Int?
            // Whether the keyframe's state is held lazily, over `bytes` (kept by its nodes).
            var keyframeIsLazy = false
            let span = bytes
            // A Result out of the buffer's closure: Swift 6.0's `withUnsafeBufferPointer`
            // rethrows untyped, which a typed-throws closure cannot pass through.
            let readChain: Result<Void, LogReadError> = bytes.withUnsafeBufferPointer { buffer in
                Result { () throws(LogReadError) in
                    for (step, line) in lines.enumerated() {
                        let position = first + step
                        let start = Int(line.offset - spanStart)
                        let record = UnsafeBufferPointer(rebasing: buffer[start..<(start + line.length)])
                        let parsed: StateStep
                        do {
                            parsed = try StateStep(line: record)
                        } catch {
                            throw LogReadError(.damagedRecord(line: parsedLine(position), reason: "\(error)"), path: path)
                        }
                        switch parsed {
                        case .keyframe(let range):
                            keyframeIsLazy = range.count >= lazyStates.keyframeBytes
                            do {
                                state = try keyframeState(span, buffer, (start + range.lowerBound)..<(start + range.upperBound))
                            } catch {
                                // The state is not the record's last member: delimit it exactly.
                                do {
                                    guard case .keyframe(let exact) = try StateStep(line: record, exactly: true) else { throw error }
                                    keyframeIsLazy = exact.count >= lazyStates.keyframeBytes
                                    state = try keyframeState(span, buffer, (start + exact.lowerBound)..<(start + exact.upperBound))
                                } catch {
                                    throw LogReadError(.damagedRecord(line: parsedLine(position), reason: "its state: \(error)"), path: path)
                                }
                            }
                            // A keyframe the index did not know (a log whose keyframes are unmarked): start over from it.
                            patchLines.removeAll()
                            patchRanges.removeAll()
                            keyframeLine = position
                        case .patch(let range):
                            guard keyframeLine != nil || chain.cached != nil else {
                                // The chain starts at a patch: the state it applies to is not in the log.
                                let (afterDamage, damagedLine) = lock.withLock {
                                    (index.flags[position].contains(.afterDamage), index.damage.last { $0.offset < index.offsets[position] }?.lineNumber)
                                }
                                throw LogReadError(.stateUnavailable(entryNumber: entryNumber(at: target), damagedLine: afterDamage ? damagedLine : nil), path: path)
                            }
                            patchLines.append(position)
                            patchRanges.append((start + range.lowerBound)..<(start + range.upperBound))
                        }
                    }
                }
            }
            try readChain.get()
            if let keyframeLine {
                let recordBytes = lines[keyframeLine - first].length
                let keyframeBytes = recordBytes * StateCache.parsedBytesPerJSONByte
                if keyframeBytes >= StateCache.keptKeyframeBytes {
                    // Kept apart from the state the patches make from it, which shares its untouched nodes,
                    // and the paths the patches write collected: what the neighbours copy of it.
                    // A lazy state holds the line's bytes and its big containers' nodes, not a tree of it.
                    let heldBytes = keyframeIsLazy ? recordBytes : keyframeBytes
                    lock.withLock {
                        if generation == startGeneration { stateCache.storeKeyframe(state, at: keyframeLine, heldBytes: heldBytes) }
                    }
                    derivation = StateCache.Derivation(keyframe: keyframeLine, keyframeBytes: heldBytes)
                } else {
                    // Parsed again in a moment if need be: the state alone is cached, by count.
                    derivation = StateCache.Derivation(keyframe: keyframeLine, keyframeBytes: 0)
                }
            }
            // From a kept keyframe (read now, or the one a cached state came from): what the patches copy and bring.
            let tracksWrites = (derivation?.keyframeBytes ?? 0) > 0
            let written = try applyPatches(lines: patchLines, ranges: patchRanges, in: bytes, to: &state, tracksWrites: tracksWrites)
            if tracksWrites {
                derivation?.writtenPaths.formUnion(written)
                derivation?.broughtBytes += patchRanges.reduce(0) { $0 + $1.count } * StateCache.parsedBytesPerJSONByte
            }
        }
        let unchanged = lock.withLock {
            // A kept keyframe's state is cached already (above); any other state is cached here.
            if generation == startGeneration, let derivation, derivation.keyframe != target || derivation.keyframeBytes == 0 {
                stateCache.store(state, at: target, derivation: derivation)
            }
            return generation == startGeneration
        }
        // Records read before and after the log was replaced do not make a state.
        guard unchanged else { throw LogReadError(.changedWhileReading, path: path) }
        return state
    }
}

extension LogReader {
    private func parsedLine(_ position: Int) -> Int { lock.withLock { Int(index.lineNumbers[position]) } }

    /// The state of a keyframe, at `range` of `bytes` (read through `buffer`): held lazily over
    /// `bytes` from ``LazyStates/keyframeBytes`` of JSON on, else parsed into a tree.
    private func keyframeState(_ bytes: [UInt8], _ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) throws(JSONParseError) -> JSONNode {
        if range.count >= lazyStates.keyframeBytes {
            return try JSONNode.reading(bytes, range, containersOver: lazyStates.containerBytes)
        }
        return JSONNode(try JSONParser.parse(buffer: UnsafeBufferPointer(rebasing: buffer[range])))
    }

    /// Applies, in place, the patches of the entries at `lines`, which lie at `ranges` of `bytes`.
    ///
    /// A patch as the recorder writes it is read straight into operations (``SkimmedPatch``,
    /// the state scan's reader), without a tree of its JSON first: that tree and turning it
    /// into operations were a fifth of rebuilding a small state. Anything else is parsed.
    /// With `tracksWrites`, returns the paths the patches wrote (each operation's `path`, and `from`
    /// where it moves); otherwise nothing.
    private func applyPatches(lines: [Int], ranges: [Range<Int>], in bytes: [UInt8], to state: inout JSONNode,
                              tracksWrites: Bool) throws(LogReadError) -> Set<[String]> {
        var written: Set<[String]> = []
        guard !lines.isEmpty else { return written }
        // One allowance from the keyframe to the entry: what the patches may build.
        var limits = LogLimits.patchLimits
        var pointers = PathPointerCache()
        let skimmed = bytes.withUnsafeBufferPointer { buffer in
            ranges.map { SkimmedPatch.read(UnsafeBufferPointer(rebasing: buffer[$0]), pointers: &pointers) }
        }
        if !skimmed.contains(where: { $0 == nil }) {
            for (patch, line) in zip(skimmed, lines) { try apply(patch!, line: line, to: &state, limits: &limits, written: &written, tracksWrites: tracksWrites) }
            return written
        }
        // Gathered into one JSON array, so they are parsed with one parser.
        var text: [UInt8] = [UInt8(ascii: "[")]
        for range in ranges {
            if text.count > 1 { text.append(UInt8(ascii: ",")) }
            text.append(contentsOf: bytes[range])
        }
        text.append(UInt8(ascii: "]"))
        let patches: [JSONValue]
        do {
            patches = try JSONParser.parse(text).arrayValue ?? []
        } catch {
            for (range, line) in zip(ranges, lines) {
                do {
                    _ = try JSONParser.parse(bytes[range])
                } catch {
                    throw LogReadError(.damagedRecord(line: parsedLine(line), reason: "member \"patch\": \(error)"), path: path)
                }
            }
            throw LogReadError(.damagedRecord(line: parsedLine(lines[0]), reason: "member \"patch\": \(error)"), path: path)
        }
        for (value, line) in zip(patches, lines) {
            let patch: JSONPatch
            do {
                patch = try JSONPatch(jsonValue: value)
            } catch {
                throw LogReadError(.damagedRecord(line: parsedLine(line), reason: "entry patch is not a valid JSON Patch: \(error)"), path: path)
            }
            try apply(patch, line: line, to: &state, limits: &limits, written: &written, tracksWrites: tracksWrites)
        }
        return written
    }

    private func apply(_ patch: JSONPatch, line: Int, to state: inout JSONNode, limits: inout PatchLimits,
                       written: inout Set<[String]>, tracksWrites: Bool) throws(LogReadError) {
        if tracksWrites {
            for operation in patch.operations {
                written.insert(operation.path.tokens)
                if case .move(let from, _) = operation { written.insert(from.tokens) }
            }
        }
        do {
            // In place: `state` is the caller's own copy, so only the containers on each path are touched
            // (a lazy state's big containers copy their children's arrays when shared with a cached state).
            // Nothing to undo on failure: the rebuild throws and its state is dropped.
            try patch.applyDiscardingOnFailure(to: &state, limits: &limits)
        } catch {
            throw LogReadError(.damagedRecord(line: parsedLine(line), reason: "its patch does not apply: \(error)"), path: path)
        }
    }

}
/// How the log file changed since it was last read: what ``LogReader/refresh()`` found.
public enum LogFileChange: Sendable, Equatable {
    /// Nothing new.
    case unchanged
    /// This many entries were appended (and are indexed now).
    case appended(Int)
    /// The file was cut or written over in place (shorter than what was read,
    /// or its header changed): it is read again from its start.
    case truncated
    /// The name now leads to another file (the log was rotated or replaced):
    /// that file is read from its start.
    case replaced
    /// The name leads to nothing readable; what was read stays. The text says why, in one line.
    case missing(String)
}

/// Which keyframes ``LogReader`` holds lazily (``JSONNode/reading(_:_:containersOver:)``), over the
/// bytes of their line: a state of `keyframeBytes` of JSON or more, with its containers over
/// `containerBytes` held as their children's nodes. Smaller states are parsed into trees, which
/// patch fastest.
package struct LazyStates: Sendable {
    package var keyframeBytes: Int
    package var containerBytes: Int

    package init(keyframeBytes: Int, containerBytes: Int) {
        self.keyframeBytes = keyframeBytes
        self.containerBytes = containerBytes
    }

    /// From 1 MiB on: the states a tree holds in 2.8 MB or more.
    package static let standard = LazyStates(keyframeBytes: 1 << 20, containerBytes: JSONNode.lazyContainerBytes)
}

/// Where an entry's line is in the file (without its newline).
package struct LineLocation {
    package var offset: Int64
    package var length: Int
    package var end: Int64 { offset + Int64(length) }
}
