import Foundation

/// Events a background worker posts from its queue for the session to take on
/// its own thread (``EffectRunner/takeEvents()``), in the order they were posted.
final class EventInbox: @unchecked Sendable {
    // @unchecked: `events` is only touched under `lock`.
    private let lock = NSLock()
    private var events: [InspectorEvent] = []

    func post(_ event: InspectorEvent) { lock.withLock { events.append(event) } }

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
}
