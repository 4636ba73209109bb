import Foundation

/// Events a background worker posts from its queue for the session to take on
/// its own thread (``EffectRunner/takeEvents()``), in the order they were posted.
final class EventInbox: @unchecked Sendable {
    // @unchecked: `events` and `running` are only touched under `lock`.
    private let lock = NSLock()
    private var events: [InspectorEvent] = []
    /// Jobs queued or running that may still post.
    private var running = 0

    func post(_ event: InspectorEvent) { lock.withLock { events.append(event) } }

    /// A job was queued: until its ``end()``, the worker is not idle.
    func begin() { lock.withLock { running += 1 } }

    /// A job ended (at the end of the block it runs in).
    func end() { lock.withLock { running -= 1 } }

    /// True when no job is queued or running and nothing waits to be taken: the session may
    /// then sleep until a key without ticking for news.
    var isIdle: Bool { lock.withLock { running == 0 && events.isEmpty } }

    /// Events since the last call, in order.
    func take() -> [InspectorEvent] {
        lock.withLock {
            defer { events = [] }
            return events
        }
    }
}

/// Which of a worker's jobs may go on: starting one ends the one before, and a
/// cancelled job stops at its next look (``isCurrent(_:)``) and reports nothing.
final class CurrentJob: @unchecked Sendable {
    // @unchecked: `job` is only touched under `lock`.
    private let lock = NSLock()
    private var job: Int?

    func start(_ job: Int) { lock.withLock { self.job = job } }

    /// Ends `job` if it is the current one.
    func cancel(_ job: Int) { lock.withLock { if self.job == job { self.job = nil } } }

    func isCurrent(_ job: Int) -> Bool { lock.withLock { self.job == job } }

    /// Ends whichever job is current (Esc: nothing is waited for any more).
    func end() { lock.withLock { job = nil } }
}

/// Numbers for a worker's jobs, one after another, for a worker whose caller does not number them.
final class JobNumbers: @unchecked Sendable {
    // @unchecked: `last` is only touched under `lock`.
    private let lock = NSLock()
    private var last = 0

    func next() -> Int { lock.withLock { last += 1; return last } }
}
