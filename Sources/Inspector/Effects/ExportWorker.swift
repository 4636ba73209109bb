import Foundation
import Recorder

/// Writes exports on a background queue, so a big one (the Markdown of a 30 MB diff) never
/// blocks the keys, and hands the session progress and the outcome as events. The file's
/// name is chosen at once, so the screen says where it goes before it is written; Esc
/// cancels (within a chunk's work: nothing is left on disk).
final class ExportWorker: Sendable {
    private let directory: String
    private let queue = DispatchQueue(label: "rewind.inspector.export", qos: .userInitiated)
    private let inbox = EventInbox()
    /// The export that may go on: Esc ends it.
    private let current = CurrentJob()
    private let jobs = JobNumbers()

    init(directory: String = FileManager.default.currentDirectoryPath) {
        self.directory = directory
    }

    /// Writes what `write` writes (on the worker's queue) to a new file named after
    /// `suggestedName` (`-2`, `-3` … when taken); returns the path it is meant to have.
    func start(suggestedName: String, write: @escaping @Sendable (ExportOutput) throws -> Void) -> String {
        let path = FreeFileName.path(for: suggestedName, in: directory)
        let job = jobs.next()
        current.start(job)
        inbox.begin()
        queue.async { [self] in
            defer { inbox.end() }
            let outcome: InspectorEvent
            do {
                let written = try ExportFile.write(suggestedName: (path as NSString).lastPathComponent, directory: directory,
                                                   isCancelled: { [current] in !current.isCurrent(job) },
                                                   progress: { [self] fraction in post(.exportProgress(fraction: fraction)) },
                                                   write)
                outcome = .exportFinished(path: written)
            } catch let error as ExportWriteError where error == .cancelled {
                outcome = .exportCancelled
            } catch {
                outcome = .exportFailed(reason: "\(error)")
            }
            post(outcome)
        }
        return path
    }

    /// Esc: the export running stops (between chunks), its file removed.
    func cancel() { current.end() }

    private func post(_ event: InspectorEvent) { inbox.post(event) }

    /// True when nothing is queued, running, or waiting to be taken.
    var isIdle: Bool { inbox.isIdle }

    /// Events since the last call, in order.
    func takeEvents() -> [InspectorEvent] { inbox.take() }

    /// Blocks until every export started so far is written (tests).
    func waitUntilIdle() { queue.sync {} }
}

/// Why an export could not be written, in words: `cannot create /dir/x.md: Permission denied`.
struct ExportWriteError: Error, Equatable, CustomStringConvertible {
    let description: String

    /// The user cancelled the export (Esc): the file was removed.
    static let cancelled = ExportWriteError(description: "cancelled")
}

/// Writes an export next to where the user started `rewind`, never over an existing file,
/// and only whole: the text goes to a hidden file beside it, which takes the name once
/// complete, so a cancelled or failed export leaves nothing under the name.
enum ExportFile {
    /// Writes `text` (what the benchmarks and tests hand over whole).
    static func write(_ text: String, suggestedName: String, directory: String = FileManager.default.currentDirectoryPath,
                      isCancelled: @escaping () -> Bool = { false }, progress: @escaping (Double) -> Void = { _ in }) throws -> String {
        try write(suggestedName: suggestedName, directory: directory, isCancelled: isCancelled, progress: progress) { try $0.write(text) }
    }

    /// Writes what `write` writes to `output`; returns the file's path: `suggestedName` in
    /// `directory`, or the first of `name-2.md`, `name-3.md` … that is free once it is complete.
    /// Throws what `write` throws, ``ExportWriteError/cancelled`` once `isCancelled`, or an
    /// ``ExportWriteError`` saying in words what could not be written.
    static func write(suggestedName: String, directory: String = FileManager.default.currentDirectoryPath,
                      isCancelled: @escaping () -> Bool = { false }, progress: @escaping (Double) -> Void = { _ in },
                      _ write: (ExportOutput) throws -> Void) throws -> String {
        let shown = FreeFileName.path(for: suggestedName, in: directory)
        let (descriptor, temporary) = try createHiddenFile(beside: shown)
        do {
            let output = ExportOutput(descriptor: descriptor, shownPath: shown, directory: directory, isCancelled: isCancelled,
                                      progress: progress)
            try write(output)
            try output.finish()
            guard close(descriptor) == 0 else { throw ExportWriteError(description: "cannot write \(shown): \(String(cString: strerror(errno)))") }
        } catch {
            close(descriptor)
            unlink(temporary)
            throw error
        }
        return try giveName(to: temporary, suggestedName: suggestedName, directory: directory)
    }

    /// A new hidden file in `path`'s folder (`.name.md.rewind-PID-N.tmp`), its descriptor and path.
    private static func createHiddenFile(beside path: String) throws(ExportWriteError) -> (Int32, String) {
        let folder = (path as NSString).deletingLastPathComponent
        let name = "." + (path as NSString).lastPathComponent + ".rewind-\(getpid())-"
        while true {
            let temporary = (folder as NSString).appendingPathComponent(name + "\(UInt32.random(in: .min ... .max)).tmp")
            // O_EXCL: never through a file or link that has the name; errno says in words what went wrong.
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if descriptor >= 0 { return (descriptor, temporary) }
            guard errno == EEXIST else { throw ExportWriteError(description: "cannot create \(path): \(String(cString: strerror(errno)))") }
        }
    }

    /// Puts the complete file under the first free name: a hard link, which fails rather than
    /// replace a file that took the name meanwhile; where the file system has no hard links, a rename.
    private static func giveName(to temporary: String, suggestedName: String, directory: String) throws(ExportWriteError) -> String {
        while true {
            let candidate = FreeFileName.path(for: suggestedName, in: directory)
            if link(temporary, candidate) == 0 {
                unlink(temporary)
                return candidate
            }
            let code = errno
            if code == EEXIST { continue }
            if [EPERM, ENOTSUP, EOPNOTSUPP, EMLINK, ENOSYS].contains(code), !OutputFile.nameIsTaken(candidate),
               rename(temporary, candidate) == 0 {
                return candidate
            }
            unlink(temporary)
            throw ExportWriteError(description: "cannot write \(candidate): \(String(cString: strerror(code)))")
        }
    }
}

/// A name in a directory that no file (or link) has yet: `todo-diff-1-2.md`, then `todo-diff-1-2-2.md`, …
enum FreeFileName {
    static func path(for suggestedName: String, in directory: String) -> String {
        let base = (suggestedName as NSString).deletingPathExtension
        let ext = (suggestedName as NSString).pathExtension
        var candidate = (directory as NSString).appendingPathComponent(suggestedName)
        var attempt = 2
        while OutputFile.nameIsTaken(candidate) {
            candidate = (directory as NSString).appendingPathComponent("\(base)-\(attempt).\(ext)")
            attempt += 1
        }
        return candidate
    }
}
