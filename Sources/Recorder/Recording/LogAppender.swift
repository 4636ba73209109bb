import Foundation

/// The log file opened for appending with POSIX calls (not `FileHandle`, which
/// can trap on Linux when a write fails): every failure becomes a ``RecorderError``.
///
/// One writer per log: a regular file is locked (`flock`, exclusive, never
/// waited for) while it is open here, so a second recorder on the same file, in
/// this process or another, fails at once. Readers take no lock and are never blocked.
///
/// Before and after every write the file is checked against what this recorder
/// wrote: truncated (`: > log`, logrotate's `copytruncate`), written to by
/// someone else, replaced, renamed or removed, recording stops with an error
/// rather than appending records that no longer follow a header.
final class LogAppender {
    let path: String
    private let descriptor: Int32
    /// True when the file already held records (so the new session's header is not the first line).
    let hadRecords: Bool
    /// Bytes cut from a torn tail while opening, for tests and diagnostics.
    let recoveredTornBytes: Int64
    /// The sequence number the new session's first entry takes: one past the log's
    /// last entry or gap, so that entries keep one numbering across sessions.
    let nextSequence: Int64
    /// Set for regular files (devices such as /dev/null are written without checks).
    private var watched: WatchedFile?

    private struct WatchedFile {
        /// Where the file is, absolute: the app may change its working directory.
        var absolutePath: String
        var device: UInt64
        var inode: UInt64
        /// The size the file has when nobody else touched it.
        var expectedSize: Int64
    }

    /// Opens or creates `path` (owner read/write only), takes the one-writer
    /// lock and recovers a torn tail: an incomplete or damaged final line is
    /// truncated away, so new records start on a fresh line and the log stays valid.
    init(path: String) throws(RecorderError) {
        self.path = path
        // O_NONBLOCK: opening a FIFO must not wait for a reader (it is refused below).
        let descriptor = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC | O_NONBLOCK, 0o600)
        guard descriptor >= 0 else { throw RecorderError(.cannotOpen, path: path, reason: "cannot open the log", code: errno) }
        do throws(RecorderError) {
            var status = stat()
            guard fstat(descriptor, &status) == 0 else { throw RecorderError(.cannotOpen, path: path, reason: "cannot inspect the log", code: errno) }
            switch status.st_mode & S_IFMT {
            case S_IFREG:
                try LogAppender.lockForWriting(descriptor, identity: FileIdentity(status), path: path)
                (hadRecords, recoveredTornBytes) = try LogAppender.recoverTail(descriptor, size: Int64(status.st_size), path: path)
                guard fstat(descriptor, &status) == 0 else { throw RecorderError(.cannotOpen, path: path, reason: "cannot inspect the log", code: errno) }
                nextSequence = hadRecords ? TailLines(file: PositionalReader(descriptor: descriptor), size: Int64(status.st_size)).nextSequence() : 0
                watched = WatchedFile(
                    absolutePath: path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path,
                    device: Platform.fileNumber(status.st_dev), inode: Platform.fileNumber(status.st_ino), expectedSize: Int64(status.st_size))
            case S_IFDIR:
                throw RecorderError(.notAFile, path: path, reason: "is a directory", code: EISDIR)
            case S_IFCHR:
                // /dev/null, /dev/full, a terminal: written as they are, nothing to recover.
                (hadRecords, recoveredTornBytes, watched, nextSequence) = (false, 0, nil, 0)
            default:
                // A FIFO whose reader goes away would block the writer forever; a socket is not a file.
                let kind = (status.st_mode & S_IFMT) == S_IFIFO ? "a FIFO (named pipe)" : "not a regular file"
                throw RecorderError(.notAFile, path: path, reason: "is \(kind); Rewind records into regular files")
            }
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        } catch {
            close(descriptor)
            throw error
        }
        // Set last, so a throwing init never reaches deinit (which would close it again).
        self.descriptor = descriptor
    }

    /// Whether ``closeFile()`` already closed the descriptor.
    private var isClosed = false

    deinit { closeFile() }

    /// Closes the file now, releasing the one-writer lock (so `ActionRecorder.close()`
    /// returning means another recorder may open the log at once).
    func closeFile() {
        guard !isClosed else { return }
        isClosed = true
        if let watched { Self.openInThisProcess.withLock { _ = $0.remove(FileIdentity(device: watched.device, inode: watched.inode)) } }
        close(descriptor)
    }

    /// Logs this process's recorders hold, so a second one can be told the holder is here.
    private static let openInThisProcess = Locked(Set<FileIdentity>())

    /// Writes all of `bytes` (retrying short writes and EINTR), after checking
    /// that the file is still the one this recorder has been writing.
    func write(_ bytes: [UInt8]) throws(RecorderError) {
        try checkUnchanged()
        let (written, failure) = bytes.withUnsafeBytes { WriteAll.write($0, to: descriptor) }
        watched?.expectedSize += Int64(written)
        if let failure { throw RecorderError(.cannotWrite, path: path, reason: "cannot write", code: failure) }
        // A truncation between the check and the write put these records at the start of the file.
        try checkUnchanged(includingName: false)
    }

    func synchronize() throws(RecorderError) {
        if Platform.synchronizeToDisk(descriptor) != 0 && errno != EINVAL {
            throw RecorderError(.cannotWrite, path: path, reason: "cannot fsync", code: errno)
        }
    }

    /// Throws when the file was removed, renamed, replaced, truncated or appended
    /// to by someone else since this recorder last wrote. Writes to a deleted or
    /// renamed file succeed on POSIX systems, so this is checked explicitly.
    func checkUnchanged(includingName: Bool = true) throws(RecorderError) {
        guard let watched else { return }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw RecorderError(.cannotWrite, path: path, reason: "cannot inspect the log", code: errno) }
        if status.st_nlink == 0 {
            throw RecorderError(.logChanged, path: path, reason: "the log file was removed while recording")
        }
        let size = Int64(status.st_size)
        if size < watched.expectedSize {
            throw RecorderError(.logChanged, path: path, reason: "the log file was truncated while recording (by `: >` or logrotate's copytruncate?); recording stopped so that no records without a header are written")
        }
        if size > watched.expectedSize {
            throw RecorderError(.logChanged, path: path, reason: "something else wrote to the log file while recording; recording stopped")
        }
        guard includingName else { return }
        var named = stat()
        if stat(watched.absolutePath, &named) != 0 || Platform.fileNumber(named.st_dev) != watched.device || Platform.fileNumber(named.st_ino) != watched.inode {
            throw RecorderError(.logChanged, path: path, reason: "the log file was renamed or replaced while recording (rotated?); recording stopped")
        }
    }

    // MARK: Opening

    /// Takes the exclusive one-writer lock, or throws naming the holder when it can be known.
    private static func lockForWriting(_ descriptor: Int32, identity: FileIdentity, path: String) throws(RecorderError) {
        if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
            // A POSIX record lock as well, only so that another process can learn our pid (F_GETLK).
            var lock = recordLock(F_WRLCK)
            _ = fcntl(descriptor, F_SETLK, &lock)
            openInThisProcess.withLock { _ = $0.insert(identity) }
            return
        }
        let code = errno
        guard code == EWOULDBLOCK || code == EAGAIN else { throw RecorderError(.cannotOpen, path: path, reason: "cannot lock the log", code: code) }
        var holder = recordLock(F_WRLCK)
        let who: String
        if openInThisProcess.withLock({ $0.contains(identity) }) {
            who = "another ActionRecorder in this process"
        } else if fcntl(descriptor, F_GETLK, &holder) == 0, holder.l_type != F_UNLCK, holder.l_pid > 0 {
            who = "another recorder (process \(holder.l_pid))"
        } else {
            who = "another recorder"
        }
        throw RecorderError(.alreadyRecording, path: path, reason: "is already being recorded by \(who); a log has one writer at a time")
    }

    private static func recordLock(_ type: Int32) -> flock {
        var lock = flock()
        lock.l_type = Int16(type)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = 0
        lock.l_len = 0
        return lock
    }

    /// Returns whether the file holds records, after cutting a torn final line.
    /// Only a file whose first line is a header with a valid checksum is a log;
    /// anything else is refused, never changed.
    private static func recoverTail(_ descriptor: Int32, size: Int64, path: String) throws(RecorderError) -> (Bool, Int64) {
        guard size > 0 else { return (false, 0) }
        let lines = TailLines(file: PositionalReader(descriptor: descriptor), size: size)
        let notALog = RecorderError(.notARewindLog, path: path, reason: "exists and is not a Rewind log; refusing to append to it")
        guard lines.startsWithHeaderPrefix else { throw notALog }
        guard let firstEnd = lines.firstNewline() else {
            // One incomplete line starting like a header: a recorder stopped while writing its first record.
            guard ftruncate(descriptor, 0) == 0 else {
                throw RecorderError(.cannotWrite, path: path, reason: "cannot cut the torn header of the log", code: errno)
            }
            return (false, size)
        }
        guard let header = lines.seal(from: 0, to: firstEnd), header.key == 0 else {
            throw RecorderError(.notARewindLog, path: path, reason: "exists and is not a Rewind log (its first line is not a Rewind header with a valid checksum); refusing to append to it")
        }
        let lastStart = lines.lineStart(before: size - 1)
        guard lastStart > 0 else { return (true, 0) }   // only the header
        if lines.lastByte == 0x0A, lines.isValidLastLine(from: lastStart) { return (true, 0) }
        guard ftruncate(descriptor, off_t(lastStart)) == 0 else {
            throw RecorderError(.cannotWrite, path: path, reason: "cannot cut the torn last line of the log", code: errno)
        }
        return (true, size - lastStart)
    }
}

/// Reads the lines at the ends of a log without reading the middle.
private struct TailLines {
    let file: PositionalReader
    let size: Int64

    var startsWithHeaderPrefix: Bool {
        var prefix: [UInt8] = []
        let count = file.read(into: &prefix, at: 0, count: LogLine.headerPrefix.count)
        return count == LogLine.headerPrefix.count && prefix.starts(with: LogLine.headerPrefix)
    }

    var lastByte: UInt8 {
        var byte: [UInt8] = []
        file.read(into: &byte, at: size - 1, count: 1)
        return byte[0]
    }

    /// Offset of the first newline, if any.
    func firstNewline() -> Int64? {
        var chunk: [UInt8] = []
        var start: Int64 = 0
        while start < size {
            let read = file.read(into: &chunk, at: start, count: Int(min(65_536, size - start)))
            guard read > 0 else { return nil }
            if let index = chunk[..<read].firstIndex(of: 0x0A) { return start + Int64(index) }
            start += Int64(read)
        }
        return nil
    }

    /// The start of the line that holds the byte before `end` (the byte after the previous newline).
    func lineStart(before end: Int64) -> Int64 {
        var end = end
        var chunk: [UInt8] = []
        while end > 0 {
            let start = max(0, end - 65_536)
            let read = file.read(into: &chunk, at: start, count: Int(end - start))
            if let index = chunk[..<read].lastIndex(of: 0x0A) { return start + Int64(index) + 1 }
            end = start
        }
        return 0
    }

    /// The framing of the line in `start..<end` (`end` at its newline; a CR before it is dropped).
    func seal(from start: Int64, to end: Int64) -> LogLine.Seal? {
        var line: [UInt8] = []
        var length = Int(end - start)
        file.read(into: &line, at: start, count: length)
        if length > 0 && line[length - 1] == 0x0D { length -= 1 }
        return line.withUnsafeBytes { LogLine.unseal(UnsafeRawBufferPointer(rebasing: $0[..<length])) }
    }

    /// One past the last entry's (or gap's) sequence number, read from the last
    /// records backwards (past headers of sessions that recorded nothing), at most
    /// 1,024 lines back; 0 when none is found there.
    func nextSequence() -> Int64 {
        var end = size - 1   // at the final newline (a torn tail was cut)
        var line: [UInt8] = []
        for _ in 0..<1_024 where end > 0 {
            let start = lineStart(before: end)
            let count = file.read(into: &line, at: start, count: Int(end - start))
            switch line.withUnsafeBytes({ LiveBacklog.kind(of: UnsafeRawBufferPointer(rebasing: $0[..<count])) }) {
            case .entry(let sequence, _): return sequence < .max ? sequence + 1 : sequence
            case .gap(let first, let count):
                let (last, overflow) = first.addingReportingOverflow(count)
                return overflow ? first : last
            case .header, .other: break
            }
            end = start - 1
        }
        return 0
    }

    func startsWith(_ prefix: [UInt8], at offset: Int64) -> Bool {
        var bytes: [UInt8] = []
        return file.read(into: &bytes, at: offset, count: prefix.count) == prefix.count && bytes.starts(with: prefix)
    }

    /// Whether the complete last line (from `start` to the final newline) is a
    /// record of the session before it: unchained records and headers verify on
    /// their own; a chained record's checksum must carry its session's key, which
    /// the line before it gives.
    func isValidLastLine(from start: Int64) -> Bool {
        guard let last = seal(from: start, to: size - 1) else { return false }
        if last.number == nil || startsWith(LogLine.headerPrefix, at: start) { return last.key == 0 }
        let previousStart = lineStart(before: start - 1)
        guard let previous = seal(from: previousStart, to: start - 1) else { return false }
        let key = startsWith(LogLine.headerPrefix, at: previousStart) ? previous.stored : previous.key
        return last.key == key
    }
}
