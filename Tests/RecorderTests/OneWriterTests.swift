import Foundation
import Testing
@testable import Recorder
import RewindJSON

/// Issue 15, points 1, 2 and 4: one recorder per log, a log changed under its
/// recorder, and files that are not regular files.
@Suite struct OneWriterTests {
    let directory = TemporaryDirectory()

    // MARK: 1. One writer per log

    @Test func aSecondRecorderInThisProcessFailsAtOnceAndTheFirstKeepsRecording() throws {
        let path = directory.file("app.jsonl")
        let first = try ActionRecorder(file: path, options: testOptions(keyframeInterval: 4))
        let reducer = first.recording(todoReducer)
        var state = TodoState()
        let actions = randomTodoActions(count: 20, seed: 31)
        var states: [TodoState] = []
        for action in actions.prefix(10) { reducer(&state, action); states.append(state) }
        try first.flush()

        let refused = #expect(throws: RecorderError.self) { try ActionRecorder(file: path, options: testOptions()) }
        #expect(refused?.path == path)
        #expect(refused?.description == "\(path): is already being recorded by another ActionRecorder in this process; a log has one writer at a time")
        #expect(refused?.kind == .alreadyRecording)
        // Readers are never blocked by the writer's lock.
        #expect(try LogReader(path: path).entryCount == 10)

        for action in actions.suffix(10) { reducer(&state, action); states.append(state) }
        try first.close()
        let reader = try LogReader(path: path)
        #expect(reader.entryCount == 20)
        #expect(reader.damage.isEmpty)
        for index in 0..<20 { #expect(try reader.state(at: index) == (try JSONEncoding.value(of: states[index]))) }

        // Once closed, the log can be recorded into again (a new session).
        try recordTodos(Array(actions.prefix(2)), to: path)
        #expect(try LogReader(path: path).entryCount == 22)
    }

    @Test func aRecorderInAnotherProcessHoldsTheLogUntilItCloses() throws {
        let path = directory.file("shared.jsonl")
        let child = try HoldingProcess(log: path)
        let refused = #expect(throws: RecorderError.self) { try ActionRecorder(file: path, options: testOptions()) }
        #expect(refused?.description == "\(path): is already being recorded by another recorder (process \(child.pid)); a log has one writer at a time")
        #expect(try LogReader(path: path).entryCount == 1, "the reader is not blocked")
        #expect(child.finish() == 0, "the other process kept recording and closed cleanly")

        try recordTodos(randomTodoActions(count: 3, seed: 32), to: path)
        let reader = try LogReader(path: path)
        #expect(reader.entryCount == 4)
        #expect(reader.damage.isEmpty)
    }

    // MARK: 2. The file changed under the recorder: recording stops with an error

    @Test func aLogTruncatedInPlaceStopsRecordingAndGetsNoHeaderlessRecords() throws {
        let path = directory.file("cut.jsonl")
        let errors = Locked<[RecorderError]>([])
        var options = testOptions()
        options.onError = { error in errors.withLock { $0.append(error) } }
        let recorder = try ActionRecorder(file: path, options: options)
        let reducer = recorder.recording(todoReducer)
        var state = TodoState()
        for action in randomTodoActions(count: 5, seed: 33) { reducer(&state, action) }
        try recorder.flush()
        #expect(truncate(path, 0) == 0)   // `: > cut.jsonl`, or logrotate's copytruncate
        for action in randomTodoActions(count: 5, seed: 34) { reducer(&state, action) }
        let flushed = try #require(throws: RecorderError.self) { try recorder.flush() }
        #expect(flushed.description.hasPrefix(path + ": the log file was truncated while recording"))
        #expect(flushed.kind == .logChanged)
        let closed = #expect(throws: RecorderError.self) { try recorder.close() }
        #expect(closed == flushed)
        #expect(errors.withLock { $0 } == [flushed])
        #expect(fileBytes(path).isEmpty, "no patch records without a header")
    }

    @Test func aLogRotatedAwayStopsRecordingAndTheNewFileIsLeftAlone() throws {
        let path = directory.file("live.jsonl")
        let recorder = try ActionRecorder(file: path, options: testOptions())
        let reducer = recorder.recording(todoReducer)
        var state = TodoState()
        for action in randomTodoActions(count: 4, seed: 35) { reducer(&state, action) }
        try recorder.flush()
        #expect(rename(path, path + ".1") == 0)
        writeBytes(Array("someone else's file\n".utf8), to: path)
        reducer(&state, .add(title: "after rotation"))
        let error = #expect(throws: RecorderError.self) { try recorder.flush() }
        #expect(error?.description == "\(path): the log file was renamed or replaced while recording (rotated?); recording stopped")
        #expect(throws: RecorderError.self) { try recorder.close() }
        #expect(fileBytes(path) == Array("someone else's file\n".utf8))
        let rotated = try LogReader(path: path + ".1")
        #expect(rotated.entryCount == 4)
        #expect(rotated.damage.isEmpty && rotated.tornTail == nil)
    }

    @Test func anotherWriterAppendingToTheLogStopsRecording() throws {
        let path = directory.file("shared-append.jsonl")
        let recorder = try ActionRecorder(file: path, options: testOptions())
        let reducer = recorder.recording(todoReducer)
        var state = TodoState()
        reducer(&state, .add(title: "a"))
        try recorder.flush()
        append(Array("{\"kind\":\"entry\"}\n".utf8), to: path)
        reducer(&state, .add(title: "b"))
        let error = #expect(throws: RecorderError.self) { try recorder.close() }
        #expect(error?.description == "\(path): something else wrote to the log file while recording; recording stopped")
    }

    // MARK: 4. Non-regular files

    @Test func aFIFOIsRefusedAtOnceInsteadOfHangingLater() throws {
        let path = directory.file("pipe.jsonl")
        #expect(mkfifo(path, 0o600) == 0)
        let error = #expect(throws: RecorderError.self) { try ActionRecorder(file: path) }
        #expect(error?.description == "\(path): is a FIFO (named pipe); Rewind records into regular files")
        #expect(error?.kind == .notAFile)
    }

    /// Nothing can be read back from /dev/null: what is checked is that neither
    /// recorder is refused or reports an error (no lock, no "changed under us").
    @Test func recordingIntoADeviceFromTwoRecordersDoesNotFail() throws {
        let errors = Locked<[RecorderError]>([])
        var options = testOptions()
        options.onError = { error in errors.withLock { $0.append(error) } }
        let recorder = try ActionRecorder(file: "/dev/null", options: options)
        let second = try ActionRecorder(file: "/dev/null", options: options)   // devices are not locked
        var state = TodoState()
        recorder.recording(todoReducer)(&state, .add(title: "a"))
        second.recording(todoReducer)(&state, .add(title: "b"))
        try recorder.flush()
        try recorder.close()
        try second.close()
        #expect(errors.withLock { $0.isEmpty })
    }
}

/// `rewind-crash-test hold LOG` in a child process: a recorder in another
/// process, recording into `log` until ``finish()`` closes its stdin.
final class HoldingProcess {
    let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    var pid: Int32 { process.processIdentifier }

    init(log: String) throws {
        process.executableURL = URL(fileURLWithPath: try Self.tool("rewind-crash-test"))
        process.arguments = ["hold", log]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        // Blocks until the child has its recorder open and one entry written.
        var line = [UInt8](repeating: 0, count: 10)
        var count = 0
        while count < line.count {
            let result = line.withUnsafeMutableBytes { read(output.fileHandleForReading.fileDescriptor, $0.baseAddress! + count, $0.count - count) }
            if result > 0 { count += result } else if result < 0 && errno == EINTR { continue } else { break }
        }
        guard String(decoding: line[..<count], as: UTF8.self) == "recording\n" else {
            process.terminate()
            throw HelperProcessError(description: "\(log): the holding process did not start: \(String(decoding: line[..<count], as: UTF8.self))")
        }
    }

    /// Lets the child close its recorder and exit; returns its status.
    func finish() -> Int32 {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { _ = finish() }
    }

    /// An executable of this package, built beside the test bundle (`swift build` builds it).
    static func tool(_ name: String) throws -> String {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name).path,
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent(name).path,
            Bundle.main.bundleURL.appendingPathComponent(name).path,
        ]
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw HelperProcessError(description: "\(candidates[0]): not built; run `swift build` before the tests")
        }
        return found
    }
}

/// Why a helper process of these tests could not run (not an error of Rewind's).
struct HelperProcessError: Error, CustomStringConvertible {
    var description: String
}
