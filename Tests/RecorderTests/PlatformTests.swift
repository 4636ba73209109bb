import Foundation
import Testing
@testable import Recorder
import RewindTestSupport
import SampleDomains

/// What differs between platforms (`Platform`), as far as it shows on this one,
/// and the two ways to record where a working directory means nothing: by name,
/// and not at all (`ActionRecorder.disabled`, for release builds).
@Suite struct PlatformTests {
    let directory = TemporaryDirectory()

    @Test func aRecordingByNameGoesToTheRecordingsDirectoryWhichIsCreated() throws {
        let recordings = directory.file("deep/recordings")
        let recorder = try ActionRecorder(named: "checkout", options: testOptions(), environment: ["REWIND_RECORDINGS": recordings])
        var state = TodoState()
        recorder.recording(todoReducer)(&state, .add(title: "milk"))
        try recorder.close()
        #expect(recorder.path == recordings + "/checkout.jsonl")
        #expect(try LogReader(path: recorder.path).entryCount == 1)
    }

    @Test func aNameEndingInJsonlIsNotGivenASecondExtension() throws {
        let recorder = try ActionRecorder(named: "cart.jsonl", options: testOptions(), environment: ["REWIND_RECORDINGS": directory.path])
        try recorder.close()
        #expect(recorder.path == directory.file("cart.jsonl"))
    }

    @Test func theRecordingsDirectoryIsTheEnvironmentsOrTheWorkingDirectoryHere() {
        #expect(Platform.recordingsDirectory(environment: ["REWIND_RECORDINGS": "/tmp/r"]) == "/tmp/r")
        #if os(Linux)
        #expect(Platform.recordingsDirectory(environment: [:]) == FileManager.default.currentDirectoryPath)
        // Relative paths stay relative on Linux: opened against the working directory, as the shell would.
        #expect(Platform.recordingPath("logs/a.jsonl", environment: [:]) == "logs/a.jsonl")
        #endif
        #expect(Platform.recordingPath("/abs/a.jsonl") == "/abs/a.jsonl")
    }

    @Test func negativeDeviceNumbersAsDarwinHasThemDoNotTrap() {
        // Darwin's dev_t is Int32; UInt64(_:) of a negative one traps.
        let device: Int32 = -16_777_214
        #expect(Platform.fileNumber(device) == UInt64(bitPattern: Int64(device)))
        #expect(Platform.fileNumber(device) != Platform.fileNumber(Int32(16_777_214)))
        #expect(Platform.fileNumber(UInt64.max) == UInt64.max)
    }

    @Test func synchronizingToDiskSucceedsOnARegularFile() throws {
        let path = directory.file("synced")
        _ = FileManager.default.createFile(atPath: path, contents: Data("x".utf8))
        let descriptor = open(path, O_RDWR)
        defer { close(descriptor) }
        #expect(Platform.synchronizeToDisk(descriptor) == 0)
        #expect(Platform.synchronizeToDisk(-1) == -1)
    }

    @Test func threadsStartWithTheStackTheDeepestValueNeeds() async {
        let ran = Locked(0)
        let done = DispatchSemaphore(value: 0)
        Platform.startThread(named: "rewind-test") {
            ran.withLock { $0 = Thread.current.stackSize }
            done.signal()
        }
        done.wait()
        #expect(ran.withLock { $0 } >= Platform.threadStackSize)
    }
}

@Suite struct DisabledRecorderTests {
    @Test func theDisabledRecorderReturnsTheReducerAndRecordsNothing() throws {
        let recorder = ActionRecorder.disabled
        let reducer = recorder.recording(todoReducer)
        var state = TodoState(), expected = TodoState()
        for action in randomTodoActions(count: 50, seed: 9) {
            reducer(&state, action)
            todoReducer(&expected, action)
        }
        #expect(state == expected)
        #expect(recorder.record(TodoAction.add(title: "x"), state: state) == nil)
        try recorder.flush()
        try recorder.close()
        try recorder.close()
        #expect(recorder.error == nil)
    }

    @Test func theDisabledMiddlewarePassesEachActionStraightOn() {
        var passed: [String] = []
        let middleware: (@escaping (String) -> Void, @escaping () -> Int?) -> (@escaping (String) -> Void) -> (String) -> Void =
            ActionRecorder.disabled.middleware()
        let dispatch = middleware({ _ in }, { 0 })({ passed.append($0) })
        dispatch("a")
        dispatch("b")
        #expect(passed == ["a", "b"])
    }
}
