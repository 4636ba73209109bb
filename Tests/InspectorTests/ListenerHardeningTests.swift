import Foundation
import Testing
@_spi(Testing) @testable import Inspector
@testable import Recorder

/// `rewind listen` against hostile peers (issue 37): numbers that would trap, records that
/// would overflow, bytes meant for the terminal, token guessing, a flood of events, a slow
/// reconnection, and what it says about where it listens. Raw clients on loopback; every
/// wait is bounded and every listener is stopped by its test.
@Suite(.serialized) struct ListenerHardeningTests {
    static let token = LiveRecordingTests.token
    /// How long a wait may last before the test gives up: longer under Thread Sanitizer
    /// (scripts/tsan), which runs this suite many times slower on a shared machine.
    static let patience = LiveRecordingTests.patience

    static func listener(_ directory: TemporaryDirectory, configure: (inout LiveListener.Configuration) -> Void = { _ in }) throws -> LiveListener {
        var configuration = LiveListener.Configuration(address: LiveAddress(host: "127.0.0.1", port: 0), directory: directory.path, token: token)
        configure(&configuration)
        return try LiveListener(configuration)
    }

    /// A raw client for `session`: its hello, then `bytes`, then its side closed. Returns the
    /// listener's reply line.
    @discardableResult
    static func stream(_ bytes: [UInt8], session: String = LiveHandshake.randomHex(), token: String = token,
                       hello: [UInt8]? = nil, to listener: LiveListener) throws -> String {
        let socket = try LiveSocket.connect(to: listener.address, timeout: 5).get()
        defer { socket.close() }
        _ = socket.send(hello ?? LiveHandshake.line(.init(token: token, session: session)), timeout: 5)
        var reply: [UInt8] = []
        while !reply.contains(0x0A), case .success(let count) = socket.receive(into: &reply, maximum: 4096, timeout: patience), count > 0 {}
        if !bytes.isEmpty { _ = socket.send(bytes, timeout: 5) }
        socket.shutdownBoth()
        return String(decoding: reply, as: UTF8.self)
    }

    static func closed(_ count: Int) -> (LiveListener.Snapshot) -> Bool {
        { snapshot in snapshot.events.filter { if case .closed = $0 { true } else { false } }.count >= count }
    }

    static func closedReasons(_ listener: LiveListener) -> [String] {
        listener.current.events.compactMap { if case .closed(_, _, let reason?) = $0 { reason } else { nil } }
    }

    static let header = HandMadeLog.header()
    static let keyframe = HandMadeLog.keyframe(seq: "0", state: #"{"a":1}"#)

    // MARK: Crashes

    @Test func aHeaderCreatedAt1e300IsNamedByTheClockAndTheListenerGoesOn() throws {
        let directory = TemporaryDirectory()
        let listener = try Self.listener(directory)
        defer { listener.stop() }
        for created in ["1e300", "-1e300", "1e400", "9223372036854775807", #""NaN""#] {
            try Self.stream(HandMadeLog.bytes([HandMadeLog.header(created: created), Self.keyframe]), to: listener)
        }
        #expect(listener.waitUntil(timeout: Self.patience, Self.closed(5)))
        let year = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: Date()).year!
        #expect(directory.logs.count == 5)
        for log in directory.logs {
            #expect((log as NSString).lastPathComponent.hasPrefix("app-\(year)"), "\(log)")
            #expect(try LogReader(path: log).entryCount == 1)
        }
    }

    @Test func aGapOfTwoToTheSixtyThreeEntriesIsADamagedRecordAndNoCrashLoop() throws {
        let directory = TemporaryDirectory()
        let session = LiveHandshake.randomHex()
        do {
            let listener = try Self.listener(directory)
            defer { listener.stop() }
            try Self.stream(HandMadeLog.bytes([Self.header, Self.keyframe, HandMadeLog.gap(firstSeq: "1", dropped: "9223372036854775807")]),
                            session: session, to: listener)
            #expect(listener.waitUntil(timeout: Self.patience, Self.closed(1)))
            #expect(Self.closedReasons(listener) == [#"record 3 of the stream is damaged (a gap record whose "dropped" is not a count from 0 to 1099511627776)"#])
            // The app reconnects: it is welcomed back after the entry that was stored.
            #expect(try Self.stream([], session: session, to: listener) == #"{"kind":"welcome","lastSeq":0}"# + "\n")
        }
        // A log an older listener left with such a gap (or one written by hand) is read on
        // resuming, by every restarted listener: the gap is a damaged record, not a crash.
        let other = LiveHandshake.randomHex()
        try Data(HandMadeLog.bytes([Self.header, Self.keyframe, HandMadeLog.gap(firstSeq: "1", dropped: "9223372036854775807"),
                                    HandMadeLog.gap(firstSeq: "9223372036854775807", dropped: "1")]))
            .write(to: URL(fileURLWithPath: directory.file("app-20260101-000000-\(other).jsonl")))
        for _ in 0..<2 {
            let restarted = try Self.listener(directory)
            defer { restarted.stop() }
            #expect(try Self.stream([], session: other, to: restarted) == #"{"kind":"welcome","lastSeq":0}"# + "\n")
        }
    }

    @Test(arguments: ExtremeNumbersTests.extremes)
    func extremeNumbersInAStreamTrapNothingNowOrOnResuming(_ value: String) throws {
        let directory = TemporaryDirectory()
        let sessions = try ExtremeNumbersTests.logs(with: value).map { _ in LiveHandshake.randomHex() }
        do {
            let listener = try Self.listener(directory)
            defer { listener.stop() }
            for (log, session) in zip(try ExtremeNumbersTests.logs(with: value), sessions) {
                try Self.stream(fileBytes(log), session: session, to: listener)
            }
            #expect(listener.waitUntil(timeout: Self.patience) { $0.eventCount >= sessions.count })
        }
        let restarted = try Self.listener(directory)
        defer { restarted.stop() }
        for session in sessions {
            #expect(try Self.stream([], session: session, to: restarted).hasPrefix(#"{"kind":"welcome""#))
        }
        for log in directory.logs {
            var streams = CapturedStreams()
            #expect(RewindCommandLine.run(["log", log], streams: &streams) == 0, "\(streams.standardError)")
        }
    }

    // MARK: What a stream may hold

    @Test func aSecondHeaderMidStreamStartsASession() throws {
        let directory = TemporaryDirectory()
        let listener = try Self.listener(directory)
        defer { listener.stop() }
        try Self.stream(HandMadeLog.bytes([Self.header, Self.keyframe, HandMadeLog.header(process: "second"), Self.keyframe]), to: listener)
        #expect(listener.waitUntil(timeout: Self.patience, Self.closed(1)))
        #expect(Self.closedReasons(listener).isEmpty, "\(listener.current.events)")
        let reader = try LogReader(path: try #require(directory.logs.first))
        #expect(reader.damage.isEmpty)
        #expect(reader.entryCount == 2)
        #expect(reader.laterSessions.map { $0.header?.processName } == ["second"])
    }

    @Test func aPatchThatCopiesAValueClosesItsConnection() throws {
        let directory = TemporaryDirectory()
        let listener = try Self.listener(directory)
        defer { listener.stop() }
        let copies = String(repeating: #"{"op":"copy","from":"/a","path":"/a/x"},"#, count: 40).dropLast()
        try Self.stream(HandMadeLog.bytes([Self.header, HandMadeLog.keyframe(seq: "0", state: #"{"a":{"b":1}}"#),
                                           HandMadeLog.patch(seq: "1", patch: "[\(copies)]")]), to: listener)
        // Written escaped, the operation's name is the same.
        try Self.stream(HandMadeLog.bytes([Self.header, HandMadeLog.keyframe(seq: "0", state: #"{"a":{"b":1}}"#),
                                           HandMadeLog.patch(seq: "1", patch: #"[{"op":"c\u006fpy","from":"/a","path":"/b"}]"#)]), to: listener)
        #expect(listener.waitUntil(timeout: Self.patience, Self.closed(2)))
        #expect(Self.closedReasons(listener) == Array(repeating: "record 3 of the stream is damaged (its patch copies a value, which no recorder writes)", count: 2))
        for log in directory.logs { #expect(try LogReader(path: log).entryCount == 1) }
    }

    @Test func aLongRecordIsLookedAtOnceHoweverManyReadsItTakes() {
        var framer = LiveRecordFramer(maximumRecordBytes: 8 << 20)
        let record = HandMadeLog.bytes([HandMadeLog.header(extra: #","pad":""# + String(repeating: "x", count: 4 << 20) + #"""#)])
        var records = 0
        for chunk in stride(from: 0, to: record.count, by: 4096) {
            framer.append(record[chunk..<min(record.count, chunk + 4096)])
            guard case .success(let batch) = framer.takeRecords() else { Issue.record("refused"); return }
            records += batch.count
        }
        #expect(records == 1)
        #expect(framer.bytesExamined == record.count, "each byte once: \(framer.bytesExamined) for \(record.count)")
    }

    // MARK: The terminal

    @Test func aRefusedClientsProtocolIsShownEscapedOnOneLine() throws {
        let directory = TemporaryDirectory()
        var streams = CapturedStreams()
        let hello = Array(#"{"kind":"hello","protocol":"\u009b2J\nrecording 10.0.0.1:1 → forged.jsonl","token":"x","session":"0123456789abcdef"}"#.utf8) + [0x0A]
        let status = ListenCommand.run(["--no-ui", "--port", "0", "-o", directory.path, "--token", Self.token], streams: &streams) { listener in
            _ = try? Self.stream([], hello: hello, to: listener)
            listener.waitUntil(timeout: Self.patience) { $0.eventCount >= 1 }
        }
        #expect(status == 0)
        let refused = streams.standardOutput.split(separator: "\n").filter { $0.hasPrefix("refused") }
        #expect(refused.count == 1)
        #expect(refused.first?.hasSuffix(#": unsupported protocol version "\u009b2J\nrecording 10.0.0.1:1 → forged.json…"#) == true, "\(refused)")
        #expect(!streams.standardOutput.unicodeScalars.contains { $0.needsEscapingForTerminal && $0 != "\n" })
        #expect(!streams.standardOutput.contains("\nrecording 10.0.0.1"), "a peer cannot forge a line")
    }

    // MARK: Bounded and fair

    @Test func aReconnectionReadingItsLogDoesNotHoldUpAnotherApp() throws {
        let directory = TemporaryDirectory()
        let slow = LiveHandshake.randomHex()
        let reading = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        // The slow session's log, written before the listener restarted.
        do {
            let earlier = try Self.listener(directory)
            defer { earlier.stop() }
            try Self.stream(HandMadeLog.bytes([Self.header, Self.keyframe]), session: slow, to: earlier)
            #expect(earlier.waitUntil(timeout: Self.patience, Self.closed(1)))
        }
        let listener = try Self.listener(directory) { configuration in
            configuration.willReadLog = { session in
                guard session == slow else { return }
                reading.signal()
                _ = release.wait(timeout: .now() + 3 * Self.patience)
            }
        }
        defer { listener.stop() }
        let reconnection = DispatchGroup()
        let reply = LockedText()
        reconnection.enter()
        DispatchQueue.global().async {
            reply.text = (try? Self.stream([], session: slow, to: listener)) ?? ""
            reconnection.leave()
        }
        #expect(reading.wait(timeout: .now() + Self.patience) == .success)
        // Meanwhile another app is welcomed and records.
        #expect(try Self.stream(HandMadeLog.bytes([Self.header, Self.keyframe]), to: listener).hasPrefix(#"{"kind":"welcome"}"#))
        #expect(listener.waitUntil(timeout: Self.patience, Self.closed(1)))
        release.signal()
        #expect(reconnection.wait(timeout: .now() + Self.patience) == .success)
        #expect(reply.text == #"{"kind":"welcome","lastSeq":0}"# + "\n")
    }

    @Test func theEventListKeepsTheLatestAndCountsTheRest() throws {
        let directory = TemporaryDirectory()
        let listener = try Self.listener(directory) { $0.eventsKept = 2 }
        defer { listener.stop() }
        for _ in 0..<9 { try Self.stream([], token: "wrong-token-0123456789", to: listener) }
        #expect(listener.waitUntil(timeout: Self.patience) { $0.eventCount == 9 })
        let snapshot = listener.current
        #expect(snapshot.events.count < 4)
        let unseen = snapshot.events(after: 3)
        #expect(unseen.missed == 9 - snapshot.events.count - 3)
        #expect(unseen.events.count == snapshot.events.count)
        #expect(snapshot.events(after: 9).events.isEmpty && snapshot.events(after: 9).missed == 0)
    }

    @Test func wrongTokensFromOneAddressAreLimited() throws {
        let directory = TemporaryDirectory()
        let listener = try Self.listener(directory) { configuration in
            configuration.authenticationBurst = 2
            configuration.authenticationInterval = 3600
        }
        defer { listener.stop() }
        var replies: [String] = []
        for token in ["guess-number-one-0123", "guess-number-two-0123", "guess-number-three-01", Self.token] {
            replies.append(try Self.stream(HandMadeLog.bytes([Self.header, Self.keyframe]), token: token, to: listener))
        }
        #expect(replies == [
            #"{"kind":"refused","reason":"wrong token"}"# + "\n",
            #"{"kind":"refused","reason":"wrong token"}"# + "\n",
            #"{"kind":"refused","reason":"too many wrong tokens from 127.0.0.1; try again in 3600 s"}"# + "\n",
            #"{"kind":"refused","reason":"too many wrong tokens from 127.0.0.1; try again in 3600 s"}"# + "\n",
        ])
        #expect(directory.logs.isEmpty)
    }

    @Test func anAddressEarnsTriesBackAndTheAddressesRememberedAreBounded() {
        var limiter = AuthenticationLimiter(burst: 2, interval: 10, maximumAddresses: 3)
        limiter.noteWrongToken(from: "a", at: 0)
        limiter.noteWrongToken(from: "a", at: 0)
        #expect(limiter.wait(for: "a", at: 0) == 10)
        #expect(limiter.wait(for: "a", at: 5) == 5)
        #expect(limiter.wait(for: "a", at: 10) == nil)
        #expect(limiter.wait(for: "b", at: 0) == nil, "another address is not held up")
        // A flood from many addresses: a few are remembered, the rest share one bucket.
        for address in 0..<100 { limiter.noteWrongToken(from: "flood-\(address)", at: 1) }
        #expect(limiter.rememberedAddresses == 3)
        #expect(limiter.wait(for: "flood-99", at: 1) != nil)
    }

    // MARK: Tokens and addresses

    @Test(arguments: ["short-token", "aaaaaaaaaaaaaaaaaaaa", "abababababababababab", "with space 0123456789", #"with"quote0123456789"#, "ünïcödé-0123456789"])
    func aWeakTokenIsRefused(_ token: String) {
        let directory = TemporaryDirectory()
        var streams = CapturedStreams()
        #expect(RewindCommandLine.run(["listen", "--no-ui", "--port", "0", "-o", directory.path, "--token", token], streams: &streams) == 2)
        #expect(streams.standardError == "rewind listen: --token wants 16 to 256 printable ASCII characters (no space, quote or backslash), at least 8 of them different\n")
    }

    @Test func aSavedTokenIsReadWithoutFollowingALinkAndKeptPrivate() throws {
        let directory = TemporaryDirectory()
        let path = directory.file(ListenCommand.tokenFileName)
        try Data("0123456789abcdef0123456789abcdef\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(chmod(path, 0o644) == 0)
        #expect(try ListenCommand.token(given: nil, directory: directory.path).get() == "0123456789abcdef0123456789abcdef")
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)

        try Data("weak\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(ListenCommand.token(given: nil, directory: directory.path).failure?.description.hasPrefix("the token saved in \(path) is too weak") == true)

        unlink(path)
        let elsewhere = directory.file("elsewhere")
        try Data("fedcba9876543210fedcba9876543210\n".utf8).write(to: URL(fileURLWithPath: elsewhere))
        #expect(symlink(elsewhere, path) == 0)
        #expect(ListenCommand.token(given: nil, directory: directory.path).failure != nil, "a link is not followed")
    }

    #if os(Linux)
    /// The token file never exists under its name with the umask's mode: it appears there by a
    /// link, already 0600, and its mode is never changed after (inotify sees every change).
    @Test func theTokenFileIsPrivateFromTheStart() throws {
        let directory = TemporaryDirectory()
        let watcher = inotify_init1(Int32(IN_NONBLOCK))
        try #require(watcher >= 0)
        defer { close(watcher) }
        try #require(inotify_add_watch(watcher, directory.path, UInt32(IN_ATTRIB | IN_CREATE | IN_MOVED_TO)) >= 0)
        let token = try ListenCommand.token(given: nil, directory: directory.path).get()
        var changes: [(mask: UInt32, name: String)] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let count = read(watcher, &buffer, buffer.count)
        var offset = 0
        while offset + MemoryLayout<inotify_event>.size <= max(0, count) {
            let (mask, length) = buffer.withUnsafeBytes { ($0.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self), Int($0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))) }
            let nameStart = offset + MemoryLayout<inotify_event>.size
            changes.append((mask, String(decoding: buffer[nameStart..<(nameStart + length)].prefix { $0 != 0 }, as: UTF8.self)))
            offset = nameStart + length
        }
        let name = ListenCommand.tokenFileName
        #expect(changes.contains { $0.name == name && $0.mask & UInt32(IN_CREATE) != 0 }, "linked into place: \(changes)")
        #expect(!changes.contains { $0.name == name && $0.mask & UInt32(IN_ATTRIB | IN_MOVED_TO) != 0 },
                "never renamed into place nor changed under its name: \(changes)")
        #expect(try FileManager.default.attributesOfItem(atPath: directory.file(name))[.posixPermissions] as? Int == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [name], "no temporary file left")
        #expect(try String(contentsOfFile: directory.file(name), encoding: .utf8) == token + "\n")
    }
    #endif

    @Test(arguments: ["0", "0.0", "0x0", "*", "0.0.0.0", "::"])
    func everyInterfaceIsWarnedAboutWhateverItsSpelling(_ address: String) {
        let directory = TemporaryDirectory()
        var streams = CapturedStreams()
        let status = ListenCommand.run(["--no-ui", "--port", "0", "--bind", address, "-o", directory.path], streams: &streams) { _ in }
        #expect(status == 0, "\(streams.standardError)")
        #expect(streams.standardOutput.contains("(listening on every interface: from a device, use this machine's address instead of \(address))"))
        #expect(streams.standardError.hasPrefix("rewind listen: warning: \(address) can be reached from other machines, and nothing is encrypted: the token and every state travel in clear text"),
                "\(streams.standardError)")
    }

    @Test func loopbackIsNotWarnedAbout() {
        for address in ["127.0.0.1", "127.0.0.2", "::1", "localhost"] {
            let directory = TemporaryDirectory()
            var streams = CapturedStreams()
            #expect(ListenCommand.run(["--no-ui", "--port", "0", "--bind", address, "-o", directory.path], streams: &streams) { _ in } == 0)
            #expect(streams.standardError == "", "\(address)")
        }
    }
}

/// Text set on one thread and read on another after a wait.
private final class LockedText: @unchecked Sendable {
    private let lock = NSLock()
    private var value = ""
    var text: String {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}

extension Result {
    var failure: Failure? { if case .failure(let error) = self { error } else { nil } }
}
