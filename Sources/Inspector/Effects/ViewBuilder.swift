import Foundation
import Recorder

/// Builds the panes' view of an entry whose states take long to read (a keyframe of
/// a 30 MB state) on a background queue, so the keys keep working meanwhile; hands
/// the result back as an event. Only the newest job is built: one that a newer
/// selection replaced (or Esc stopped) before it started is skipped, and a result
/// nobody waits for any more is dropped.
final class ViewBuilder: @unchecked Sendable {
    // Unchecked: `wanted`, `events` and `running` are only touched under `lock`; `source` is a
    // concurrent reader (LogTimeline), made to be read from several threads.
    private let source: any TimelineSource & Sendable
    private let queue = DispatchQueue(label: "rewind.inspector.view", qos: .userInitiated)
    private let lock = NSLock()
    /// The job the model waits for; nil after Esc.
    private var wanted: Int?
    private var events: [InspectorEvent] = []
    /// Jobs queued or running.
    private var running = 0

    init(source: any TimelineSource & Sendable) {
        self.source = source
    }

    func build(_ request: ViewRequest, job: Int) {
        lock.withLock { wanted = job; running += 1 }
        queue.async { [self] in
            defer { lock.withLock { running -= 1 } }
            guard lock.withLock({ wanted == job }) else { return }
            let view = SelectionView.build(request, source: source)
            lock.withLock { if wanted == job { events.append(.viewBuilt(job: job, view: view)) } }
        }
    }

    /// Waits at most `limit` for the job started last; its event when it is done by then.
    /// Most big views take a few milliseconds: waiting for those spares the screen a frame
    /// that says "reading…", while one that takes long still leaves the keys free.
    func waitBriefly(_ limit: Duration) -> [InspectorEvent] {
        let done = DispatchSemaphore(value: 0)
        queue.async { done.signal() }
        let nanoseconds = Int(limit.components.seconds) * 1_000_000_000 + Int(limit.components.attoseconds / 1_000_000_000)
        guard done.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success else { return [] }
        return takeEvents()
    }

    /// Works out old and new of history rows, after any view being built.
    func describe(_ changes: [ValueChange]) {
        lock.withLock { running += 1 }
        queue.async { [self] in
            defer { lock.withLock { running -= 1 } }
            var described: [Int: ValueChangeText.Values] = [:]
            for change in changes { described[change.entry] = ValueChangeText.values(of: change, source: source) }
            lock.withLock { events.append(.changesDescribed(described)) }
        }
    }

    /// Nothing is waited for any more (Esc).
    func stop() { lock.withLock { wanted = nil } }

    /// True when nothing is queued, running, or waiting to be taken.
    var isIdle: Bool { lock.withLock { running == 0 && events.isEmpty } }

    /// Events since the last call, in order.
    func takeEvents() -> [InspectorEvent] {
        lock.withLock {
            defer { events = [] }
            return events
        }
    }

    /// Blocks until every job started so far is built or skipped (tests).
    func waitUntilIdle() { queue.sync {} }
}
