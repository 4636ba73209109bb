import Foundation
import Testing
@testable import Recorder
import RewindJSON

/// A real small file system (a 64 KB tmpfs, mounted for the test) filling up
/// or turning read-only under a recorder. Needs a machine that lets the tests
/// mount one (root, as CI has); elsewhere the suite is reported as skipped, with why.
@Suite(.serialized, .enabled(if: SmallFileSystem.canMount, "mounting a tmpfs needs root (and a system that allows it)"))
struct FileSystemFaultTests {
    /// Mounts a tmpfs of `size` at a fresh directory for the body, then unmounts it.
    static func withSmallFileSystem(size: String = "64k", _ body: (String) throws -> Void) throws {
        let directory = TemporaryDirectory()
        let mountPoint = directory.file("fs")
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        // The suite runs only where the probe mounted one: failing now is a failure, not a skip.
        try #require(run("/bin/mount", "-t", "tmpfs", "-o", "size=\(size)", "tmpfs", mountPoint), "mounting a tmpfs at \(mountPoint)")
        defer { _ = run("/bin/umount", "-l", mountPoint) }
        try body(mountPoint)
    }

    @discardableResult
    static func run(_ tool: String, _ arguments: String...) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    @Test func aFullDiskStopsRecordingOnceAndKeepsWhatWasWritten() throws {
        try Self.withSmallFileSystem { mountPoint in
            let errors = Locked<[RecorderError]>([])
            var options = testOptions(keyframeInterval: 8)
            options.onError = { error in errors.withLock { $0.append(error) } }
            let recorder = try ActionRecorder(file: mountPoint + "/app.jsonl", options: options)
            let reducer = recorder.recording(todoReducer)
            var state = TodoState()
            // Far more than 64 KB of log; the app keeps running after the disk fills.
            let actions = randomTodoActions(count: 3000, seed: 11)
            // The app was never blocked for good: this loop ends (a recorder that waited on
            // the full disk would hang it here, which the CI run's time limit reports).
            for (index, action) in actions.enumerated() {
                reducer(&state, action)
                if index % 100 == 0 { try? recorder.flush() }  // throws once the disk is full
            }
            let error = #expect(throws: RecorderError.self) { try recorder.close() }
            #expect(error?.code == ENOSPC)
            #expect(errors.withLock { $0.count } == 1, "reported once")

            // What reached the disk reads back; entries match the states the reducer produced.
            let reader = try LogReader(path: mountPoint + "/app.jsonl")
            #expect(reader.entryCount > 10)
            #expect(reader.entryCount < actions.count)
            #expect(reader.damage.isEmpty)
            var replayed = TodoState()
            for index in 0..<reader.entryCount {
                todoReducer(&replayed, actions[index])
            }
            #expect(try reader.state(at: reader.entryCount - 1) == (try JSONEncoding.value(of: replayed)))
        }
    }

    /// Linux refuses to remount a file system read-only while a file on it is
    /// open for writing, and permissions are checked at open: a log made
    /// read-only while recording keeps being written through the open file,
    /// and nothing is lost.
    @Test func aLogMadeReadOnlyWhileRecordingLosesNothing() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("app.jsonl")
        let errors = Locked(0)
        var options = testOptions()
        options.onError = { _ in errors.withLock { $0 += 1 } }
        let recorder = try ActionRecorder(file: path, options: options)
        let reducer = recorder.recording(todoReducer)
        var state = TodoState()
        let actions = randomTodoActions(count: 40, seed: 12)
        for action in actions.prefix(20) { reducer(&state, action) }
        try recorder.flush()
        #expect(chmod(path, 0o400) == 0)
        for action in actions.suffix(20) { reducer(&state, action) }
        try recorder.close()
        #expect(errors.withLock { $0 } == 0)
        let reader = try LogReader(path: path)
        #expect(reader.entryCount == 40)
        #expect(try reader.state(at: 39) == (try JSONEncoding.value(of: state)))
    }
}

/// Whether these tests can mount a file system of their own: tried once, on a directory of its own.
enum SmallFileSystem {
    static let canMount: Bool = {
        guard getuid() == 0 else { return false }
        let directory = TemporaryDirectory()
        let mountPoint = directory.file("probe")
        guard (try? FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)) != nil,
              FileSystemFaultTests.run("/bin/mount", "-t", "tmpfs", "-o", "size=4k", "tmpfs", mountPoint) else { return false }
        FileSystemFaultTests.run("/bin/umount", "-l", mountPoint)
        return true
    }()
}
