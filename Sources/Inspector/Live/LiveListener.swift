import Foundation
import Recorder

/// What `rewind listen` runs: accepts apps recording with
/// `ActionRecorder(streamingTo:token:)`, checks their token, and writes each
/// recording's records, checked exactly as a log file's are, to its own log in
/// `directory`. A reconnecting app continues its log where it stopped.
///
/// ```swift
/// let listener = try LiveListener(.init(address: LiveAddress(host: "127.0.0.1", port: 0), directory: dir, token: token))
/// print(listener.address)   // 127.0.0.1:43817
/// listener.stop()
/// ```
///
/// `@unchecked Sendable`: mutable state is guarded by `condition`.
package final class LiveListener: @unchecked Sendable {
    package struct Configuration: Sendable {
        package var address: LiveAddress
        package var directory: String
        package var token: String
        /// A record longer than this closes its connection (the log reader's limit by default).
        package var maximumRecordBytes = LogReader.maximumLineBytes
        /// How long an app has to say hello after connecting.
        package var helloTimeout = 5.0
        /// Wrong tokens one address may send at once, and the seconds it then waits for each
        /// further try (``AuthenticationLimiter``).
        package var authenticationBurst = 5
        package var authenticationInterval = 1.0
        /// The latest events kept for ``Snapshot/events``: older ones are dropped, so a flood
        /// of refused connections does not grow the listener's memory.
        package var eventsKept = 1000
        /// Called on a connection's thread before it reads a session's log from disk (without
        /// the listener's lock); tests hold a reconnection there.
        package var willReadLog: (@Sendable (_ session: String) -> Void)?

        package init(address: LiveAddress, directory: String, token: String) {
            self.address = address
            self.directory = directory
            self.token = token
        }
    }

    /// Something people watching the listener should know.
    package enum Event: Equatable, Sendable, CustomStringConvertible {
        /// An app's recording started (or `resumed` after a reconnection) in `path`.
        case connected(peer: String, path: String, resumed: Bool)
        /// A connection was turned away before anything was written.
        case refused(peer: String, reason: String)
        /// A connection ended: `reason` is nil when the app closed its recorder.
        case closed(peer: String, path: String?, reason: String?)
        /// A gap record arrived: `count` entries from number `firstEntry` of the log at `path`
        /// were not delivered (the app's queue for the stream was full, a connection was lost)
        /// or not recorded, for the app's `reason`.
        case gap(peer: String, path: String, firstEntry: Int, count: Int, reason: String?)

        /// One line: what a peer sent (a refused client's protocol value, before it
        /// authenticated) is escaped, so it can neither control the terminal nor forge a line.
        package var description: String {
            switch self {
            case .connected(let peer, let path, let resumed): "\(resumed ? "resumed" : "recording") \(peer) → \(path.escapingControlCharacters)"
            case .refused(let peer, let reason): "refused \(peer): \(reason.escapingControlCharacters)"
            case .closed(let peer, let path, nil): "finished \(path?.escapingControlCharacters ?? "(no log)") (\(peer))"
            case .closed(let peer, let path, let reason?):
                "closed \(peer)\(path.map { " (\($0.escapingControlCharacters))" } ?? ""): \(reason.escapingControlCharacters)"
            case .gap(let peer, let path, let first, let count, let reason):
                // Numbers from the stream are the app's: never trusted not to overflow.
                "gap in \(path.escapingControlCharacters) (\(peer)): " + (count <= 1 ? "entry \(first)" : "entries \(first)–\(first.addingReportingOverflow(count - 1).partialValue)")
                    + " not recorded"
                    + (reason.map { ": " + GapReason.readable($0).escapingControlCharacters } ?? "")
            }
        }
    }

    /// What the listener holds, for waiters.
    package struct Snapshot {
        /// The latest events (at most `Configuration.eventsKept`, up to twice that between trims).
        package var events: [Event] = []
        /// Events since the listener started: ``events`` are the last of them.
        package var eventCount = 0
        /// Each log written so far, with the last sequence number it holds.
        package var recordings: [String: Int64?] = [:]

        /// The events after the first `seen` of all, and how many of those are no longer kept.
        package func events(after seen: Int) -> (missed: Int, events: ArraySlice<Event>) {
            let firstKept = eventCount - events.count
            let missed = max(0, firstKept - seen)
            return (missed, events[max(0, seen - firstKept)...])
        }
    }

    package let configuration: Configuration
    /// The address bound (with the port the system chose for port 0).
    package var address: LiveAddress { socket.address }

    private let socket: ListeningSocket
    private let onEvent: @Sendable (Event) -> Void
    private let condition = NSCondition()
    private var snapshot = Snapshot()
    private var sessions: [String: Session] = [:]
    /// Sessions whose log a connection is reading (off the lock): another connection for
    /// the same session waits for it; other apps do not.
    private var opening: Set<String> = []
    private var limiter: AuthenticationLimiter
    private var connections: [Int: LiveSocket] = [:]
    private var nextConnection = 0
    private var stopped = false
    private let threads = DispatchGroup()

    private final class Session {
        let log: LiveSessionLog
        var owner: Int
        init(log: LiveSessionLog, owner: Int) {
            self.log = log
            self.owner = owner
        }
    }

    /// Binds and starts accepting on a thread of its own.
    package init(_ configuration: Configuration, onEvent: @escaping @Sendable (Event) -> Void = { _ in }) throws(LiveListenError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: configuration.directory, isDirectory: &isDirectory), isDirectory.boolValue,
              access(configuration.directory, W_OK) == 0 else {
            throw LiveListenError("\(configuration.directory): not a writable directory")
        }
        self.configuration = configuration
        self.onEvent = onEvent
        limiter = AuthenticationLimiter(burst: configuration.authenticationBurst, interval: configuration.authenticationInterval)
        socket = try ListeningSocket(binding: configuration.address)
        threads.enter()
        Platform.startThread(named: "rewind-listen") { [self] in
            acceptConnections()
            threads.leave()
        }
    }

    /// Stops at once, as if killed: the listening socket and every connection are
    /// closed without waiting for apps. Returns when every thread has ended.
    package func stop() {
        condition.withLock {
            stopped = true
            for connection in connections.values { connection.shutdownBoth() }
        }
        socket.close()
        threads.wait()
    }

    /// Waits until `predicate` holds for what the listener has done (or `timeout` seconds pass).
    @discardableResult
    package func waitUntil(timeout: Double, _ predicate: (Snapshot) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !predicate(snapshot) {
            if !condition.wait(until: deadline) { return predicate(snapshot) }
        }
        return true
    }

    package var current: Snapshot { condition.withLock { snapshot } }

    /// True when the listener is bound to a loopback address only (127.0.0.0/8, ::1): nothing
    /// from another machine can reach it.
    package var isLoopbackOnly: Bool { socket.isLoopback }

    /// True when the listener is bound to every interface (0.0.0.0 or ::, however it was spelled).
    package var isEveryInterface: Bool { socket.isUnspecified }

    // MARK: Connections

    private func acceptConnections() {
        while let (connection, peer, host) = socket.accept() {
            let number: Int? = condition.withLock {
                guard !stopped else { return nil }
                nextConnection += 1
                connections[nextConnection] = connection
                return nextConnection
            }
            guard let number else {
                connection.close()
                break
            }
            threads.enter()
            // Its own thread, with a stack for the deepest record a log accepts.
            Platform.startThread(named: "rewind-listen-connection") { [self] in
                serve(connection, number: number, peer: peer, host: host)
                condition.withLock { _ = connections.removeValue(forKey: number) }
                connection.close()
                threads.leave()
            }
        }
    }

    private func report(_ event: Event) {
        condition.withLock {
            snapshot.events.append(event)
            snapshot.eventCount += 1
            // Trimmed in steps, so that keeping the latest costs nothing per event.
            let kept = max(1, configuration.eventsKept)
            if snapshot.events.count >= 2 * kept { snapshot.events.removeFirst(snapshot.events.count - kept) }
            condition.broadcast()
        }
        onEvent(event)
    }

    /// Seconds on a clock that only goes forward, for the authentication limit.
    private static func monotonicSeconds() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    private func serve(_ connection: LiveSocket, number: Int, peer: String, host: String) {
        var buffer: [UInt8] = []
        let hello: LiveHandshake.Hello
        switch readHello(connection, into: &buffer) {
        case .failure(let error):
            _ = connection.send(LiveHandshake.line(.refused(reason: error.description)), timeout: 1)
            return report(.refused(peer: peer, reason: error.description))
        case .success(let received):
            hello = received
        }
        // Out of tries: refused before its token is compared, so a guess costs a wait.
        let outcome: (wait: Double?, matches: Bool) = condition.withLock {
            let now = Self.monotonicSeconds()
            if let wait = limiter.wait(for: host, at: now) { return (wait, false) }
            let matches = LiveListener.tokensMatch(hello.token, configuration.token)
            if !matches { limiter.noteWrongToken(from: host, at: now) }
            return (nil, matches)
        }
        if let wait = outcome.wait {
            let reason = "too many wrong tokens from \(host); try again in \(Int(wait.rounded(.up))) s"
            _ = connection.send(LiveHandshake.line(.refused(reason: reason)), timeout: 1)
            return report(.refused(peer: peer, reason: reason))
        }
        guard outcome.matches else {
            _ = connection.send(LiveHandshake.line(.refused(reason: "wrong token")), timeout: 1)
            return report(.refused(peer: peer, reason: "wrong token"))
        }
        // An ended recording's log is closed (one descriptor per live connection, not per
        // recording ever seen); a reconnection finds it again on disk.
        defer {
            condition.withLock {
                if sessions[hello.session]?.owner == number { sessions[hello.session] = nil }
            }
        }
        let resumed = claimSession(hello.session, connection: number)
        let existing: LiveSessionLog?
        switch resumed {
        case .failure(let error):
            _ = connection.send(LiveHandshake.line(.refused(reason: error.description)), timeout: 1)
            return report(.refused(peer: peer, reason: error.description))
        case .success(let log):
            existing = log
        }
        let lastSequence = condition.withLock { existing?.lastSequence }
        let welcome = LiveHandshake.Reply.welcome(lastSequence: lastSequence, acknowledgements: hello.acknowledgements)
        guard connection.send(LiveHandshake.line(welcome), timeout: 5) == nil else {
            return report(.closed(peer: peer, path: existing?.path, reason: "the app went away during the handshake"))
        }
        var stream = RecordStream(connection: connection, buffer: buffer, maximumRecordBytes: configuration.maximumRecordBytes)
        var log = existing
        if let log { report(.connected(peer: peer, path: log.path, resumed: true)) }
        while true {
            let batch: RecordStream.Batch
            switch stream.next() {
            case .end:
                return report(.closed(peer: peer, path: log?.path, reason: stream.recordsRead == 0 && log == nil ? "the app sent no records" : nil))
            case .failure(let reason):
                return report(.closed(peer: peer, path: log?.path, reason: reason))
            case .records(let records):
                batch = records
            }
            // Written under the lock, so a takeover (see above) is exact.
            let outcome: Result<Stored, LiveListenError> = condition.withLock {
                if stopped { return .failure(LiveListenError("the listener stopped")) }
                var skip: Range<Int>?
                var created: Event?
                if let first = batch.records.first, first.isFirstOfStream {
                    guard first.kind == .header else { return .failure(LiveListenError("the stream does not start with a Rewind header")) }
                    // A resuming app sends its header again; the log has it already.
                    skip = first.range
                    if log == nil {
                        do throws(LiveListenError) {
                            let made = try LiveSessionLog.create(header: Array(batch.bytes[first.range]), session: hello.session, in: configuration.directory)
                            sessions[hello.session] = Session(log: made, owner: number)
                            log = made
                            created = .connected(peer: peer, path: made.path, resumed: false)
                        } catch {
                            return .failure(error)
                        }
                    }
                }
                guard let log, sessions[hello.session]?.owner == number else {
                    return .failure(LiveListenError("the app reconnected on another connection"))
                }
                do throws(LiveListenError) {
                    if let skip {
                        if skip.upperBound < batch.bytes.count { try log.append(Array(batch.bytes[skip.upperBound...])) }
                    } else {
                        try log.append(batch.bytes)
                    }
                } catch {
                    return .failure(error)
                }
                var gaps: [Event] = []
                for record in batch.records where record.range != skip {
                    if case .gap(_, let count) = record.kind {
                        gaps.append(.gap(peer: peer, path: log.path, firstEntry: log.nextEntryNumber, count: Int(clamping: count),
                                         reason: LiveSessionLog.reason(ofGap: batch.bytes[record.range])))
                    }
                    log.noteStored(record.kind)
                }
                snapshot.recordings[log.path] = log.lastSequence
                condition.broadcast()
                return .success(Stored(created: created, gaps: gaps, lastSequence: log.lastSequence))
            }
            let stored: Stored
            switch outcome {
            case .failure(let error): return report(.closed(peer: peer, path: log?.path, reason: error.description))
            case .success(let result): stored = result
            }
            if let created = stored.created { report(created) }
            for gap in stored.gaps { report(gap) }
            // What the log now holds, for an app that counts what reached it.
            if hello.acknowledgements, let last = stored.lastSequence,
               let failure = connection.send(LiveHandshake.receivedLine(lastSequence: last), timeout: 5) {
                return report(.closed(peer: peer, path: log?.path, reason: "the app did not take the listener's confirmation: \(failure)"))
            }
        }
    }

    /// The log of `session` for connection `number`: taken over from the connection that
    /// had it, or read from disk (nil: none yet). Reading a long log takes seconds, so it
    /// is done without the lock: other apps' hellos go on meanwhile; only a connection for
    /// the same session waits.
    private func claimSession(_ session: String, connection number: Int) -> Result<LiveSessionLog?, LiveListenError> {
        let claimed: LiveSessionLog?? = condition.withLock {
            while opening.contains(session) && !stopped { condition.wait() }
            if let registered = sessions[session] {
                // The app reconnected before this side noticed the old connection died: the newest wins.
                connections[registered.owner]?.shutdownBoth()
                registered.owner = number
                return .some(registered.log)
            }
            opening.insert(session)
            return .none
        }
        if let claimed { return .success(claimed) }
        configuration.willReadLog?(session)
        let read: Result<LiveSessionLog?, LiveListenError>
        do throws(LiveListenError) {
            read = .success(try LiveSessionLog.existing(session: session, in: configuration.directory))
        } catch {
            read = .failure(error)
        }
        condition.withLock {
            opening.remove(session)
            if case .success(let log?) = read { sessions[session] = Session(log: log, owner: number) }
            condition.broadcast()
        }
        return read
    }

    private func readHello(_ connection: LiveSocket, into buffer: inout [UInt8]) -> Result<LiveHandshake.Hello, HelloProblem> {
        let deadline = Date(timeIntervalSinceNow: configuration.helloTimeout)
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = buffer[..<newline]
                defer { buffer.removeSubrange(...newline) }
                return LiveHandshake.hello(from: line).mapError { HelloProblem($0.description) }
            }
            guard buffer.count <= LiveHandshake.maximumLineBytes else { return .failure(HelloProblem("the hello is too long")) }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return .failure(HelloProblem("no hello within \(configuration.helloTimeout) s")) }
            switch connection.receive(into: &buffer, maximum: LiveHandshake.maximumLineBytes, timeout: left) {
            case .success(0): return .failure(HelloProblem("the connection closed before its hello"))
            case .success: continue
            case .failure(let failure): return .failure(HelloProblem(failure.isTimeout ? "no hello within \(configuration.helloTimeout) s" : failure.description))
            }
        }
    }

    /// Compares every byte, so the time taken says nothing about how much of a guess was right.
    static func tokensMatch(_ given: String, _ expected: String) -> Bool {
        let given = Array(given.utf8)
        let expected = Array(expected.utf8)
        var difference = UInt8(given.count == expected.count ? 0 : 1)
        for index in 0..<expected.count { difference |= expected[index] ^ (index < given.count ? given[index] : 0) }
        return difference == 0
    }
}

/// What storing one batch of a connection's records did.
private struct Stored {
    /// The connection's recording started (its log was created).
    var created: LiveListener.Event?
    /// A `gap` event per gap record stored.
    var gaps: [LiveListener.Event]
    /// The last sequence number the log holds.
    var lastSequence: Int64?
}

/// Why a connection's first line was not an acceptable hello.
struct HelloProblem: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
