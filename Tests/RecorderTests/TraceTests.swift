import Foundation
import Testing
@testable import Recorder
import RewindStore

/// Where each action was dispatched: call sites from the reference store and the
/// manual API, call stacks with `Options.trace`.
@Suite struct TraceTests {
    let directory = TemporaryDirectory()

    @Test func theReferenceStoreRecordsTheCallSiteOfSendAndOfEffects() async throws {
        let path = directory.file("store.jsonl")
        let recorder = try ActionRecorder(file: path, options: testOptions())
        let store = Store<TodoState, TodoAction>(initialState: TodoState(), recorder: recorder) { state, action in
            todoReducer(&state, action)
            if case .add = action { return .send(.toggle(id: 0)) }
            return .none
        }
        let line = #line + 1
        store.send(.add(title: "gift wrap"))
        await store.finishEffects()
        try recorder.close()
        let reader = try LogReader(path: path)
        #expect(try reader.entry(at: 0).trace == EntryTrace(file: "RecorderTests/TraceTests.swift", line: line, stack: []))
        #expect(try reader.entry(at: 0).trace?.description == "RecorderTests/TraceTests.swift:\(line)")
        // The effect's `.send(…)` is in the reducer above.
        #expect(try reader.entry(at: 1).trace == EntryTrace(file: "RecorderTests/TraceTests.swift", line: line - 4, stack: []))
    }

    @Test func aWrappedReducerHasNoTraceUnlessTheOptionAsksForTheStack() throws {
        let path = directory.file("plain.jsonl")
        let recorder = try ActionRecorder(file: path, options: testOptions())
        var state = TodoState()
        recorder.recording(todoReducer)(&state, .add(title: "x"))
        try recorder.close()
        #expect(try LogReader(path: path).entry(at: 0).trace == nil)
        #expect(!String(decoding: fileBytes(path), as: UTF8.self).contains(#""trace""#))
    }

    @Test func withTraceOnEachEntryHasTheCallStackWithoutRewindsOwnFrames() throws {
        let path = directory.file("stack.jsonl")
        var options = testOptions()
        options.trace = true
        let recorder = try ActionRecorder(file: path, options: options)
        let reducer = recorder.recording(todoReducer)
        var state = TodoState()
        dispatchFromANamedFunction(reducer, &state)
        try recorder.close()
        let trace = try #require(try LogReader(path: path).entry(at: 0).trace)
        #expect(trace.file == nil)
        #expect(!trace.stack.isEmpty && trace.stack.count <= CallStack.keptFrames)
        // The innermost frames are the app's: the reducer wrapper's closure is not among them.
        #expect(trace.stack.contains { $0.contains("dispatchFromANamedFunction") }, "\(trace.stack)")
        #expect(!trace.stack.prefix(1).contains { $0.hasPrefix("Recorder.") || $0.contains(" in ActionRecorder.Recorder.") })
    }

    @Test func theManualAPIRecordsItsCallSiteAndWithTraceAStack() throws {
        let path = directory.file("manual.jsonl")
        var options = testOptions()
        options.trace = true
        let recorder = try ActionRecorder(file: path, options: options)
        let line = #line + 1
        recorder.record(TodoAction.add(title: "x"), state: TodoState())
        try recorder.close()
        let trace = try #require(try LogReader(path: path).entry(at: 0).trace)
        #expect(trace.file == "RecorderTests/TraceTests.swift")
        #expect(trace.line == line)
        #expect(!trace.stack.isEmpty)
    }
}

#if canImport(Runtime) && os(Linux) && compiler(>=6.3)
/// The first traced action lists the process's loaded images to name frames, while the
/// app's other threads may be mapping and unmapping files (logs read with mmap,
/// Foundation's mapped `Data`). The runtime's own listing read each mapping with plain
/// loads and crashed within a few hundred listings under this load.
@Suite struct LoadedImagesTests {
    let directory = TemporaryDirectory()

    @Test(.timeLimit(.minutes(1))) func listingImagesWhileAnotherThreadUnmapsFilesNeverCrashes() throws {
        let path = directory.file("mapped.bin")
        try Data(repeating: 0x7F, count: 1 << 20).write(to: URL(fileURLWithPath: path))
        let churn = MappingChurn(path: path)
        churn.start()
        defer { churn.stop() }
        var listed = 0
        for _ in 0..<600 where !RuntimeImages.loadedImages().isEmpty { listed += 1 }
        #expect(listed == 600)
        #expect(churn.mappings > 0, "the other thread mapped the file while images were listed")
    }
}

/// A thread that maps a file and unmaps it again, as fast as it can, until stopped.
private final class MappingChurn: @unchecked Sendable {
    private let path: String
    private let lock = NSLock()
    private var stopped = false
    private var count = 0
    private let done = DispatchSemaphore(value: 0)

    init(path: String) { self.path = path }

    var mappings: Int { lock.withLock { count } }

    func start() {
        Thread { [self] in
            let descriptor = open(path, O_RDONLY)
            defer { close(descriptor); done.signal() }
            while !lock.withLock({ stopped }) {
                guard let mapping = mmap(nil, 1 << 20, PROT_READ, MAP_PRIVATE, descriptor, 0), mapping != MAP_FAILED else { return }
                munmap(mapping, 1 << 20)
                lock.withLock { count += 1 }
            }
        }.start()
    }

    func stop() {
        lock.withLock { stopped = true }
        done.wait()
    }
}
#endif

@inline(never)
private func dispatchFromANamedFunction(_ reducer: (inout TodoState, TodoAction) -> Void, _ state: inout TodoState) {
    reducer(&state, .add(title: "traced"))
}
