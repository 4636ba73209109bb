import Foundation
import Recorder

/// Builds and writes exports on a background queue, so a big one (the Markdown of a
/// 30 MB diff) never blocks the keys, and hands the session progress and the outcome
/// as events. The file's name is chosen at once, so the screen says where it goes
/// before it is written; Esc cancels (a file half written is removed).
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

    /// Builds the text with `build` (on the worker's queue) and writes it to a new file named
    /// after `suggestedName` (`-2`, `-3` … when taken); returns the path it is meant to have.
    func start(suggestedName: String, build: @escaping @Sendable () throws -> String) -> String {
        let path = FreeFileName.path(for: suggestedName, in: directory)
        let job = jobs.next()
        current.start(job)
        inbox.begin()
        queue.async { [self] in
            defer { inbox.end() }
            let isCancelled = { [current] in !current.isCurrent(job) }
            let outcome: InspectorEvent
            do {
                let text = try build()
                guard !isCancelled() else { return post(.exportCancelled) }
                post(.exportProgress(fraction: 0))
                let written = try ExportFile.write(text, suggestedName: (path as NSString).lastPathComponent, directory: directory,
                                                   isCancelled: isCancelled) { [self] fraction in
                    post(.exportProgress(fraction: fraction))
                }
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

/// Writes an export next to where the user started `rewind`, never over an existing file.
enum ExportFile {
    /// Bytes written between progress reports.
    static let chunkBytes = 256 << 10

    static func write(_ text: String, suggestedName: String, directory: String = FileManager.default.currentDirectoryPath,
                      isCancelled: () -> Bool = { false }, progress: (Double) -> Void = { _ in }) throws(ExportWriteError) -> String {
        let candidate = FreeFileName.path(for: suggestedName, in: directory)
        // O_EXCL: never over a file that appeared meanwhile; errno says in words what went wrong.
        let descriptor = open(candidate, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard descriptor >= 0 else { throw ExportWriteError(description: "cannot create \(candidate): \(String(cString: strerror(errno)))") }
        // Written from the string's own bytes: a report of a 30 MB diff is not copied first.
        var text = text
        let failed: ExportWriteError? = text.withUTF8 { bytes in
            var written = 0
            while written < bytes.count {
                if isCancelled() { return .cancelled }
                let chunk = written..<min(bytes.count, written + chunkBytes)
                let (count, failure) = WriteAll.write(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[chunk])), to: descriptor)
                written += count
                if let failure { return ExportWriteError(description: "cannot write \(candidate): \(String(cString: strerror(failure)))") }
                progress(Double(written) / Double(bytes.count))
            }
            return nil
        }
        if let failed {
            close(descriptor)
            unlink(candidate)
            throw failed
        }
        guard close(descriptor) == 0 else { throw ExportWriteError(description: "cannot write \(candidate): \(String(cString: strerror(errno)))") }
        return candidate
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
