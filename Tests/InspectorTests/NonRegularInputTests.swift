import Foundation
import Recorder
import RewindJSON
import Testing
@testable import Inspector

/// A log is a regular file. A FIFO or a device given as one is refused at once
/// with one line that says what it is, never waited on or read without end.
@Suite struct NonRegularInputTests {
    let directory = TemporaryDirectory()

    /// The log commands, with `FILE` standing for the input.
    static let logCommands: [[String]] = [
        ["FILE"], ["show", "FILE"], ["log", "FILE"], ["stats", "FILE"], ["find", "FILE", "exists /todos"],
        ["export", "FILE", "--format", "patch"], ["testgen", "FILE"],
    ]

    /// Runs `work` on a background thread. Past `deadline` (a ceiling for a loaded
    /// two-core machine: a passing run never waits it out) the test fails and
    /// `unblock` runs (closing a FIFO's writer, which ends a read stuck on it),
    /// so code that waits on its input cannot hang the suite.
    func finishing<Value: Sendable>(within deadline: TimeInterval = 60, unblock: () -> Void = {},
                                    _ work: @escaping @Sendable () -> Value) -> Value? {
        let result = Locked<Value?>(nil)
        let finished = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let value = work()
            result.withLock { $0 = value }
            finished.signal()
        }
        if finished.wait(timeout: .now() + deadline) == .timedOut {
            Issue.record("still running after \(Int(deadline)) s")
            unblock()
            _ = finished.wait(timeout: .now() + deadline)
        }
        return result.withLock { $0 }
    }

    func run(_ arguments: [String], unblock: () -> Void = {}) -> (status: Int32, output: String, error: String) {
        let result = finishing(unblock: unblock) {
            var streams = CapturedStreams()
            let status = RewindCommandLine.run(arguments, streams: &streams)
            return Outcome(status: status, output: streams.standardOutput, error: streams.standardError)
        }
        return (result?.status ?? -1, result?.output ?? "", result?.error ?? "")
    }

    struct Outcome: Sendable {
        var status: Int32
        var output: String
        var error: String
    }

    @Test(arguments: logCommands)
    func aFIFOIsRefusedWithoutWaitingForAWriter(command: [String]) throws {
        let fifo = directory.file("pipe.jsonl")
        #expect(mkfifo(fifo, 0o600) == 0)
        // Held open by the test: a command that opened the FIFO the old way would
        // not block in open(2) and, past the deadline, closing these ends any read.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        var writer = open(fifo, O_WRONLY | O_NONBLOCK)
        #expect(reader >= 0 && writer >= 0)
        defer {
            close(reader)
            if writer >= 0 { close(writer) }
        }

        let result = run(command.map { $0 == "FILE" ? fifo : $0 }) {
            close(writer)
            writer = -1
        }
        let shown = "rewind " + command.joined(separator: " ")
        #expect(result.status == 2, "\(shown): exit status")
        #expect(result.output.isEmpty, "\(shown): printed \(result.output.prefix(200))")
        // `rewind: …` or `rewind export: …`, as each command reports a log it cannot open.
        #expect(result.error.hasPrefix("rewind") && result.error.hasSuffix(": \(fifo): is a FIFO, not a log file\n"), "\(shown): \(result.error)")
        #expect(result.error.split(separator: "\n").count == 1, "\(shown): one line")
    }

    @Test func aDeviceIsNotAnEmptyLog() {
        let result = run(["show", "/dev/zero"])
        #expect(result.status == 2)
        #expect(result.error == "rewind: /dev/zero: is a character device, not a log file\n")
    }

    @Test func importRefusesADevice() {
        // /dev/null ends at once; /dev/zero, refused the same way, never would.
        let result = run(["import", "/dev/null", "-o", directory.file("out.jsonl")])
        #expect(result.status == 2)
        #expect(result.error == "rewind import: cannot read /dev/null: it is a character device, not an exported file\n")
        #expect(!FileManager.default.fileExists(atPath: directory.file("out.jsonl")))
    }

    @Test func importStopsReadingAtItsLimit() throws {
        let limit = 1024
        let tooLong = Array(repeating: UInt8(ascii: " "), count: limit + 1)
        func tooLarge(_ path: String) -> String {
            "cannot read \(path): it is larger than 1024 bytes, more than a Redux DevTools export holds"
        }

        let file = directory.file("export.json")
        writeBytes(tooLong, to: file)
        let fromFile = ImportCommand.readInput(file, maximumBytes: limit)
        #expect(fromFile.failureDescription == tooLarge(file))

        // A pipe (how standard input reaches `import /dev/stdin`) fed by a writer that
        // does not stop: read up to the limit, then refused, not read to an end that never comes.
        let fifo = directory.file("export.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        var writer = open(fifo, O_WRONLY | O_NONBLOCK)
        #expect(reader >= 0 && writer >= 0)
        defer {
            close(reader)
            if writer >= 0 { close(writer) }
        }
        #expect(tooLong.withUnsafeBytes { write(writer, $0.baseAddress!, $0.count) } == tooLong.count)
        let fromPipe = finishing(unblock: {
            close(writer)
            writer = -1
        }) {
            ImportCommand.readInput(fifo, maximumBytes: limit).failureDescription
        }
        #expect(fromPipe == tooLarge(fifo))
    }
}

private extension Result where Failure == UsageError {
    var failureDescription: String? {
        if case .failure(let error) = self { return error.description }
        return nil
    }
}
