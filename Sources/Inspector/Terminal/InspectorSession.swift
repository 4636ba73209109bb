import Foundation
import Recorder

/// Runs the inspector: draw, wait for an event (or a tick, so indexing
/// progress and follow mode show up), reduce, do the effects, repeat.
enum InspectorSession {
    static let tickMilliseconds = 100

    /// Runs until the user quits. Returns the exit status. `hideListLog` keys the log's own
    /// hide-list (HiddenActionTypes), kept under `hideListDirectory` with the project's.
    static func run(source: any TimelineSource, terminal: inout some TerminalDevice,
                    hiddenActionTypes: [String]? = nil, hideListLog: String? = nil,
                    hideListDirectory: String = FileManager.default.currentDirectoryPath) -> Int32 {
        let hiddenActionTypes = hiddenActionTypes ?? HiddenActionTypes.load(directory: hideListDirectory)
        var model = InspectorModel(source: source, size: terminal.size)
        model.hiddenActionTypes = Set(hiddenActionTypes)
        model.hideListLog = hideListLog
        model.logHiddenActionTypes = Set(hideListLog.map { HiddenActionTypes.load(forLog: $0, directory: hideListDirectory) } ?? [])
        if !model.hiddenActionTypes.isEmpty || !model.logHiddenActionTypes.isEmpty { model.applyFilter(shown: nil) }
        return run(model: &model, terminal: &terminal, hideListDirectory: hideListDirectory)
    }

    /// Runs `model` until the user quits (tests set up the model first).
    static func run(model: inout InspectorModel, terminal: inout some TerminalDevice, exports: ExportWorker = ExportWorker(),
                    hideListDirectory: String = FileManager.default.currentDirectoryPath) -> Int32 {
        var shown: ScreenBuffer?
        while true {
            // What the background export did since the last turn.
            for event in exports.takeEvents() { reduce(&model, event) }
            let screen = render(model, size: model.size)
            if screen != shown {
                terminal.draw(screen)
                shown = screen
            }
            // A scan in progress takes its next slice as soon as no key is waiting.
            let event = terminal.nextEvent(timeoutMilliseconds: model.hasPendingScan ? 0 : tickMilliseconds) ?? .tick
            for effect in reduce(&model, event) {
                switch effect {
                case .quit:
                    terminal.stop()
                    return 0
                case .exportDiff(let markdown, let suggestedName):
                    exports.start(markdown, suggestedName: suggestedName)
                case .copyToClipboard(let text):
                    terminal.copyToClipboard(text)
                case .saveHiddenActionTypes(let types):
                    do {
                        try HiddenActionTypes.save(types, directory: hideListDirectory)
                    } catch {
                        reduce(&model, .exportFailed(reason: "\(error)"))
                    }
                case .saveLogHiddenActionTypes(let log, let types):
                    do {
                        try HiddenActionTypes.save(types, forLog: log, directory: hideListDirectory)
                    } catch {
                        reduce(&model, .exportFailed(reason: "\(error)"))
                    }
                case .redraw:
                    terminal.redrawAll()
                    shown = nil
                }
            }
        }
    }
}

/// Writes exports on a background queue, so a big one never blocks the keys,
/// and hands the session progress and the outcome as events.
final class ExportWorker: @unchecked Sendable {
    private let directory: String
    private let queue = DispatchQueue(label: "rewind.inspector.export", qos: .userInitiated)
    /// Guards `events`.
    private let lock = NSLock()
    private var events: [InspectorEvent] = []

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

    private func post(_ event: InspectorEvent) { lock.withLock { events.append(event) } }

    /// Events since the last call, in order.
    func takeEvents() -> [InspectorEvent] {
        lock.withLock {
            defer { events = [] }
            return events
        }
    }

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
        let base = (suggestedName as NSString).deletingPathExtension
        let ext = (suggestedName as NSString).pathExtension
        var candidate = (directory as NSString).appendingPathComponent(suggestedName)
        var attempt = 2
        while OutputFile.nameIsTaken(candidate) {
            candidate = (directory as NSString).appendingPathComponent("\(base)-\(attempt).\(ext)")
            attempt += 1
        }
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
