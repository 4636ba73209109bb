import Foundation
import Testing
@testable import Recorder
import RewindJSON

/// A state of about a kilobyte whose encoding, for `value == 0`, waits at its
/// test's gate: holds the writer thread still while the test fills the queue.
/// Each test has its own gate (tests run in parallel), and none is `GatedState`'s.
private struct HeldBlob: Encodable {
    enum Test: Int { case drop, wait }
    static let writerArrived = [DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)]
    static let release = [DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)]
    let test: Test
    var value = -1
    var blob = String(repeating: "x", count: 1_000)

    init(_ test: Test) { self.test = test }

    func encode(to encoder: any Encoder) throws {
        if value == 0 {
            HeldBlob.writerArrived[test.rawValue].signal()
            HeldBlob.release[test.rawValue].wait()
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(value, forKey: .value)
        try container.encode(blob, forKey: .blob)
    }

    private enum CodingKeys: String, CodingKey { case value, blob }
}

/// Waits until `condition` holds, for at most `seconds` (a deadline for a hang, not a timing assert).
private func eventually(within seconds: Double = 20, _ condition: () -> Bool) -> Bool {
    let deadline = Date(timeIntervalSinceNow: seconds)
    while !condition() {
        if Date() > deadline { return false }
        usleep(1_000)
    }
    return true
}

@Suite struct RecordingQueueTests {
    let directory = TemporaryDirectory()

    private func entry(_ value: Int) -> PendingEntry {
        TypedPendingEntry<Int, Int>(state: value, action: value, endNanoseconds: 0, durationNanoseconds: 0)
    }

    private func drain(_ queue: RecordingQueue) -> [QueueItem] {
        queue.close()
        return queue.takeBatch() ?? []
    }

    @Test func entriesNotYetEncodedAreBoundedByTheLastEncodedSize() {
        let queue = RecordingQueue(capacity: 100, byteLimit: 10_000, policy: .drop)
        queue.noteEncodedState(bytes: 3_000)
        // 1 × 3 kB, 2 × 3 kB and 3 × 3 kB fit in 10 kB; a fourth would hold 12 kB.
        #expect((0..<6).map { queue.enqueue(entry($0)) } == [0, 1, 2, 3, 4, 5])
        queue.entryEncoded(stateBytes: 3_000)  // the writer let go of entry 0: room for one
        #expect(queue.enqueue(entry(6)) == 6)
        queue.entryEncoded(stateBytes: 1_000)  // states got smaller: the estimate follows
        for value in 7...12 { queue.enqueue(entry(value)) }
        let items = drain(queue)
        let kept = items.compactMap { item -> Int64? in if case .entry(let entry) = item { entry.sequence } else { nil } }
        let gaps = items.compactMap { item -> [Int64]? in
            if case .gap(let first, let count, let cause) = item, cause == .memory { Array(first..<first + Int64(count)) } else { nil }
        }
        #expect(kept == [0, 1, 2, 6, 7, 8, 9, 10, 11, 12])
        #expect(gaps == [[3, 4, 5]])
    }

    @Test func oneEntryIsAlwaysTakenHoweverLargeAndTheCountStillBounds() {
        let queue = RecordingQueue(capacity: 2, byteLimit: 10_000, policy: .drop)
        queue.noteEncodedState(bytes: 50_000)
        #expect(queue.enqueue(entry(0)) == 0)
        _ = queue.enqueue(entry(1))
        queue.entryEncoded(stateBytes: 10)
        queue.entryEncoded(stateBytes: 10)  // nothing unencoded; now tiny states, so only the count bounds
        for value in 2...5 { queue.enqueue(entry(value)) }
        let causes = drain(queue).compactMap { item -> QueueLimit? in if case .gap(_, _, let cause) = item { cause } else { nil } }
        #expect(causes == [.memory, .count])
    }

    @Test func dropPolicyWritesAGapSayingTheQueueHeldItsMemory() throws {
        let path = directory.file("memory-drop.jsonl")
        var options = testOptions()
        options.queuePolicy = .drop
        options.queueBytes = 4_500  // four 1 kB states, not five
        let recorder = try ActionRecorder(file: path, options: options)
        let reducer = recorder.recording { (state: inout HeldBlob, value: Int) in state.value = value }
        var state = HeldBlob(.drop)
        reducer(&state, 0)
        HeldBlob.writerArrived[HeldBlob.Test.drop.rawValue].wait()  // the writer encoded the initial state (the estimate) and holds entry 0
        for value in 1...9 { reducer(&state, value) }  // 1, 2 and 3 fit beside it; 4...9 are dropped
        HeldBlob.release[HeldBlob.Test.drop.rawValue].signal()
        try recorder.flush()
        for value in 10...12 { reducer(&state, value) }
        try recorder.close()

        let reader = try LogReader(path: path)
        #expect(reader.gaps == [LogGap(
            beforeEntry: 4, lineNumber: 6, firstSequence: 4, droppedCount: 6,
            reason: "the recording queue was at its memory limit (4500 bytes of states not yet written) (queue policy .drop)")])
        #expect(try (0..<reader.entryCount).map { try reader.entry(at: $0).sequence } == [0, 1, 2, 3, 10, 11, 12])
        #expect(try reader.entry(at: 4).isKeyframe)
        #expect(try reader.state(at: 6)["value"] == 12)
    }

    @Test func waitPolicyBlocksTheCallerWhileTheQueueHoldsItsMemoryAndLosesNothing() throws {
        let path = directory.file("memory-wait.jsonl")
        var options = testOptions()
        options.queueBytes = 3_500  // three 1 kB states, not four
        let recorder = try ActionRecorder(file: path, options: options)
        // Called here, then from the thread below (never at once).
        nonisolated(unsafe) let reducer = recorder.recording { (state: inout HeldBlob, value: Int) in state.value = value }
        var state = HeldBlob(.wait)
        reducer(&state, 0)
        HeldBlob.writerArrived[HeldBlob.Test.wait.rawValue].wait()  // the writer encoded the initial state (the estimate) and holds entry 0
        let returned = Locked(0)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread { [state] in
            var state = state
            for value in 1...5 {
                reducer(&state, value)
                returned.withLock { $0 += 1 }
            }
            done.signal()
        }
        // Entries 1 and 2 fit beside entry 0; the call for entry 3 waits for room.
        #expect(eventually { recorder.queue.callersWaitingForRoom == 1 })
        #expect(returned.withLock { $0 } == 2)
        HeldBlob.release[HeldBlob.Test.wait.rawValue].signal()
        done.wait()
        try recorder.close()

        let reader = try LogReader(path: path)
        #expect(reader.gaps.isEmpty)
        #expect(try (0..<reader.entryCount).map { try reader.state(at: $0)["value"] } == [0, 1, 2, 3, 4, 5])
    }

    @Test func anIdleWriterSleepsAndTheNextActionWakesIt() throws {
        let path = directory.file("idle.jsonl")
        let recorder = try ActionRecorder(file: path, options: testOptions())
        let reducer = recorder.recording(todoReducer)
        var state = TodoState()
        reducer(&state, .add(title: "first"))
        try recorder.flush()
        // No more actions: once the polling window is over the writer sleeps untimed…
        #expect(eventually { recorder.queue.isWriterAsleep })
        // …and an action, with no flush, still reaches the log.
        reducer(&state, .add(title: "second"))
        #expect(eventually { (try? LogReader(path: path).entryCount) == 2 })
        try recorder.close()
    }
}
