import Foundation
import Testing
@testable import Inspector
@testable import Recorder
import SampleDomains

/// Live recording over loopback: an app's `ActionRecorder(streamingTo:token:)` and a
/// `LiveListener` in the same process, on an ephemeral port. Every wait is
/// bounded, and every listener is stopped by its test.
@Suite(.serialized) struct LiveRecordingTests {
    static let token = "0123456789abcdef0123456789abcdef"
    /// How long any wait may last before the test fails. Only a broken run waits it
    /// out; a passing one goes on as soon as what it waits for happens, which on a
    /// two-core machine loaded by parallel builds can take seconds. Thread Sanitizer
    /// (scripts/tsan) runs these tests many times slower still: every wait scales.
    static let slowdown: Double = ProcessInfo.processInfo.environment["TSAN_OPTIONS"] == nil ? 1 : 12
    static let patience = 60.0 * slowdown
    /// A recorder's options whose live waits (``ActionRecorder/Options/livePatience``) hold under Thread Sanitizer too.
    /// That patience is how long `close()` waits *without progress*, so a passing run never waits it out; under
    /// Thread Sanitizer, with the hardening suites running beside these, an in-process listener went 12 s without
    /// confirming anything (1 CI run in several), hence more there than `slowdown`.
    static var options: ActionRecorder.Options {
        var options = ActionRecorder.Options()
        options.livePatience = .seconds(slowdown == 1 ? 1 : 40)
        return options
    }

    static func listener(_ directory: TemporaryDirectory, port: UInt16 = 0, maximumRecordBytes: Int = LogReader.maximumLineBytes) throws -> LiveListener {
        var configuration = LiveListener.Configuration(address: LiveAddress(host: "127.0.0.1", port: port), directory: directory.path, token: token)
        configuration.maximumRecordBytes = maximumRecordBytes
        // A recorder says hello as soon as it connects, but its thread may not run for
        // seconds on a loaded machine: these listeners wait as long as the tests do.
        // (The timeout itself is tested with 0.2 s, where the client never says hello.)
        configuration.helloTimeout = patience
        return try LiveListener(configuration)
    }

    /// Runs `count` todo actions through the recorder: adds up to 20 todos, then toggles them.
    static func record(_ count: Int, with recorder: ActionRecorder, from state: inout TodoState) {
        let reducer = recorder.recording(TodoDomain.reduce)
        for index in 0..<count {
            let number = state.nextID
            reducer(&state, number <= 20 ? .add(title: "todo \(number)") : .toggle(id: 1 + index % 20))
        }
    }

    static func finished(_ snapshot: LiveListener.Snapshot) -> Bool {
        snapshot.events.contains { if case .closed(_, _, nil) = $0 { true } else { false } }
    }

    @Test func aStreamedRecordingIsByteForByteTheFileItIsAlsoWrittenTo() throws {
        let directory = TemporaryDirectory()
        let listener = try Self.listener(directory)
        defer { listener.stop() }
        let local = directory.path + "/local.json"
        let recorder = try ActionRecorder(streamingTo: listener.address.description, token: Self.token, file: local, options: Self.options)
        var state = TodoState()
        Self.record(300, with: recorder, from: &state)
        try recorder.close()
        #expect(listener.waitUntil(timeout: Self.patience, Self.finished))

        let streamed = try #require(directory.logs.first)
        #expect(directory.logs.count == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: streamed)) == Data(contentsOf: URL(fileURLWithPath: local)))
        let reader = try LogReader(path: streamed)
        #expect(reader.entryCount == 300 && reader.gaps.isEmpty && reader.damage.isEmpty)
        #expect(streamed.hasSuffix("-\(recorder.live!.session).jsonl"))
    }

    @Test func aListenerKilledAndRestartedMidStreamLeavesOneLogWithAGapAndTheAppNeverWaits() throws {
        let directory = TemporaryDirectory()
        var first: LiveListener? = try Self.listener(directory)
        let port = first!.address.port
        var options = Self.options
        options.liveQueueBytes = 256 << 10
        let recorder = try ActionRecorder(streamingTo: first!.address.description, token: Self.token, options: options)
        var state = TodoState()
        Self.record(50, with: recorder, from: &state)
        #expect(first!.waitUntil(timeout: Self.patience) { $0.recordings.values.contains(49) })

        first!.stop()
        first = nil
        // The outage: far more than the 256 KB queue holds. `flush` returning shows the
        // writer was never stuck on the network (the app's own queue would have filled).
        Self.record(5000, with: recorder, from: &state)
        try recorder.flush()
        #expect(recorder.liveDroppedEntries > 0)

        let second = try Self.listener(directory, port: port)
        defer { second.stop() }
        // Once the app has reconnected and sent what it had queued, new entries have room again.
        #expect(second.waitUntil(timeout: Self.patience) { $0.recordings.values.contains { ($0 ?? 0) > 49 } })
        try recorder.flush()
        Self.record(10, with: recorder, from: &state)
        try recorder.flush()
        #expect(second.waitUntil(timeout: Self.patience) { $0.recordings.values.contains(5059) })
        try recorder.close()
        #expect(second.waitUntil(timeout: Self.patience, Self.finished))

        // One log: the second listener found the first one's by its session name.
        #expect(directory.logs.count == 1)
        let reader = try LogReader(path: try #require(directory.logs.first))
        #expect(reader.damage.isEmpty && reader.tornTail == nil)
        #expect(!reader.gaps.isEmpty)
        // Every sequence number is there once, as an entry or inside a gap, in order.
        var expected: Int64 = 0
        var gaps = reader.gaps.makeIterator()
        var nextGap = gaps.next()
        for index in 0..<reader.entryCount {
            while let gap = nextGap, gap.beforeEntry == index {
                #expect(gap.firstSequence == expected)
                expected += Int64(gap.droppedCount)
                nextGap = gaps.next()
            }
            #expect(try reader.entry(at: index).sequence == expected)
            expected += 1
        }
        #expect(expected == 5060)
        #expect(reader.entryCount == 5060 - Int(reader.gaps.map(\.droppedCount).reduce(0, +)))
        // The app's count is the gap records' count: the entries lost in flight included.
        #expect(recorder.liveDroppedEntries == reader.gaps.map(\.droppedCount).reduce(0, +))
        // The listener said where each gap is, numbered as the log numbers its entries.
        let said = second.current.events.compactMap { event -> (Int, Int)? in
            if case .gap(_, _, let first, let count, _) = event { (first, count) } else { nil }
        }
        #expect(said.map(\.1).reduce(0, +) == recorder.liveDroppedEntries)
        #expect(said.map(\.0) == reader.gaps.map { Int($0.firstSequence) + 1 })
        #expect(second.current.events.contains { $0.description.hasSuffix(" not recorded: live connection lost") || $0.description.hasSuffix(" not recorded: live stream queue full") })
        // Every state after the gap rebuilds, and the last one is the app's.
        for index in 0..<reader.entryCount { _ = try reader.state(at: index) }
        let last = try reader.state(at: reader.entryCount - 1)
        #expect(last["todos"]?.arrayValue?.count == state.todos.count)
        #expect(last["nextID"]?.int64Value == Int64(state.nextID))
    }

    @Test func entriesThatNeverReachAListenerGoneForGoodAreCountedAndCloseSaysSo() throws {
        let directory = TemporaryDirectory()
        let listener = try Self.listener(directory)
        let errors = ErrorCollector()
        var options = Self.options
        options.onError = { errors.add($0) }
        let recorder = try ActionRecorder(streamingTo: listener.address.description, token: Self.token, options: options)
        var state = TodoState()
        Self.record(19, with: recorder, from: &state)
        try recorder.flush()                   // the listener has confirmed all 19
        #expect(recorder.liveDroppedEntries == 0)
        listener.stop()                        // gone for good
        Self.record(31, with: recorder, from: &state)
        #expect(throws: RecorderError.self) { try recorder.close() }

        let reader = try LogReader(path: try #require(directory.logs.first))
        #expect(reader.entryCount == 19)
        #expect(recorder.liveDroppedEntries == 31, "every entry the listener's log lacks")
        let expected = "127.0.0.1:\(listener.address.port): 31 entries never reached the listener (the listener was unreachable when "
            + "the recorder closed); 31 entries are missing from its log in all (liveDroppedEntries)"
        do { try recorder.close() } catch { #expect(error.description == expected) }
        #expect(errors.waitFor(count: 1))
        #expect(errors.all.map(\.description) == [expected])
        #expect(errors.all.map(\.kind) == [.entriesNotStreamed])
    }

    @Test func aListenerThatAcknowledgesConfirmsWhatItWroteAndCloseWaitsForIt() throws {
        let directory = TemporaryDirectory()
        let listener = try Self.listener(directory)
        defer { listener.stop() }
        let recorder = try ActionRecorder(streamingTo: listener.address.description, token: Self.token, options: Self.options)
        var state = TodoState()
        Self.record(200, with: recorder, from: &state)
        try recorder.close()                   // returns once the listener confirmed entry 200: no loss
        #expect(recorder.liveDroppedEntries == 0)
        #expect(listener.current.recordings.values.contains(199))
    }

    @Test func aWrongTokenIsRefusedBeforeAnythingIsWritten() throws {
        let directory = TemporaryDirectory()
        let listener = try Self.listener(directory)
        defer { listener.stop() }
        let errors = ErrorCollector()
        var options = Self.options
        options.onError = { errors.add($0) }
        let recorder = try ActionRecorder(streamingTo: listener.address.description, token: "not-the-token", options: options)
        var state = TodoState()
        Self.record(5, with: recorder, from: &state)
        #expect(listener.waitUntil(timeout: Self.patience) { $0.events.contains { if case .refused(_, "wrong token") = $0 { true } else { false } } })
        // Recording stops with the refusal; close says why, every time it is called.
        let expected = "127.0.0.1:\(listener.address.port): the listener refused the stream: wrong token"
        #expect(try #require(throws: RecorderError.self) { try recorder.close() }.kind == .streamRefused)
        do { try recorder.close() } catch { #expect(error.description == expected) }
        // onError runs on the stream's thread, possibly just after close() threw.
        #expect(errors.waitFor(count: 1))
        #expect(errors.all.map(\.description) == [expected])
        #expect(directory.logs.isEmpty)
    }

    /// A raw client: hello, then `bytes`; returns the listener's reply line.
    static func send(_ bytes: [UInt8], to listener: LiveListener, token: String = token) throws -> String {
        let socket = try LiveSocket.connect(to: listener.address, timeout: Self.patience).get()
        defer { socket.close() }
        _ = socket.send(LiveHandshake.line(.init(token: token, session: LiveHandshake.randomHex())), timeout: Self.patience)
        var reply: [UInt8] = []
        while !reply.contains(0x0A), case .success(let count) = socket.receive(into: &reply, maximum: 4096, timeout: Self.patience), count > 0 {}
        _ = socket.send(bytes, timeout: Self.patience)
        socket.shutdownBoth()
        return String(decoding: reply, as: UTF8.self)
    }

    static func sealed(_ text: String) -> [UInt8] {
        var bytes = Array(text.utf8)
        LogLine.seal(&bytes, recordStart: 0)
        return bytes
    }

    static let header = sealed(#"{"kind":"header","format":"rewind","version":1,"created":1767258000,"process":"raw-client","keyframeInterval":32,"metadata":{}"#)
    static let keyframe = sealed(#"{"kind":"entry","keyframe":true,"seq":0,"time":1767258000.5,"durationNs":1,"action":{"type":"a","payload":{},"replayable":true},"changed":[""],"state":{"n":1}"#)

    struct BadFrame: CustomTestStringConvertible, Sendable {
        var name: String
        var bytes: [UInt8]
        var reason: String
        init(_ name: String, _ bytes: [UInt8], _ reason: String) {
            self.name = name
            self.bytes = bytes
            self.reason = reason
        }
        var testDescription: String { name }
    }

    @Test(arguments: [
        BadFrame("not a record", header + Array("this is not a record\n".utf8), "record 2 of the stream is not a Rewind record"),
        BadFrame("a checksum that does not match", header + Array(String(decoding: keyframe, as: UTF8.self).replacingOccurrences(of: #""n":1"#, with: #""n":2"#).utf8),
         "record 2 of the stream is damaged (its checksum does not match)"),
        BadFrame("an oversized record", header + Array(repeating: UInt8(ascii: "x"), count: 10_000), "record 2 of the stream is longer than the 4096-byte record limit"),
        BadFrame("an entry before the header", keyframe, "the stream does not start with a Rewind header"),
        BadFrame("a future format version", sealed(#"{"kind":"header","format":"rewind","version":99,"created":0,"process":"x","keyframeInterval":32"#),
         "written by a newer Rewind"),
    ])
    func aBadFrameClosesThatConnectionOnlyAndIsReported(_ frame: BadFrame) throws {
        let (bytes, reason) = (frame.bytes, frame.reason)
        let directory = TemporaryDirectory()
        let listener = try Self.listener(directory, maximumRecordBytes: 4096)
        defer { listener.stop() }
        #expect(try Self.send(bytes, to: listener).contains("welcome"))
        let closed = listener.waitUntil(timeout: Self.patience) { snapshot in
            snapshot.events.contains { if case .closed(_, _, let why?) = $0 { why.contains(reason) } else { false } }
        }
        #expect(closed, "\(listener.current.events)")
        // What came before the bad record is kept, checked: the header only.
        for log in directory.logs { #expect(try LogReader(path: log).entryCount == 0) }
        // The listener still takes recordings.
        let recorder = try ActionRecorder(streamingTo: listener.address.description, token: Self.token, options: Self.options)
        var state = TodoState()
        Self.record(3, with: recorder, from: &state)
        try recorder.close()
        let done = listener.waitUntil(timeout: Self.patience, Self.finished)
        if !done { print("EVENTS", listener.current.events) }
        #expect(done)
    }

    @Test func aConnectionThatSaysNothingIsRefusedAfterTheHelloTimeout() throws {
        let directory = TemporaryDirectory()
        var configuration = LiveListener.Configuration(address: LiveAddress(host: "127.0.0.1", port: 0), directory: directory.path, token: Self.token)
        // A floor, not a ceiling: the client never says hello, so however slow the machine, the timeout is what ends it.
        configuration.helloTimeout = 0.2
        let listener = try LiveListener(configuration)
        defer { listener.stop() }
        let socket = try LiveSocket.connect(to: listener.address, timeout: Self.patience).get()
        defer { socket.close() }
        var reply: [UInt8] = []
        while !reply.contains(0x0A), case .success(let count) = socket.receive(into: &reply, maximum: 4096, timeout: Self.patience), count > 0 {}
        #expect(String(decoding: reply, as: UTF8.self) == #"{"kind":"refused","reason":"no hello within 0.2 s"}"# + "\n")
        #expect(listener.waitUntil(timeout: Self.patience) { $0.events.contains { if case .refused(_, "no hello within 0.2 s") = $0 { true } else { false } } })
        #expect(directory.logs.isEmpty)
    }

    @Test func aConnectionThatDoesNotSayHelloIsRefused() throws {
        let directory = TemporaryDirectory()
        let listener = try Self.listener(directory)
        defer { listener.stop() }
        let socket = try LiveSocket.connect(to: listener.address, timeout: Self.patience).get()
        defer { socket.close() }
        _ = socket.send(Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8), timeout: Self.patience)
        #expect(listener.waitUntil(timeout: Self.patience) { $0.events.contains { if case .refused(_, "the connection did not start with a Rewind hello") = $0 { true } else { false } } })
        #expect(directory.logs.isEmpty)
    }
}
