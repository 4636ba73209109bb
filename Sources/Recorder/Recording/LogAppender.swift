import Foundation

/// The log file opened for appending with POSIX calls (not `FileHandle`, which
/// can trap on Linux when a write fails): every failure becomes a ``RecorderError``.
final class LogAppender {
    let path: String
    private let descriptor: Int32
    /// True when the file already held records (so the new session's header is not the first line).
    let hadRecords: Bool
    /// Bytes cut from a torn tail while opening, for tests and diagnostics.
    let recoveredTornBytes: Int64

    /// Opens or creates `path` (owner read/write only) and recovers a torn
    /// tail: an incomplete or damaged final line is truncated away, so new
    /// records start on a fresh line and the log stays valid.
    init(path: String) throws(RecorderError) {
        self.path = path
        let descriptor = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw RecorderError(path: path, reason: "cannot open the log", code: errno) }
        do {
            (hadRecords, recoveredTornBytes) = try LogAppender.recoverTail(descriptor, path: path)
        } catch {
            close(descriptor)
            throw error
        }
        // Set last, so a throwing init never reaches deinit (which would close it again).
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Writes all of `bytes` (retrying short writes and EINTR).
    func write(_ bytes: [UInt8]) throws(RecorderError) {
        var written = 0
        let failure: Int32? = bytes.withUnsafeBytes { buffer in
            while written < buffer.count {
                let result = Foundation.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if result > 0 {
                    written += result
                } else if result < 0 && errno == EINTR {
                    continue
                } else {
                    return result < 0 ? errno : ENOSPC
                }
            }
            return nil
        }
        if let failure { throw RecorderError(path: path, reason: "cannot write", code: failure) }
    }

    func synchronize() throws(RecorderError) {
        if fsync(descriptor) != 0 && errno != EINVAL {
            throw RecorderError(path: path, reason: "cannot fsync", code: errno)
        }
    }

    /// Writes to a deleted file succeed on POSIX systems, so removal is checked for explicitly.
    func checkStillLinked() throws(RecorderError) {
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_nlink == 0, (status.st_mode & S_IFMT) == S_IFREG {
            throw RecorderError(path: path, reason: "the log file was removed while recording")
        }
    }

    /// Returns whether the file holds records, after cutting a torn final line.
    private static func recoverTail(_ descriptor: Int32, path: String) throws(RecorderError) -> (Bool, Int64) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw RecorderError(path: path, reason: "cannot inspect the log", code: errno) }
        if (status.st_mode & S_IFMT) == S_IFDIR { throw RecorderError(path: path, reason: "is a directory", code: EISDIR) }
        // Devices and pipes (/dev/full, /dev/null): nothing to recover.
        guard (status.st_mode & S_IFMT) == S_IFREG, status.st_size > 0 else { return (false, 0) }
        let size = Int64(status.st_size)
        let file = PositionalReader(descriptor: descriptor)
        var prefix: [UInt8] = []
        let count = file.read(into: &prefix, at: 0, count: LogLine.headerPrefix.count)
        guard count == LogLine.headerPrefix.count, prefix.starts(with: LogLine.headerPrefix) else {
            throw RecorderError(path: path, reason: "exists and is not a Rewind log; refusing to append to it")
        }
        // Find the start of the last line (the byte after the last newline before the final byte).
        var lastLineStart: Int64 = 0
        var end = size - 1
        var chunk: [UInt8] = []
        search: while end > 0 {
            let start = max(0, end - 65_536)
            let read = file.read(into: &chunk, at: start, count: Int(end - start))
            for index in stride(from: read - 1, through: 0, by: -1) where chunk[index] == 0x0A {
                lastLineStart = start + Int64(index) + 1
                break search
            }
            end = start
        }
        var line: [UInt8] = []
        let lineLength = Int(size - lastLineStart)
        file.read(into: &line, at: lastLineStart, count: lineLength)
        let complete = line[lineLength - 1] == 0x0A && line.withUnsafeBytes {
            LogLine.verify(UnsafeRawBufferPointer(rebasing: $0[..<(lineLength - 1)]))
        }
        if complete { return (true, 0) }
        guard ftruncate(descriptor, off_t(lastLineStart)) == 0 else {
            throw RecorderError(path: path, reason: "cannot cut the torn last line of the log", code: errno)
        }
        return (lastLineStart > 0, size - lastLineStart)
    }
}
