import Foundation

/// The app's end of live recording: takes the writer thread's records into a
/// bounded ``LiveBacklog`` and sends them to `rewind listen` from a thread of
/// its own, so neither the app nor the writer ever waits for the network.
/// When the listener is slow or gone, the backlog fills and then drops entries
/// (a gap record says which); this thread reconnects by itself, with backoff.
/// A listener that acknowledges says what it has written, so the entries that
/// never reached it are known and reported at close.
///
/// `@unchecked Sendable`: every mutable property is guarded by `condition`.
final class LiveSink: RecordSink, @unchecked Sendable {
    let address: LiveAddress
    /// Names this recording across reconnections (the listener appends to the same log).
    let session = LiveHandshake.randomHex()
    private let token: String

    private let condition = NSCondition()
    private var backlog: LiveBacklog
    private var keyframeRequested = false
    private var refusal: RecorderError?
    private var refusalHandler: (@Sendable (RecorderError) -> Void)?
    private var closing = false
    /// The connection being sent on, so `close` can wake a blocked send.
    private var socket: LiveSocket?
    private var inFlight = false
    /// True while connecting (from the start), so closing right away still delivers.
    private var connecting = true
    /// Bumped whenever bytes were handed to the socket, so waiters see progress.
    private var sentBatches = 0
    /// The current connection's listener confirms what it has written (`received` lines).
    private var acknowledged = false
    /// Bumped on every confirmation, so waiters see progress.
    private var confirmations = 0
    /// Set by ``close(patience:)``: the entries the listener's log lacks, and why when some never reached it.
    private var closedWith: (missing: Int, loss: RecorderError?)?

    /// Waits between reconnection attempts: from 50 ms, doubling up to 1 s.
    static let firstRetryDelay = 0.05
    static let longestRetryDelay = 1.0
    static let connectTimeout = 1.0
    /// A listener that accepts nothing for this long is treated as gone.
    static let sendTimeout = 5.0

    init(address: LiveAddress, token: String, capacity: Int) {
        self.address = address
        self.token = token
        backlog = LiveBacklog(capacity: capacity)
        Platform.startThread(named: "rewind-live") { [self] in run() }
    }

    // MARK: The writer thread's side

    func write(_ bytes: [UInt8]) throws(RecorderError) {
        condition.lock()
        defer { condition.unlock() }
        guard !closing, refusal == nil else { return }
        if backlog.admit(bytes) { keyframeRequested = true }
        condition.broadcast()
    }

    func synchronize() throws(RecorderError) {}

    /// The listener's address, for errors.
    var path: String { address.description }
    /// A live stream starts a recording of its own: numbered from 0 (a file beside it, in a TeeSink, decides).
    var nextSequence: Int64 { 0 }

    /// The stream is closed by ``close(patience:)``, which waits for what is queued.
    func closeFile() {}

    func checkStillLinked() throws(RecorderError) {
        if let refusal = condition.withLock({ refusal }) { throw refusal }
    }

    func takeKeyframeRequest() -> Bool {
        condition.withLock {
            defer { keyframeRequested = false }
            return keyframeRequested
        }
    }

    // MARK: The app's side

    /// Calls `handler` once when the listener refuses the stream (at once if it already has).
    func onRefusal(_ handler: @escaping @Sendable (RecorderError) -> Void) {
        let refused: RecorderError? = condition.withLock {
            refusalHandler = handler
            return refusal
        }
        if let refused { handler(refused) }
    }

    /// Entries the listener's log lacks so far because it was slow or unreachable (its gap
    /// records name them); after ``close(patience:)``, also those that never reached it.
    var droppedEntries: Int { condition.withLock { closedWith?.missing ?? backlog.droppedEntries } }

    /// After ``close(patience:)``: why entries never reached the listener (it was gone, or did not
    /// confirm them in time), when some did not; nil when its log has every entry or a gap for it.
    var lossAtClose: RecorderError? { condition.withLock { closedWith?.loss } }

    /// Why the listener refused the stream (a wrong token), once it has.
    var refusalError: RecorderError? { condition.withLock { refusal } }

    /// Waits until what is queued has been sent (and, to a listener that acknowledges,
    /// confirmed), as long as the connection keeps taking bytes: returns at once when
    /// disconnected, or after `patience` seconds without progress.
    func waitUntilSent(patience: Double) {
        condition.lock()
        defer { condition.unlock() }
        while (socket != nil || connecting) && (!backlog.isEmpty || inFlight || (acknowledged && backlog.awaitsConfirmation)) {
            let before = (sentBatches, connecting, confirmations)
            if !condition.wait(until: Date(timeIntervalSinceNow: patience)) && before == (sentBatches, connecting, confirmations) { return }
        }
    }

    /// Sends what is queued (see `waitUntilSent`: a connection attempt in progress
    /// counts as progress), then closes the connection, counting what never reached
    /// the listener (``droppedEntries``, ``lossAtClose``).
    func close(patience: Double) {
        waitUntilSent(patience: patience)
        condition.withLock {
            closing = true
            let missing = backlog.undeliveredEntries
            let lost = missing - backlog.droppedEntries
            var loss: RecorderError?
            if lost > 0 && refusal == nil {
                let why = socket == nil ? "the listener was unreachable when the recorder closed"
                    : "the listener did not confirm them within \(patience) s of the recorder closing"
                loss = RecorderError(.entriesNotStreamed, path: address.description, reason: "\(lost) \(lost == 1 ? "entry" : "entries") never reached the listener (\(why)); "
                    + "\(missing) \(missing == 1 ? "entry is" : "entries are") missing from its log in all (liveDroppedEntries)")
            }
            closedWith = (missing, loss)
            if inFlight { socket?.shutdownBoth() }
            condition.broadcast()
        }
    }

    // MARK: The sending thread

    private func run() {
        var delay = LiveSink.firstRetryDelay
        while !condition.withLock({ closing || refusal != nil }) {
            condition.withLock { connecting = true }
            let attempt = connect()
            let refusedHandler: (@Sendable (RecorderError) -> Void)? = condition.withLock {
                // In one step with `socket` and `refusal`, so a waiter never sees neither.
                connecting = false
                defer { condition.broadcast() }
                switch attempt {
                case .success(let (socket, lastSequence, acknowledgements)):
                    if backlog.resume(listenerHolds: lastSequence) { keyframeRequested = true }
                    self.socket = socket
                    acknowledged = acknowledgements
                case .failure(.refused(let reason)):
                    refusal = RecorderError(.streamRefused, path: address.description, reason: "the listener refused the stream: \(reason)")
                    backlog = LiveBacklog(capacity: backlog.capacity)
                    return refusalHandler
                case .failure(.unreachable):
                    break
                }
                return nil
            }
            switch attempt {
            case .success(let (socket, _, _)):
                delay = LiveSink.firstRetryDelay
                send(on: socket)
                condition.withLock {
                    self.socket = nil
                    condition.broadcast()
                }
                socket.close()
            case .failure(.refused):
                if let refusedHandler, let refusal = refusalError { refusedHandler(refusal) }
            case .failure(.unreachable):
                condition.lock()
                if !closing { _ = condition.wait(until: Date(timeIntervalSinceNow: delay)) }
                condition.unlock()
                delay = min(delay * 2, LiveSink.longestRetryDelay)
            }
        }
    }

    private enum ConnectFailure: Error {
        case unreachable
        case refused(String)
    }

    /// Connects, says hello and reads the listener's reply: what it holds of the session, and whether it acknowledges.
    private func connect() -> Result<(LiveSocket, Int64?, Bool), ConnectFailure> {
        guard case .success(let socket) = LiveSocket.connect(to: address, timeout: LiveSink.connectTimeout) else {
            return .failure(.unreachable)
        }
        let hello = LiveHandshake.Hello(token: token, session: session, acknowledgements: true)
        guard socket.send(LiveHandshake.line(hello), timeout: LiveSink.sendTimeout) == nil else {
            socket.close()
            return .failure(.unreachable)
        }
        var reply: [UInt8] = []
        while !reply.contains(0x0A) && reply.count < LiveHandshake.maximumLineBytes {
            guard case .success(let count) = socket.receive(into: &reply, maximum: LiveHandshake.maximumLineBytes, timeout: LiveSink.sendTimeout),
                  count > 0 else { break }
        }
        guard let newline = reply.firstIndex(of: 0x0A) else {
            socket.close()
            return .failure(.unreachable)
        }
        switch LiveHandshake.reply(from: reply[..<newline]) {
        case .success(.welcome(let lastSequence, let acknowledgements)):
            return .success((socket, lastSequence, acknowledgements))
        case .success(.refused(let reason)):
            socket.close()
            return .failure(.refused(reason))
        case .failure(let error):
            socket.close()
            return .failure(.refused(error.description))
        }
    }

    /// Sends batches until the connection fails or the sink closes with nothing left;
    /// between batches, reads what a listener that acknowledges has written.
    private func send(on socket: LiveSocket) {
        var replies: [UInt8] = []
        while true {
            condition.lock()
            while backlog.isEmpty && !closing {
                guard acknowledged && backlog.awaitsConfirmation else {
                    condition.wait()
                    continue
                }
                // Sent, not yet confirmed: listen for the confirmation, a moment at a time, without the lock.
                condition.unlock()
                let connected = readReplies(on: socket, into: &replies, timeout: LiveSink.confirmationPoll)
                condition.lock()
                if !connected {
                    condition.unlock()
                    return
                }
            }
            if backlog.isEmpty {
                condition.unlock()
                return
            }
            let bytes = backlog.takeAll()
            inFlight = true
            let acknowledges = acknowledged
            condition.unlock()
            let failure = readReplies(on: socket, into: &replies, timeout: 0) ? socket.send(bytes, timeout: LiveSink.sendTimeout)
                : LiveSocket.Failure("closed by the listener")
            condition.withLock {
                inFlight = false
                sentBatches += 1
                // A listener that does not acknowledge: what the connection took counts as arrived.
                if failure == nil && !acknowledges { backlog.confirmSent() }
                condition.broadcast()
            }
            if failure != nil { return }
        }
    }

    /// How long the sending thread listens for a confirmation before looking at the queue again.
    static let confirmationPoll = 0.05

    /// Reads what the listener sent within `timeout` seconds: `received` lines confirm records.
    /// Returns false when it hung up, or said anything else (a listener that does not
    /// acknowledge never speaks after its reply: anything readable is its end of the stream).
    private func readReplies(on socket: LiveSocket, into pending: inout [UInt8], timeout: Double) -> Bool {
        switch socket.receive(into: &pending, maximum: LiveHandshake.maximumLineBytes, timeout: timeout) {
        case .success(0): return false
        case .success: break
        case .failure(let failure): return failure.isTimeout
        }
        while let newline = pending.firstIndex(of: 0x0A) {
            guard let last = LiveHandshake.received(from: pending[..<newline]) else { return false }
            pending.removeSubrange(...newline)
            condition.withLock {
                backlog.confirm(upTo: last)
                confirmations += 1
                condition.broadcast()
            }
        }
        return pending.count <= LiveHandshake.maximumLineBytes
    }
}
