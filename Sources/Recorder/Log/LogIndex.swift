import Foundation

/// Where each entry's line is, found by scanning the file for newlines and
/// checking every line's checksum, incrementally so huge logs open at once.
///
/// About 17 bytes per entry (1,000,000 entries ≈ 17 MB); records are parsed
/// only when asked for.
package struct LogIndex {
    /// Per entry, in parallel arrays to stay compact.
    var offsets: [Int64] = []
    var lengths: [UInt32] = []
    var lineNumbers: [UInt32] = []
    var flags: [EntryFlags] = []

    var damage: [LogDamage] = []
    var gaps: [LogGap] = []
    /// The sessions after the first: where each header line is and the entry it comes before.
    var laterSessions: [(beforeEntry: Int, lineNumber: Int, offset: Int64, length: Int)] = []
    var tornTail: LogDamage?
    /// Offset and length of the first line, once complete (the header).
    var headerLine: (offset: Int64, length: Int)?
    /// Offset and length of the last line that held a record in its place (its checksum and
    /// number checked): where a writer appending to the log goes on from.
    var lastRecordLine: (offset: Int64, length: Int)?

    /// The next unscanned byte: always the start of a line.
    var scannedOffset: Int64 = 0
    var scannedLines = 0
    /// Flags to give the next entry found.
    var pendingFlags: EntryFlags = []
    /// How the records of the session being scanned are checked.
    var session = SessionChain()
    /// Lines read after dropping a carriage return before their newline (a CRLF-converted log).
    var carriageReturnLines = 0

    package struct EntryFlags: OptionSet {
        package let rawValue: UInt8
        package init(rawValue: UInt8) { self.rawValue = rawValue }
        /// A damaged line lies between this entry and the previous one.
        package static let afterDamage = EntryFlags(rawValue: 1)
        /// Entries were dropped (a gap record) right before this one.
        package static let afterGap = EntryFlags(rawValue: 2)
        /// A new recording session (header) starts right before this entry.
        package static let sessionStart = EntryFlags(rawValue: 4)
        /// The record starts `{"kind":"entry","keyframe":true`: it holds the whole state.
        package static let keyframe = EntryFlags(rawValue: 8)

        /// True when the entry's patch applies to the state after the entry before it: no
        /// damage, gap or new session lies between them. (Here, not where a scan asks: an
        /// option set's literal made in another module is built generically, per entry.)
        package var followsOn: Bool { isDisjoint(with: [.afterDamage, .sessionStart, .afterGap]) }
    }

    var entryCount: Int { offsets.count }
    var keyframeCount = 0
    /// Entries before this index's first one when it continues another (see ``continuation()``).
    private var entryBase = 0

    /// An empty index that goes on where this one stopped. Scanning it and then
    /// ``append(_:)``ing it gives what scanning this one would have: the reader
    /// scans a continuation without holding its lock, so readers are never
    /// stuck behind a scan of a huge file.
    func continuation() -> LogIndex {
        var next = LogIndex()
        next.scannedOffset = scannedOffset
        next.scannedLines = scannedLines
        next.pendingFlags = pendingFlags
        next.session = session
        next.headerLine = headerLine
        next.lastRecordLine = lastRecordLine
        next.entryBase = entryBase + entryCount
        return next
    }

    /// Adds what a ``continuation()`` of this index found.
    mutating func append(_ next: LogIndex) {
        precondition(next.entryBase == entryBase + entryCount && next.scannedOffset >= scannedOffset, "not a continuation of this index")
        offsets += next.offsets
        lengths += next.lengths
        lineNumbers += next.lineNumbers
        flags += next.flags
        damage += next.damage
        gaps += next.gaps
        laterSessions += next.laterSessions
        lastRecordLine = next.lastRecordLine
        tornTail = next.tornTail
        headerLine = next.headerLine
        scannedOffset = next.scannedOffset
        scannedLines = next.scannedLines
        pendingFlags = next.pendingFlags
        session = next.session
        carriageReturnLines += next.carriageReturnLines
        keyframeCount += next.keyframeCount
    }

    /// An entry line the index has just added, handed to a reader that reads
    /// each line as it is indexed (``LogReader/indexingScanPathValues(paths:_:)``)
    /// while its bytes are still in the cache: the line without its newline,
    /// the entry's position in the log, its line number and its flags.
    /// Returning false stops the scan after the window it is in.
    package typealias EntryObserver = (_ line: UnsafeRawBufferPointer, _ entry: Int, _ lineNumber: Int, _ flags: EntryFlags) -> Bool

    /// Scans at least one line and about `maxBytes` of `file` (whose size is `fileSize`).
    mutating func scan(_ file: ReadOnlyFile, fileSize: Int64, maxBytes: Int, buffer: inout [UInt8]) {
        scan(file, fileSize: fileSize, maxBytes: maxBytes, buffer: &buffer) { _, _, _, _ in true }
    }

    /// The same, handing each entry line it adds to `observer`, in order.
    /// (Not escaping, so what the observer captures needs no run-time exclusivity checks.)
    /// Windows are taken from `readAhead` when it reads this file.
    mutating func scan(_ file: ReadOnlyFile, fileSize: Int64, maxBytes: Int, buffer: inout [UInt8],
                       readAhead: (any LogFileReadAhead)? = nil, observer: EntryObserver) {
        let budgetEnd = scannedOffset + min(Int64(max(maxBytes, 1)), Int64.max - scannedOffset)
        let start = scannedOffset
        tornTail = nil
        var stopped = false
        while scannedOffset < fileSize && scannedOffset < budgetEnd && !stopped {
            let windowSize = Int(min(Int64(LogIndex.windowBytes), fileSize - scannedOffset, budgetEnd - scannedOffset))
            if let readAhead, readAhead.file === file {
                // The lines in the read-ahead's block scanned where they lie (copying them cost a
                // fifth of a cold search's CPU); the line that runs into the next block is copied,
                // in a small window first.
                if let held = readAhead.bytesInPlace(at: scannedOffset, count: windowSize) {
                    let consumed = scanWindow(held, fileSize: fileSize, observer: observer, stopped: &stopped)
                    scannedOffset += Int64(consumed)
                    if tornTail != nil { return }
                    if consumed > 0 || stopped { continue }
                }
                let stitch = min(windowSize, LogIndex.stitchBytes)
                if stitch < windowSize {
                    let read = file.read(into: &buffer, at: scannedOffset, count: stitch, through: readAhead)
                    guard read > 0 else { return }
                    let consumed = buffer.withUnsafeBytes { bytes in
                        scanWindow(UnsafeRawBufferPointer(rebasing: bytes[..<read]), fileSize: fileSize, observer: observer, stopped: &stopped)
                    }
                    scannedOffset += Int64(consumed)
                    if consumed > 0 || stopped { continue }
                }
            }
            let read = file.read(into: &buffer, at: scannedOffset, count: windowSize, through: readAhead)
            guard read > 0 else { return }
            let consumed = buffer.withUnsafeBytes { bytes in
                scanWindow(UnsafeRawBufferPointer(rebasing: bytes[..<read]), fileSize: fileSize, observer: observer, stopped: &stopped)
            }
            scannedOffset += Int64(consumed)
            if tornTail != nil { return }
            if consumed == 0 {
                // A line that runs past the budget is left for the next call, once this one has
                // indexed something: reading it here read a cold file's first megabytes through
                // the page cache before a search could choose to read it past the cache.
                if windowSize < LogIndex.windowBytes && scannedOffset > start && scannedOffset + Int64(windowSize) < fileSize { return }
                // No newline in a whole window: one long line.
                if !scanLongLine(file, fileSize: fileSize, searchFrom: scannedOffset + Int64(read), buffer: &buffer,
                                 observer: observer, stopped: &stopped) { return }
            }
        }
    }

    static let windowBytes = 1 << 20
    /// The window a line running from one read-ahead block into the next is read in first.
    static let stitchBytes = 64 << 10

    /// Processes the complete lines in `window` (which starts at `scannedOffset`);
    /// returns how many bytes they took.
    private mutating func scanWindow(_ window: UnsafeRawBufferPointer, fileSize: Int64, observer: EntryObserver, stopped: inout Bool) -> Int {
        var position = 0
        let base = window.baseAddress!
        while position < window.count {
            guard let found = memchr(base + position, 0x0A, window.count - position) else { break }
            let end = base.distance(to: UnsafeRawPointer(found))
            let lineOffset = scannedOffset + Int64(position)
            let isFinal = lineOffset + Int64(end - position) + 1 == fileSize
            if !addLine(UnsafeRawBufferPointer(rebasing: window[position..<end]), at: lineOffset, isFinal: isFinal, observer: observer, stopped: &stopped) {
                return position
            }
            position = end + 1
        }
        if tornTail == nil && position < window.count && scannedOffset + Int64(window.count) == fileSize {
            // The rest of the file is a line without its newline.
            markTorn(at: scannedOffset + Int64(position), length: window.count - position, reason: "incomplete final line (no newline)")
        }
        return position
    }

    /// A line longer than the window: find its end without keeping it if it is
    /// over the limit. Returns false when scanning must stop (torn tail).
    private mutating func scanLongLine(_ file: ReadOnlyFile, fileSize: Int64, searchFrom start: Int64, buffer: inout [UInt8],
                                       observer: EntryObserver, stopped: inout Bool) -> Bool {
        var searchFrom = start
        var newline: Int64?
        while newline == nil && searchFrom < fileSize {
            let count = Int(min(Int64(LogIndex.windowBytes), fileSize - searchFrom))
            let read = file.read(into: &buffer, at: searchFrom, count: count)
            guard read > 0 else { break }
            buffer.withUnsafeBytes { bytes in
                if let found = memchr(bytes.baseAddress!, 0x0A, read) {
                    newline = searchFrom + Int64(bytes.baseAddress!.distance(to: UnsafeRawPointer(found)))
                }
            }
            searchFrom += Int64(read)
        }
        guard let newline else {
            markTorn(at: scannedOffset, length: Int(fileSize - scannedOffset), reason: "incomplete final line (no newline)")
            return false
        }
        let length = Int(newline - scannedOffset)
        let isFinal = newline + 1 == fileSize
        if length > LogReader.maximumLineBytes {
            scannedLines += 1
            damage.append(LogDamage(lineNumber: scannedLines, offset: scannedOffset, reason: "line longer than the \(LogReader.maximumLineBytes >> 20) MB record limit"))
            pendingFlags.insert(.afterDamage)
            session.noteUnreadableLine()
        } else {
            var line: [UInt8] = []
            file.read(into: &line, at: scannedOffset, count: length)
            let accepted = line.withUnsafeBytes { bytes in
                addLine(UnsafeRawBufferPointer(rebasing: bytes[..<length]), at: scannedOffset, isFinal: isFinal, observer: observer, stopped: &stopped)
            }
            if !accepted { return false }
        }
        scannedOffset = newline + 1
        return true
    }

    /// Classifies one complete line. Returns false when it is a bad final line
    /// (a torn tail: left unscanned so a later refresh can look again).
    private mutating func addLine(_ rawLine: UnsafeRawBufferPointer, at offset: Int64, isFinal: Bool, observer: EntryObserver, stopped: inout Bool) -> Bool {
        let lineNumber = scannedLines + 1
        var line = rawLine
        var seal = LogLine.unseal(line)
        // A log whose line endings were converted to CRLF: the checksum covers
        // the record without the CR, so the record is read as written.
        if seal == nil, let last = line.last, last == 0x0D {
            line = UnsafeRawBufferPointer(rebasing: line.dropLast())
            seal = LogLine.unseal(line)
        }
        let isHeader = LogLine.hasPrefix(line, LogLine.Kind.header)
        // Checked on a copy: a torn final line is looked at again later, as if for the first time.
        var checked = session
        let verdict = checked.check(seal, isHeader: isHeader)
        if case .damaged = verdict, isFinal {
            markTorn(at: offset, length: rawLine.count + 1, reason: "final line " + (rawLine.isEmpty ? "is empty" : "fails its checksum"))
            return false
        }
        session = checked
        if line.count < rawLine.count, verdict == .inPlace { carriageReturnLines += 1 }
        switch verdict {
        case .damaged(let why):
            scannedLines = lineNumber
            var reason = why ?? (rawLine.isEmpty ? "empty line" : "checksum mismatch or not a complete record")
            if why == nil, rawLine.last == 0x0D { reason += " (the line ends with a carriage return: were its line endings converted?)" }
            damage.append(LogDamage(lineNumber: lineNumber, offset: offset, reason: reason))
            pendingFlags.insert(.afterDamage)
            return true
        case .outOfPlace(let why):
            // A valid record that does not belong here (a copy, or moved back):
            // skipped; the records around it still link, so nothing is missing.
            scannedLines = lineNumber
            damage.append(LogDamage(lineNumber: lineNumber, offset: offset, reason: why))
            return true
        case .afterMissing(let why):
            damage.append(LogDamage(lineNumber: lineNumber, offset: offset, reason: why, lineWasRead: true))
            pendingFlags.insert(.afterDamage)
        case .inPlace:
            break
        }
        lastRecordLine = (offset, line.count)
        scannedLines = lineNumber
        if LogLine.isEntry(line) {
            offsets.append(offset)
            lengths.append(UInt32(line.count))
            lineNumbers.append(UInt32(truncatingIfNeeded: lineNumber))
            if LogLine.hasPrefix(line, LogLine.Kind.keyframe) {
                pendingFlags.insert(.keyframe)
                keyframeCount += 1
            }
            flags.append(pendingFlags)
            pendingFlags = []
            if !stopped && !observer(line, entryBase + offsets.count - 1, lineNumber, flags[flags.count - 1]) { stopped = true }
        } else if isHeader {
            if headerLine == nil {
                headerLine = (offset, line.count)
            } else {
                pendingFlags.insert(.sessionStart)
                laterSessions.append((entryBase + offsets.count, lineNumber, offset, line.count))
            }
        } else if LogLine.hasPrefix(line, LogLine.Kind.gap) {
            let record = try? JSONParser.parse(UnsafeRawBufferPointer(line).bindMemory(to: UInt8.self))
            if let problem = record.flatMap(LogLimits.gapProblem) {
                // Read as a gap, its numbers would overflow every entry number after it.
                damage.append(LogDamage(lineNumber: lineNumber, offset: offset, reason: problem))
                pendingFlags.insert(.afterDamage)
                return true
            }
            gaps.append(LogGap(
                beforeEntry: entryBase + offsets.count, lineNumber: lineNumber,
                firstSequence: record?[RecordField.firstSequence.name]?.int64Value ?? -1,
                droppedCount: Int(clamping: max(0, record?[RecordField.dropped.name]?.int64Value ?? 0)),
                reason: record?[RecordField.reason.name]?.stringValue))
            pendingFlags.insert(.afterGap)
        }
        // Any other kind with a valid checksum comes from a later minor version: skipped.
        return true
    }

    private mutating func markTorn(at offset: Int64, length: Int, reason: String) {
        tornTail = LogDamage(lineNumber: scannedLines + 1, offset: offset, reason: reason + ", \(length) bytes")
    }
}

/// Entries that were not recorded: the queue was full or at its memory limit (drop policy), a state was too
/// large or deep for a record, or a live stream lost them; `reason` says which.
public struct LogGap: Sendable, Equatable {
    /// Index of the entry that follows the gap (== entry count when the gap is last).
    public var beforeEntry: Int
    /// One-based line number of the gap record in the file.
    public var lineNumber: Int
    /// Sequence number of the first dropped entry.
    public var firstSequence: Int64
    /// How many entries were dropped.
    public var droppedCount: Int
    /// Why, as the recorder wrote it (`the state after load is 70 MB encoded; a log record holds at most 64 MB`);
    /// nil when it gave none.
    public var reason: String?

    /// A gap as the index reads it from a `gap` record (tests build them to check listings).
    public init(beforeEntry: Int, lineNumber: Int, firstSequence: Int64, droppedCount: Int, reason: String? = nil) {
        self.beforeEntry = beforeEntry
        self.lineNumber = lineNumber
        self.firstSequence = firstSequence
        self.droppedCount = droppedCount
        self.reason = reason
    }
}

/// A recording session after the first: the log was opened again and appended to.
public struct LogSession: Sendable {
    /// Index of the session's first entry (== entry count when it recorded none yet).
    public var beforeEntry: Int
    /// One-based line number of its header in the file.
    public var lineNumber: Int
    /// Its header: when it started (``LogHeader/created``) and in which process; nil when unreadable.
    public var header: LogHeader?
}
