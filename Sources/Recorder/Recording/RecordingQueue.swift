import Foundation

/// One reducer call as the caller's thread hands it over: copies of the
/// (copy-on-write) values, encoded later by the writer thread.
struct PendingEntry {
    var sequence: Int64 = 0
    /// Monotonic clock reading when the reducer returned.
    var endNanoseconds: UInt64
    var durationNanoseconds: UInt64
    var action: Any
    var state: Any
    var effectOf: Int64?
    /// The state before the first action of a wrapper, for the header.
    var initialState: Any?
    var stateType: Any.Type
    var actionType: Any.Type
    /// Set instead of being encoded by the writer when the type reaches class
    /// instances (see ``CallerThreadEncoding``).
    var encodedState: EncodedDocument?
    var encodedInitialState: EncodedDocument?
    var encodedPayload: RecordedValue.EncodedPayload?
    /// Outside values the reducer read through ``Recorded`` (the `values` member; see EntryExtras).
    var recordedValues: [CapturedValue] = []
    /// Where the action was dispatched (the `trace` member; see EntryExtras).
    var trace: CapturedTrace?
}

enum QueueItem {
    case entry(PendingEntry)
    case gap(firstSequence: Int64, count: Int)
}

/// The bounded hand-off between reducer threads and the writer thread.
///
/// Sequence numbers are taken under the same lock that appends to the queue,
/// so their order is the order in which entries were handed over; the caller
/// hands over right after its reducer returns, inside the store's own
/// serialisation of reducer calls, so this is the order the reducer ran.
///
/// `@unchecked Sendable`: all mutable state is guarded by `condition`. The
/// queued values are copies the caller no longer touches (value types);
/// values that reach class instances arrive already encoded (see
/// ``CallerThreadEncoding``).
final class RecordingQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [QueueItem] = []
    private var nextSequence: Int64 = 0
    private var handedOver = 0
    private var processed = 0
    private var dropped: (first: Int64, count: Int)?
    private var closing = false
    private var stopped = false
    let capacity: Int
    let policy: ActionRecorder.QueuePolicy

    init(capacity: Int, policy: ActionRecorder.QueuePolicy, firstSequence: Int64 = 0) {
        nextSequence = firstSequence
        self.capacity = max(1, capacity)
        self.policy = policy
        items.reserveCapacity(self.capacity)
    }

    /// Hands over an entry; returns its sequence number, or nil when recording has
    /// stopped. With the drop policy a full queue drops the entry (its number is
    /// still used, and a gap record will count it).
    @discardableResult
    func enqueue(_ entry: PendingEntry) -> Int64? {
        condition.lock()
        defer { condition.unlock() }
        guard !stopped && !closing else { return nil }
        if items.count >= capacity {
            switch policy {
            case .drop:
                let sequence = nextSequence
                nextSequence += 1
                dropped = (dropped?.first ?? sequence, (dropped?.count ?? 0) + 1)
                return sequence
            case .wait:
                while items.count >= capacity && !stopped && !closing { condition.wait() }
                guard !stopped && !closing else { return nil }
            }
        }
        appendPendingGap()
        var entry = entry
        entry.sequence = nextSequence
        nextSequence += 1
        items.append(.entry(entry))
        handedOver += 1
        if items.count == 1 { condition.broadcast() }
        return entry.sequence
    }

    private func appendPendingGap() {
        if let run = dropped {
            items.append(.gap(firstSequence: run.first, count: run.count))
            handedOver += 1
            dropped = nil
        }
    }

    /// The writer's side: waits for items; nil once closed and drained, or stopped.
    func takeBatch() -> [QueueItem]? {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty && dropped == nil && !closing && !stopped { condition.wait() }
        if stopped { return nil }
        appendPendingGap()
        if items.isEmpty { return nil }
        let batch = items
        items.removeAll(keepingCapacity: true)
        condition.broadcast()
        return batch
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
        if dropped != nil {
            appendPendingGap()
            condition.broadcast()
        }
        let target = handedOver
        while processed < target && !stopped { condition.wait() }
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
