import Foundation
import Recorder

/// Writes exports on a background queue, so a big one never blocks the keys,
/// and hands the session progress and the outcome as events.
final class ExportWorker: Sendable {
    private let directory: String
    private let queue = DispatchQueue(label: "rewind.inspector.export", qos: .userInitiated)
    private let inbox = EventInbox()

    init(directory: String = FileManager.default.currentDirectoryPath) {
        self.directory = directory
    }

    func start(_ text: String, suggestedName: String) {
        queue.async { [self] in
            let outcome: InspectorEvent
            do {
                let path = try ExportFile.write(text, suggestedName: suggestedName, directory: directory) { fraction in
                    post(.exportProgress(fraction: fraction))
                }
                outcome = .exportFinished(path: path)
            } catch {
                outcome = .exportFailed(reason: "\(error)")
            }
            post(outcome)
        }
    }

    private func post(_ event: InspectorEvent) { inbox.post(event) }

    /// Events since the last call, in order.
    func takeEvents() -> [InspectorEvent] { inbox.take() }

    /// Blocks until every export started so far is written (tests).
    func waitUntilIdle() { queue.sync {} }
}

/// Why an export could not be written, in words: `cannot create /dir/x.md: Permission denied`.
struct ExportWriteError: Error, Equatable, CustomStringConvertible {
    let description: String
}

/// Writes an export next to where the user started `rewind`, never over an existing file.
enum ExportFile {
    /// Bytes written between progress reports.
    static let chunkBytes = 256 << 10

    static func write(_ text: String, suggestedName: String, directory: String = FileManager.default.currentDirectoryPath,
                      progress: (Double) -> Void = { _ in }) throws(ExportWriteError) -> String {
        let candidate = FreeFileName.path(for: suggestedName, in: directory)
        // O_EXCL: never over a file that appeared meanwhile; errno says in words what went wrong.
        let descriptor = open(candidate, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard descriptor >= 0 else { throw ExportWriteError(description: "cannot create \(candidate): \(String(cString: strerror(errno)))") }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let chunk = written..<min(bytes.count, written + chunkBytes)
            let (count, failure) = bytes.withUnsafeBytes { WriteAll.write(UnsafeRawBufferPointer(rebasing: $0[chunk]), to: descriptor) }
            written += count
            if let failure {
                close(descriptor)
                unlink(candidate)
                throw ExportWriteError(description: "cannot write \(candidate): \(String(cString: strerror(failure)))")
            }
            progress(Double(written) / Double(bytes.count))
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
