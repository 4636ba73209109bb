import Foundation

/// A `rewind` command run for a tool call as a child process of the server, so the tool
/// answers exactly what the command line answers, and work can be stopped: once the part of
/// the output a result can hold has been read, or when the client cancels the call, the
/// command is ended instead of running on through a gigabyte it no longer needs to print.
final class ChildCommand: @unchecked Sendable {
    struct Outcome {
        /// The command's exit status; nil when the server ended it (its output went past the
        /// window, or the call was cancelled).
        var status: Int32?
        /// Standard output from `skipping` on, at most `keeping` bytes and one more (which says more follows).
        var output: [UInt8]
        /// Bytes of standard output before the window that were read and dropped.
        var skipped: Int
        /// True when standard output ended inside (or before the end of) the window.
        var outputEnded: Bool
        /// Standard error, its first 64 kB: the command's one-line errors and notes.
        var errorText: String
        var cancelled: Bool
    }

    private let executable: String
    private let arguments: [String]
    private let lock = NSLock()
    private var process: Process?
    private var cancelled = false

    init(executable: String, arguments: [String]) {
        self.executable = executable
        self.arguments = arguments
    }

    /// Runs the command to its end, or until `keeping + 1` bytes past the first `skipping`
    /// of its standard output have been read (then it is ended: the result cannot hold more).
    func run(skipping: Int = 0, keeping: Int) -> Outcome {
        var outcome = Outcome(status: nil, output: [], skipped: 0, outputEnded: false, errorText: "", cancelled: false)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        let started: Bool = lock.withLock {
            guard !cancelled else { return false }
            do { try process.run() } catch { return false }
            self.process = process
            return true
        }
        guard started else {
            outcome.cancelled = lock.withLock { cancelled }
            outcome.errorText = outcome.cancelled ? "" : "cannot run \(executable)"
            return outcome
        }
        // Ours only after the launch: the child has its own copies.
        try? output.fileHandleForWriting.close()
        try? errors.fileHandleForWriting.close()
        let outputDescriptor = output.fileHandleForReading.fileDescriptor
        let errorDescriptor = errors.fileHandleForReading.fileDescriptor
        var errorBytes: [UInt8] = []
        var open = (output: true, error: true)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var stopped = false
        while open.output || open.error {
            var descriptors = [pollfd]()
            if open.output { descriptors.append(pollfd(fd: outputDescriptor, events: Int16(POLLIN), revents: 0)) }
            if open.error { descriptors.append(pollfd(fd: errorDescriptor, events: Int16(POLLIN), revents: 0)) }
            if poll(&descriptors, nfds_t(descriptors.count), -1) < 0 {
                if errno == EINTR { continue }
                break
            }
            for descriptor in descriptors where descriptor.revents != 0 {
                let count = chunk.withUnsafeMutableBytes { read(descriptor.fd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                let isOutput = descriptor.fd == outputDescriptor
                guard count > 0 else {
                    if isOutput { open.output = false } else { open.error = false }
                    continue
                }
                if isOutput {
                    var bytes = chunk[0..<count]
                    let drop = min(bytes.count, skipping - outcome.skipped)
                    outcome.skipped += drop
                    bytes = bytes.dropFirst(drop)
                    outcome.output += bytes.prefix(keeping + 1 - outcome.output.count)
                    if outcome.output.count > keeping {
                        // The result cannot hold more: no need to let the command finish.
                        stopped = true
                        open = (false, false)
                    }
                } else if errorBytes.count < 1 << 16 {
                    errorBytes += chunk[0..<min(count, (1 << 16) - errorBytes.count)]
                }
            }
        }
        if stopped { Self.end(process) }
        process.waitUntilExit()
        lock.withLock { self.process = nil }
        outcome.cancelled = lock.withLock { cancelled }
        outcome.outputEnded = !stopped
        if !stopped && !outcome.cancelled && process.terminationReason == .exit {
            outcome.status = process.terminationStatus
        }
        outcome.errorText = String(decoding: errorBytes, as: UTF8.self)
        return outcome
    }

    /// Ends the command (the client cancelled the call); `run` returns with `cancelled` set.
    func cancel() {
        lock.withLock {
            cancelled = true
            if let process { Self.end(process) }
        }
    }

    /// SIGKILL, not `terminate()`'s SIGTERM: a child inherits ignored and blocked signals from
    /// whoever started the server (a test runner, an agent), and a command only reads.
    private static func end(_ process: Process) {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// The executable running now: a tool's command runs the same program (`rewind`, or a
    /// debug executable with its reducer linked, whose `bisect` checks its invariants).
    static var currentExecutable: String {
        Bundle.main.executablePath ?? CommandLine.arguments[0]
    }
}
