import Foundation

/// A read-only file descriptor read with `pread`, so a file that shrinks or
/// grows under the reader gives short reads, never a signal (as `mmap` would).
package final class ReadOnlyFile {
    package let descriptor: Int32

    /// Opens `path`, turning every failure into the one-line error a user sees.
    package init(path: String) throws(LogReadError) {
        // O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused below).
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            let code = errno
            throw LogReadError(code == ENOENT ? .notFound : .unreadable(String(cString: strerror(code))), path: path)
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let code = errno
            close(descriptor)
            throw LogReadError(.unreadable(String(cString: strerror(code))), path: path)
        }
        // Only a regular file can be read at offsets and followed as it grows;
        // a FIFO or a device would block a reader or never end.
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR:
            close(descriptor)
            throw LogReadError(.isDirectory, path: path)
        default:
            close(descriptor)
            throw LogReadError(.notRegularFile(FileKind.name(of: status.st_mode)), path: path)
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        // Set last: a class whose init throws after setting every property runs
        // its deinit, which would close the descriptor a second time (and, with
        // threads, someone else's file that reused the number).
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    package var size: Int64 {
        var status = stat()
        return fstat(descriptor, &status) == 0 ? Int64(status.st_size) : 0
    }

    /// Device and inode of the open file, to tell whether a path still names it.
    var identity: FileIdentity? {
        var status = stat()
        return fstat(descriptor, &status) == 0 ? FileIdentity(status) : nil
    }

    /// Asks the kernel to start reading `count` bytes at `offset` into the page
    /// cache now, without waiting for them: a scan that will read them next
    /// finds them there instead of waiting for the disk between its windows.
    /// A hint only (nothing on systems without `posix_fadvise`).
    package func prefetch(offset: Int64, count: Int64) {
        #if os(Linux)
        _ = posix_fadvise(descriptor, off_t(offset), off_t(count), POSIX_FADV_WILLNEED)
        #endif
    }

    /// Reads up to `count` bytes at `offset` into `buffer` (grown if needed); returns bytes read.
    @discardableResult
    package func read(into buffer: inout [UInt8], at offset: Int64, count: Int) -> Int {
        PositionalReader(descriptor: descriptor).read(into: &buffer, at: offset, count: count)
    }

    /// The same, taking what `readAhead` holds of those bytes first (when it reads
    /// this file), and reading the rest with `pread`, so the bytes are the file's either way.
    @discardableResult
    package func read(into buffer: inout [UInt8], at offset: Int64, count: Int, through readAhead: (any LogFileReadAhead)?) -> Int {
        guard let readAhead, readAhead.file === self else { return read(into: &buffer, at: offset, count: count) }
        if buffer.count < count { buffer = [UInt8](repeating: 0, count: count) }
        return buffer.withUnsafeMutableBytes { bytes in
            let copied = readAhead.copy(at: offset, into: bytes.baseAddress!, count: count)
            guard copied < count else { return copied }
            return copied + PositionalReader(descriptor: descriptor).read(intoBytes: bytes.baseAddress! + copied, at: offset + Int64(copied), count: count - copied)
        }
    }
}

/// Bytes of a log file read ahead of its reader by someone else, for a reader
/// that reads the file once from start to end (RewindQuery's `DirectReadAhead`:
/// a cold recording read past the page cache). What it does not hold is read
/// with `pread`, so the bytes are always the file's.
package protocol LogFileReadAhead: AnyObject {
    /// The file it reads.
    var file: ReadOnlyFile { get }
    /// The bytes at `offset` where they lie, up to `count` of them (nil when it does not hold them):
    /// valid until the next call asks for bytes further on.
    func bytesInPlace(at offset: Int64, count: Int) -> UnsafeRawBufferPointer?
    /// Copies what it holds of the `count` bytes at `offset` into `destination`: how many, from the first.
    func copy(at offset: Int64, into destination: UnsafeMutableRawPointer, count: Int) -> Int
}

/// `pread` on a descriptor someone else owns.
struct PositionalReader {
    let descriptor: Int32

    @discardableResult
    func read(into buffer: inout [UInt8], at offset: Int64, count: Int) -> Int {
        if buffer.count < count { buffer = [UInt8](repeating: 0, count: count) }
        return buffer.withUnsafeMutableBytes { read(intoBytes: $0.baseAddress!, at: offset, count: count) }
    }

    /// The same into `bytes`, which has room for `count`.
    func read(intoBytes bytes: UnsafeMutableRawPointer, at offset: Int64, count: Int) -> Int {
        var total = 0
        while total < count {
            let result = pread(descriptor, bytes + total, count - total, off_t(offset) + off_t(total))
            if result > 0 {
                total += result
            } else if result < 0 && errno == EINTR {
                continue
            } else {
                break
            }
        }
        return total
    }
}

/// What kind of thing a path names, in words for an error message.
package enum FileKind {
    /// The file type in `mode` (a `stat`'s `st_mode`): "a FIFO", "a character device"…
    package static func name(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFREG: "a regular file"
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        case S_IFLNK: "a symbolic link"
        default: "a special file"
        }
    }
}

/// Which file a descriptor or a path leads to.
struct FileIdentity: Hashable {
    var device: UInt64
    var inode: UInt64

    init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }

    init(_ status: stat) {
        device = Platform.fileNumber(status.st_dev)
        inode = Platform.fileNumber(status.st_ino)
    }

    /// What `path` names now (following links); nil when nothing does.
    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        self.init(status)
    }
}

/// Read buffers handed from one reader to the next: `rewind find DIR` opens
/// a reader per recording, and a fresh 1 MB window each time cost its zeroing
/// and its page faults (a few percent of a search over small recordings).
enum ReadBufferPool {
    private static let spares = Locked<[[UInt8]]>([])
    /// Buffers kept at most, and the largest kept (a huge line's buffer is let go).
    static let limit = 8
    static let largestKept = 4 << 20

    /// A buffer to read into (empty when none is spare).
    static func take() -> [UInt8] {
        spares.withLock { $0.popLast() } ?? []
    }

    /// Gives back a buffer nobody else holds.
    static func giveBack(_ buffer: [UInt8]) {
        guard !buffer.isEmpty, buffer.count <= largestKept else { return }
        spares.withLock { spares in
            if spares.count < limit { spares.append(buffer) }
        }
    }
}

