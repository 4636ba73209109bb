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
        guard let target = try existingTarget(of: path, inputs: inputs) else { return try createNew(bytes, at: path) }
        if (target.st_mode & S_IFMT) == S_IFREG {
            try replace(at: path, with: bytes)
        } else {
            try writeThrough(bytes, to: path)
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

    /// Creates `path` (never an existing name) holding `bytes`; on failure nothing is left
    /// under the name, and the error names `reported` (the file the user asked for).
    private static func createNew(_ bytes: [UInt8], at path: String, reporting reported: String? = nil) throws(Failure) {
        // O_EXCL | O_NOFOLLOW: whatever appeared under the name since lstat is not written through.
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure(reported ?? path, code: errno) }
        let code = writeAll(bytes, to: descriptor)
        close(descriptor)
        if let code {
            unlink(path)
            throw failure(reported ?? path, code: code)
        }
    }

    private static func replace(at path: String, with bytes: [UInt8]) throws(Failure) {
        let temporary = path + ".rewind-\(getpid())-\(UInt32.random(in: .min ... .max)).tmp"
        try createNew(bytes, at: temporary, reporting: path)
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw failure(path, code: code)
        }
    }

    private static func writeThrough(_ bytes: [UInt8], to path: String) throws(Failure) {
        // O_NONBLOCK: a FIFO without a reader fails with ENXIO instead of waiting forever.
        let descriptor = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENXIO { throw Failure(description: "\(path) is a FIFO that nobody is reading") }
            throw failure(path, code: errno)
        }
        defer { close(descriptor) }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        if let code = writeAll(bytes, to: descriptor) { throw failure(path, code: code) }
    }

    /// Writes everything; the errno of a failure, nil when all was written.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
        bytes.withUnsafeBytes { WriteAll.write($0, to: descriptor).failure }
    }

    private static func failure(_ path: String, code: Int32) -> Failure {
        Failure(description: "cannot write \(path): \(String(cString: strerror(code)))")
    }
}
