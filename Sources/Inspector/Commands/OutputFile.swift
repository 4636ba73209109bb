import Foundation
import Recorder

/// Writes a command's output file (`export -o`, `import -o`) without destroying
/// anything it should not:
///
/// - a regular file is replaced atomically (written beside it, then renamed over
///   it), so a failed write leaves the old file whole; never the command's input;
/// - a new file is created owner-only (0600), like a log;
/// - a character device or a FIFO (`/dev/stdout`, `>(gzip)`) is written through,
///   never replaced by a regular file; a FIFO nobody reads is refused, not waited on;
/// - a symbolic link is written through only to a device or FIFO; a link to a
///   regular file (or to nothing) is refused, so the file it points to is never
///   replaced silently;
/// - directories, block devices and sockets are refused.
enum OutputFile {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Writes `bytes` to `path`; `inputs` are the files the command read, which
    /// must not be overwritten (compared by device and inode, so hard links and
    /// other spellings of the same path count).
    static func write(_ bytes: [UInt8], to path: String, inputs: [String]) throws(Failure) {
        let file = try open(path, inputs: inputs)
        do {
            try file.write(bytes)
        } catch {
            file.abandon()
            throw error
        }
        try file.finish()
    }

    /// Opens `path` to be written chunk by chunk under the same rules (an export too large to
    /// hold in memory): a regular file is written beside its name and renamed over it by
    /// ``Stream/finish()``; ``Stream/abandon()`` leaves nothing (and the old file whole).
    static func open(_ path: String, inputs: [String]) throws(Failure) -> Stream {
        guard let target = try existingTarget(of: path, inputs: inputs) else { return try Stream(creating: path) }
        if (target.st_mode & S_IFMT) == S_IFREG {
            return try Stream(creating: path + ".rewind-\(getpid())-\(UInt32.random(in: .min ... .max)).tmp", renamedTo: path)
        }
        return try Stream(writingThrough: path)
    }

    /// An output file being written; ``finish()`` or ``abandon()`` ends it.
    final class Stream {
        private let descriptor: Int32
        /// The name written to (a temporary name beside `path` when it replaces a file), removed on failure.
        private let created: String?
        private let path: String

        /// Creates `name` (never an existing name: O_EXCL | O_NOFOLLOW, so whatever appeared there
        /// since `lstat` is not written through), owner-only; to be renamed to `path` when given.
        fileprivate init(creating name: String, renamedTo path: String? = nil) throws(Failure) {
            self.path = path ?? name
            descriptor = Foundation.open(name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw OutputFile.failure(self.path, code: errno) }
            created = name
        }

        /// A device or FIFO, written through.
        fileprivate init(writingThrough path: String) throws(Failure) {
            self.path = path
            created = nil
            // O_NONBLOCK: a FIFO without a reader fails with ENXIO instead of waiting forever.
            descriptor = Foundation.open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
            guard descriptor >= 0 else {
                if errno == ENXIO { throw Failure(description: "\(path) is a FIFO that nobody is reading") }
                throw OutputFile.failure(path, code: errno)
            }
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        }

        func write(_ bytes: [UInt8]) throws(Failure) {
            if let code = writeAll(bytes, to: descriptor) { throw OutputFile.failure(path, code: code) }
        }

        func write(_ bytes: UnsafeBufferPointer<UInt8>) throws(Failure) {
            if let code = WriteAll.write(UnsafeRawBufferPointer(bytes), to: descriptor).failure { throw OutputFile.failure(path, code: code) }
        }

        /// Closes the file and puts it under its name.
        func finish() throws(Failure) {
            close(descriptor)
            guard let created, created != path else { return }
            guard rename(created, path) == 0 else {
                let code = errno
                unlink(created)
                throw OutputFile.failure(path, code: code)
            }
        }

        /// Closes the file, leaving nothing new under its name.
        func abandon() {
            close(descriptor)
            if let created { unlink(created) }
        }
    }

    /// Refuses `path` as ``write(_:to:inputs:)`` would, writing nothing; for a new
    /// file, also a folder that does not exist or cannot be written. A command that
    /// writes two files checks both first, so a refusal never leaves one of them written.
    static func check(_ path: String, inputs: [String]) throws(Failure) {
        guard try existingTarget(of: path, inputs: inputs) == nil else { return }
        let folder = (path as NSString).deletingLastPathComponent
        if access(folder.isEmpty ? "." : folder, W_OK | X_OK) != 0 { throw failure(path, code: errno) }
    }

    /// What `path` leads to (following a link to a device or FIFO), or nil when
    /// nothing has the name; throws for everything ``write(_:to:inputs:)`` refuses.
    private static func existingTarget(of path: String, inputs: [String]) throws(Failure) -> stat? {
        var link = stat()
        guard lstat(path, &link) == 0 else {
            guard errno == ENOENT else { throw failure(path, code: errno) }
            return nil
        }
        var target = link
        if (link.st_mode & S_IFMT) == S_IFLNK {
            let destination = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
            guard stat(path, &target) == 0 else {
                throw Failure(description: "\(path) is a symbolic link to \(destination), which does not exist; refusing to create a file through it")
            }
            guard (target.st_mode & S_IFMT) == S_IFCHR || (target.st_mode & S_IFMT) == S_IFIFO else {
                throw Failure(description: "\(path) is a symbolic link to \(destination); refusing to replace the file it points to (give that path instead)")
            }
        }
        for input in inputs {
            var status = stat()
            if stat(input, &status) == 0, status.st_dev == target.st_dev, status.st_ino == target.st_ino {
                throw Failure(description: "\(path) is the input \(input); refusing to overwrite it")
            }
        }
        switch target.st_mode & S_IFMT {
        case S_IFREG, S_IFCHR, S_IFIFO: return target
        case S_IFDIR: throw Failure(description: "\(path) is a directory")
        case S_IFBLK: throw Failure(description: "\(path) is a block device; refusing to write over it")
        default: throw Failure(description: "\(path) is not a regular file; refusing to write over it")
        }
    }

    /// True when something (even a dangling symbolic link) has this name.
    static func nameIsTaken(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    /// Writes everything; the errno of a failure, nil when all was written.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
        bytes.withUnsafeBytes { WriteAll.write($0, to: descriptor).failure }
    }

    fileprivate static func failure(_ path: String, code: Int32) -> Failure {
        Failure(description: "cannot write \(path): \(String(cString: strerror(code)))")
    }
}
