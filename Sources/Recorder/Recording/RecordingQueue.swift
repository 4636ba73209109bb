import Foundation

enum QueueItem {
    case entry(PendingEntry)
    case gap(firstSequence: Int64, count: Int, cause: QueueLimit)
}

/// Which of the queue's bounds a `.drop` queue met when it dropped entries.
struct QueueLimit: OptionSet {
    let rawValue: Int
    /// `queueCapacity` entries were waiting.
    static let count = QueueLimit(rawValue: 1)
    /// The entries not yet encoded held an estimated `queueBytes`.
    static let memory = QueueLimit(rawValue: 2)
}

/// The bounded hand-off between reducer threads and the writer thread.
///
/// Sequence numbers are taken under the same lock that appends to the queue,
/// so their order is the order in which entries were handed over; the caller
/// hands over right after its reducer returns, inside the store's own
/// serialisation of reducer calls, so this is the order the reducer ran.
///
/// Two bounds: `capacity` entries waiting for the writer, and the memory of
/// every entry not yet encoded (waiting, or in the batch the writer is
/// working through), estimated as that many times the size of the last state
/// the writer encoded: a copy of a state the app then changed keeps about
/// that much alive. Past either, `.wait` blocks the caller until the writer
/// makes room and `.drop` drops the entry (a gap record counts it). The entry
/// handed over while nothing is unencoded is always taken, however large.
///
/// Waking the writer costs the caller a system call, and where the writer's
/// core is idle an interrupt to it, which was most of what recording added to
/// a dispatch at an app's pace (docs/PERFORMANCE.md, `## Recorder`). So while
/// actions keep coming the writer is not woken: it looks for entries every
/// ``pollInterval`` on its own. Once none came for ``pollingWindow`` it sleeps
/// until the next entry wakes it, so an idle app costs nothing; `close()` and
/// a caller blocked by `.wait` wake it too.
///
/// `@unchecked Sendable`: all mutable state is guarded by `condition`. The
/// queued values are copies the caller no longer touches (value types);
/// values that reach class instances arrive already encoded (see
/// ``CallerThreadEncoding``).
final class RecordingQueue: @unchecked Sendable {
    private let condition = NSCondition()
    // Unchecked exclusivity: every access is under `condition` (a dynamic check costs
    // the caller a thread-local lookup per access).
    @exclusivity(unchecked) private var items: [QueueItem] = []
    @exclusivity(unchecked) private var nextSequence: Int64 = 0
    @exclusivity(unchecked) private var handedOver = 0
    @exclusivity(unchecked) private var processed = 0
    /// Entries handed over whose state the writer has not yet encoded (and let go of).
    @exclusivity(unchecked) private var unencoded = 0
    /// The size of the last state the writer encoded: the estimate of one entry's memory.
    @exclusivity(unchecked) private var entryBytesEstimate = 0
    /// Callers blocked by `.wait` until the writer makes room.
    @exclusivity(unchecked) private var waitingForRoom = 0
    @exclusivity(unchecked) private var dropped: (first: Int64, count: Int, cause: QueueLimit)?
    @exclusivity(unchecked) private var closing = false
    @exclusivity(unchecked) private var stopped = false
    /// The writer waits without a timeout: the next entry must wake it.
    @exclusivity(unchecked) private var writerSleeps = false
    /// When the writer last found entries (monotonic nanoseconds).
    @exclusivity(unchecked) private var lastEntriesFound: UInt64 = 0
    /// How often the writer looks for entries while actions keep coming, in
    /// microseconds: an entry reaches the log at most this long (plus its encoding)
    /// after its action.
    static let pollInterval: useconds_t = 1_000
    /// How long after the last entry the writer keeps looking before it sleeps.
    static let pollingWindow: UInt64 = 100_000_000
    let capacity: Int
    /// The bound on the estimated memory of unencoded entries.
    let byteLimit: Int
    let policy: ActionRecorder.QueuePolicy

    init(capacity: Int, byteLimit: Int = .max, policy: ActionRecorder.QueuePolicy, firstSequence: Int64 = 0) {
        nextSequence = firstSequence
        self.capacity = max(1, capacity)
        self.byteLimit = max(0, byteLimit)
        self.policy = policy
        items.reserveCapacity(min(self.capacity, 1_024))
    }

    /// Hands over an entry; returns its sequence number, or nil when recording has
    /// stopped. With the drop policy a full queue drops the entry (its number is
    /// still used, and a gap record will count it).
    @discardableResult
    func enqueue(_ entry: PendingEntry) -> Int64? {
        condition.lock()
        defer { condition.unlock() }
        guard !stopped && !closing else { return nil }
        if let limit = limitReached() {
            switch policy {
            case .drop:
                let sequence = nextSequence
                nextSequence += 1
                if let run = dropped {
                    dropped = (run.first, run.count + 1, run.cause.union(limit))
                } else {
                    dropped = (sequence, 1, limit)
                }
                return sequence
            case .wait:
                waitingForRoom += 1
                wakeWriter()
                while limitReached() != nil && !stopped && !closing { condition.wait() }
                waitingForRoom -= 1
                guard !stopped && !closing else { return nil }
            }
        }
        appendPendingGap()
        entry.sequence = nextSequence
        nextSequence += 1
        items.append(.entry(entry))
        handedOver += 1
        unencoded += 1
        wakeWriter()
        return entry.sequence
    }

    /// Wakes the writer if it sleeps; a polling writer finds the entries on its own (called under the lock).
    private func wakeWriter() {
        guard writerSleeps else { return }
        writerSleeps = false
        condition.broadcast()
    }

    /// Which bound one more entry would cross, if any (called under the lock).
    private func limitReached() -> QueueLimit? {
        if items.count >= capacity { return .count }
        guard unencoded > 0 && entryBytesEstimate > 0 else { return nil }
        let (bytes, overflow) = (unencoded + 1).multipliedReportingOverflow(by: entryBytesEstimate)
        return overflow || bytes > byteLimit ? .memory : nil
    }

    private func appendPendingGap() {
        if let run = dropped {
            items.append(.gap(firstSequence: run.first, count: run.count, cause: run.cause))
            handedOver += 1
            dropped = nil
        }
    }

    /// The writer's side: waits for items; nil once closed and drained, or stopped.
    func takeBatch() -> [QueueItem]? {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty && dropped == nil && !closing && !stopped {
            if Platform.monotonicNanoseconds() &- lastEntriesFound < Self.pollingWindow {
                // A relative sleep outside the lock, not a timed wait: a timed wait's deadline
                // is wall-clock time, and a clock set back would hold the writer that long.
                condition.unlock()
                usleep(Self.pollInterval)
                condition.lock()
            } else {
                writerSleeps = true
                condition.wait()
            }
        }
        writerSleeps = false
        lastEntriesFound = Platform.monotonicNanoseconds()
        if stopped { return nil }
        appendPendingGap()
        if items.isEmpty { return nil }
        let batch = items
        items.removeAll(keepingCapacity: true)
        condition.broadcast()
        return batch
    }

    /// The writer's side: one entry's state is encoded (`stateBytes` long) and its
    /// copies let go of, so it no longer counts against the memory bound.
    func entryEncoded(stateBytes: Int) {
        condition.lock()
        unencoded -= 1
        if stateBytes > 0 { entryBytesEstimate = stateBytes }
        if waitingForRoom > 0 { condition.broadcast() }
        condition.unlock()
    }

    /// The writer's side: the size of a state it encoded outside an entry (the
    /// header's initial state), so the first entries are bounded before one is encoded.
    func noteEncodedState(bytes: Int) {
        guard bytes > 0 else { return }
        condition.lock()
        entryBytesEstimate = bytes
        condition.unlock()
    }

    func markProcessed(_ count: Int) {
        condition.lock()
        processed += count
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until everything handed over so far has been written (or recording stopped).
    func waitUntilWritten() {
        condition.lock()
        defer { condition.unlock() }
        if dropped != nil { appendPendingGap() }
        // A sleeping writer has nothing to write unless that gap was just queued; a polling one comes by itself.
        if !items.isEmpty { wakeWriter() }
        let target = handedOver
        while processed < target && !stopped { condition.wait() }
    }

    /// Callers blocked by `.wait` until the writer makes room (for tests).
    var callersWaitingForRoom: Int {
        condition.lock()
        defer { condition.unlock() }
        return waitingForRoom
    }

    /// Whether the writer waits without a timeout, for the next entry to wake it (for tests).
    var isWriterAsleep: Bool {
        condition.lock()
        defer { condition.unlock() }
        return writerSleeps
    }

    /// After a write error: refuse and discard everything, wake every waiter.
    func stop() {
        condition.lock()
        stopped = true
        items.removeAll()
        dropped = nil
        condition.broadcast()
        condition.unlock()
    }

    /// No more entries; the writer drains what is queued, then finishes.
    func close() {
        condition.lock()
        closing = true
        condition.broadcast()
        condition.unlock()
    }
}
