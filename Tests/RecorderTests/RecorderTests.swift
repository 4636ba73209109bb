import Foundation
import Testing
@testable import Recorder
import RewindJSON

// A domain that is not Codable: a class, a closure and an error in the values.
final class Session {
    let user: String
    init(user: String) { self.user = user }
}

struct FailureReason: Error { var code: Int }

struct UncodableState {
    var session = Session(user: "ann")
    var onDone: () -> Void = {}
    var attempts = 0
    var lastError: FailureReason?
}

enum UncodableAction {
    case retry
    case failed(FailureReason)
    case completion(() -> Void)
}

func uncodableReducer(_ state: inout UncodableState, _ action: UncodableAction) {
    switch action {
    case .retry: state.attempts += 1
    case .failed(let error): state.lastError = error
    case .completion(let done): state.onDone = done
    }
}

/// A state whose encoding waits at a gate, to hold the writer thread still.
struct GatedState: Encodable {
    static let writerArrived = DispatchSemaphore(value: 0)
    static let release = DispatchSemaphore(value: 0)
    var value = -1

    func encode(to encoder: any Encoder) throws {
        if value == 0 {
            GatedState.writerArrived.signal()
            GatedState.release.wait()
        }
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

@Suite struct RecorderTests {
    let directory = TemporaryDirectory()

    @Test func recordsNonCodableValuesByReflectionAsNotReplayable() throws {
        let path = directory.file("uncodable.jsonl")
        let recorder = try ActionRecorder(file: path, options: testOptions())
        let reducer = recorder.recording(uncodableReducer)
        var state = UncodableState()
        reducer(&state, .retry)
        reducer(&state, .failed(FailureReason(code: 42)))
        reducer(&state, .completion({}))
        try recorder.close()

        let reader = try LogReader(path: path)
        #expect(reader.entryCount == 3)
        #expect(!reader.header.isStateReplayable)
        #expect(reader.header.initialState?["session"]?["user"] == "ann")
        let failed = try reader.entry(at: 1)
        #expect(failed.action.name == "failed")
        #expect(!failed.action.isReplayable)
        // Errors are dumped as their description.
        #expect(failed.action.payload == ["failed": ["_0": "FailureReason(code: 42)"]])
        #expect(try reader.state(at: 1)["lastError"] == "FailureReason(code: 42)")
        #expect(try reader.state(at: 0)["lastError"] == .null)
        #expect(try reader.state(at: 2)["attempts"] == 1)
        #expect(try reader.entry(at: 2).action.name == "completion")
    }

    @Test func writesReplayableOnlyForAnActionThatIsNotAndReadsItBackEitherWay() throws {
        let codablePath = directory.file("codable.jsonl"), uncodablePath = directory.file("uncodable.jsonl")
        _ = try recordTodos([.add(title: "milk"), .toggle(id: 0)], to: codablePath)
        let recorder = try ActionRecorder(file: uncodablePath, options: testOptions())
        var state = UncodableState()
        recorder.recording(uncodableReducer)(&state, .retry)
        try recorder.close()

        // The usual case costs no bytes: a Codable action's record leaves `replayable` out.
        let codableEntries = readLines(codablePath).dropFirst().filter { !$0.isEmpty }
        #expect(codableEntries.count == 2 && codableEntries.allSatisfy { !$0.contains(#""replayable""#) })
        #expect(readLines(uncodablePath)[1].contains(#""payload":"retry","replayable":false}"#))
        let codable = try LogReader(path: codablePath)
        #expect(try (0..<2).allSatisfy { try codable.entry(at: $0).action.isReplayable })
        #expect(try !LogReader(path: uncodablePath).entry(at: 0).action.isReplayable)
        // Older recorders wrote `"replayable":true` on every action: their logs read the same.
        let older = SampleLogsTests.directory + "/todos-format2.jsonl"
        #expect(readLines(older)[1].contains(#""replayable":true"#))
        #expect(try LogReader(path: older).entry(at: 0).action.isReplayable)
    }

    @Test func createsTheLogOwnerOnly() throws {
        let path = directory.file("private.jsonl")
        try recordTodos([.add(title: "secret")], to: path)
        var status = stat()
        #expect(stat(path, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600)
    }

    @Test func writesAHeaderEvenWhenNothingWasRecorded() throws {
        let path = directory.file("empty.jsonl")
        var options = testOptions()
        options.metadata = ["build": "1.4.2"]
        try ActionRecorder(file: path, options: options).close()
        let reader = try LogReader(path: path)
        #expect(reader.entryCount == 0)
        #expect(reader.header.metadata == ["build": "1.4.2"])
        #expect(reader.header.stateTypeName == nil)
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "needs /dev/full (Linux), which Darwin lacks")) func reportsADiskFullErrorOnceWithoutBlockingTheApp() throws {  // portability: skipped at run time where /dev/full is missing (Darwin)
        let errors = Locked<[RecorderError]>([])
        var options = testOptions()
        options.queueCapacity = 2
        options.onError = { error in errors.withLock { $0.append(error) } }
        let recorder = try ActionRecorder(file: "/dev/full", options: options)  // portability: skipped at run time where /dev/full is missing (Darwin)
        let reducer = recorder.recording(todoReducer)
        var state = TodoState()
        for action in randomTodoActions(count: 200, seed: 2) { reducer(&state, action) }
        let flushError = #expect(throws: RecorderError.self) { try recorder.flush() }
        for action in randomTodoActions(count: 50, seed: 3) { reducer(&state, action) }
        let error = #expect(throws: RecorderError.self) { try recorder.close() }
        #expect(flushError == error)
        #expect(error?.code == ENOSPC)
        #expect(error?.kind == .cannotWrite)
        #expect(error?.description == "/dev/full: cannot write: No space left on device")
        #expect(errors.withLock { $0 } == [error!])
        #expect(recorder.error == error)
        #expect(throws: RecorderError.self) { try recorder.close() }
        #expect(errors.withLock { $0.count } == 1)
    }

    @Test func failsClearlyWhenTheLogCannotBeCreated() throws {
        let missing = #expect(throws: RecorderError.self) { try ActionRecorder(file: directory.file("no/such/dir/x.jsonl")) }
        #expect(missing?.code == ENOENT)
        #expect(missing?.kind == .cannotOpen)
        #expect(missing?.description.hasSuffix("no/such/dir/x.jsonl: cannot open the log: No such file or directory") == true)

        // Root ignores permission bits, but not sysfs's read-only directories.
        let readOnlyPath: String
        if getuid() == 0 {
            readOnlyPath = "/sys/rewind-test.jsonl"
        } else {
            let readOnly = directory.file("read-only")
            try FileManager.default.createDirectory(atPath: readOnly, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o500])
            readOnlyPath = readOnly + "/x.jsonl"
        }
        let denied = #expect(throws: RecorderError.self) { try ActionRecorder(file: readOnlyPath) }
        #expect(denied?.code == EACCES)
        #expect(denied?.kind == .cannotOpen)

        let notALog = directory.file("notes.txt")
        writeBytes(Array("shopping list\n".utf8), to: notALog)
        let refused = #expect(throws: RecorderError.self) { try ActionRecorder(file: notALog) }
        #expect(refused?.description.contains("is not a Rewind log; refusing to append to it") == true)
        #expect(refused?.kind == .notARewindLog)
        #expect(fileBytes(notALog) == Array("shopping list\n".utf8))
    }

    @Test func anAddressThatIsNotHostAndPortIsRefusedWithAKindACallerCanMatch() throws {
        let error = try #require(throws: RecorderError.self) { try ActionRecorder(streamingTo: "localhost", token: "t") }
        switch error.kind {
        case .invalidAddress: break
        default: Issue.record("kind \(error.kind)")
        }
        #expect(error.description == "localhost: is not host:port (for example 127.0.0.1:7777)")
    }

    @Test func reportsALogRemovedWhileRecording() throws {
        let path = directory.file("removed.jsonl")
        let errors = Locked(0)
        var options = testOptions()
        options.onError = { _ in errors.withLock { $0 += 1 } }
        let recorder = try ActionRecorder(file: path, options: options)
        let reducer = recorder.recording(todoReducer)
        var state = TodoState()
        reducer(&state, .add(title: "a"))
        try recorder.flush()
        #expect(recorder.error == nil)
        unlink(path)
        reducer(&state, .add(title: "b"))
        #expect(throws: RecorderError.self) { try recorder.flush() }
        reducer(&state, .add(title: "c"))
        let error = #expect(throws: RecorderError.self) { try recorder.close() }
        #expect(error?.description.hasSuffix("removed.jsonl: the log file was removed while recording") == true)
        #expect(error?.kind == .logChanged)
        #expect(errors.withLock { $0 } == 1)
    }

    @Test func appendsANewSessionAfterCuttingATornTail() throws {
        let path = directory.file("append.jsonl")
        let first = try recordTodos(randomTodoActions(count: 10, seed: 4), to: path)
        var bytes = fileBytes(path)
        bytes.removeLast(25)  // a crash in the middle of the last record
        writeBytes(bytes, to: path)
        #expect(try LogReader(path: path).tornTail != nil)

        let recorder = try ActionRecorder(file: path, options: testOptions())
        let reducer = recorder.recording(todoReducer)
        var state = first[8]
        var second: [TodoState] = []
        for action in randomTodoActions(count: 5, seed: 5) {
            reducer(&state, action)
            second.append(state)
        }
        try recorder.close()

        let reader = try LogReader(path: path)
        #expect(reader.tornTail == nil)
        #expect(reader.damage.isEmpty)
        #expect(reader.entryCount == 9 + 5)
        #expect(readLines(path).filter { $0.hasPrefix(#"{"kind":"header""#) }.count == 2)
        #expect(try reader.entry(at: 9).sequence == 9, "the new session continues the numbering")
        #expect(try reader.entry(at: 9).isKeyframe)
        for index in 0..<9 { #expect(try reader.state(at: index) == (try JSONEncoding.value(of: first[index]))) }
        for index in 0..<5 { #expect(try reader.state(at: 9 + index) == (try JSONEncoding.value(of: second[index]))) }
    }

    @Test func dropPolicyWritesAGapRecordWithTheCount() throws {
        let path = directory.file("drop.jsonl")
        var options = testOptions()
        options.queueCapacity = 2
        options.queuePolicy = .drop
        let recorder = try ActionRecorder(file: path, options: options)
        let reducer = recorder.recording { (state: inout GatedState, value: Int) in state.value = value }
        var state = GatedState()
        reducer(&state, 0)
        GatedState.writerArrived.wait()  // the writer is busy with entry 0
        for value in 1...9 { reducer(&state, value) }  // 1 and 2 fit the queue; 3...9 are dropped
        GatedState.release.signal()
        try recorder.flush()
        for value in 10...12 {
            reducer(&state, value)
            try recorder.flush()
        }
        try recorder.close()

        let reader = try LogReader(path: path)
        #expect(reader.gaps == [LogGap(beforeEntry: 3, lineNumber: 5, firstSequence: 3, droppedCount: 7, reason: "the recording queue was full (queue policy .drop)")])
        #expect(try (0..<reader.entryCount).map { try reader.entry(at: $0).sequence } == [0, 1, 2, 10, 11, 12])
        #expect(try reader.entry(at: 3).isKeyframe)
        #expect(try reader.state(at: 5) == 12)
        #expect(readLines(path)[4].contains(#""dropped":7"#))
    }

    @Test func waitPolicyLosesNothingWithATinyQueue() throws {
        let path = directory.file("wait.jsonl")
        var options = testOptions()
        options.queueCapacity = 1
        let actions = randomTodoActions(count: 300, seed: 8)
        let states = try recordTodos(actions, to: path, options: options)
        let reader = try LogReader(path: path)
        #expect(reader.entryCount == 300)
        #expect(try reader.state(at: 299) == (try JSONEncoding.value(of: states[299])))
    }

    @Test func numbersEntriesInReducerOrderAcrossManyThreads() throws {
        final class LockedStore: @unchecked Sendable {
            struct State: Codable { var count = 0; var last: [Int] = [0, 0] }
            private let lock = NSLock()
            private var state = State()
            private let reducer: (inout State, [Int]) -> Void
            init(_ recorder: ActionRecorder) {
                reducer = recorder.recording { state, action in
                    state.count += 1
                    state.last = action
                }
            }
            func send(_ action: [Int]) {
                lock.lock()
                reducer(&state, action)
                lock.unlock()
            }
        }
        let path = directory.file("threads.jsonl")
        var options = testOptions()
        options.queueCapacity = 16
        let recorder = try ActionRecorder(file: path, options: options)
        let store = LockedStore(recorder)
        let threads = 8
        let perThread = 250
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for step in 0..<perThread { store.send([thread, step]) }
        }
        try recorder.close()

        let reader = try LogReader(path: path)
        #expect(reader.entryCount == threads * perThread)
        var nextStep = [Int](repeating: 0, count: threads)
        for index in 0..<reader.entryCount {
            let entry = try reader.entry(at: index)
            #expect(entry.sequence == Int64(index))
            // The state's counter shows the order the reducer ran in.
            let state = try reader.state(at: index)
            #expect(state["count"] == .integer(Int64(index + 1)))
            let thread = Int(entry.action.payload[0]!.int64Value!)
            #expect(entry.action.payload[1] == .integer(Int64(nextStep[thread])))
            #expect(state["last"] == entry.action.payload)
            nextStep[thread] += 1
        }
        #expect(nextStep == [Int](repeating: perThread, count: threads))
    }
}
