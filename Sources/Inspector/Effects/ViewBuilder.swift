import Foundation
import Recorder

/// Builds the panes' view of an entry whose states take long to read (a keyframe of
/// a 30 MB state) on a background queue, so the keys keep working meanwhile; hands
/// the result back as an event. Only the newest job is built: one that a newer
/// selection replaced (or Esc stopped) before it started is skipped, and a result
/// nobody waits for any more is dropped.
final class ViewBuilder: Sendable {
    /// A concurrent reader (LogTimeline), made to be read from several threads.
    private let source: any TimelineSource & Sendable
    private let queue = DispatchQueue(label: "rewind.inspector.view", qos: .userInitiated)
    private let inbox = EventInbox()
    /// The view the model waits for: a newer one, or Esc, ends the one before.
    private let current = CurrentJob()

    init(source: any TimelineSource & Sendable) {
        self.source = source
    }

    func build(_ request: ViewRequest, job: Int) {
        current.start(job)
        inbox.begin()
        queue.async { [self] in
            defer { inbox.end() }
            guard current.isCurrent(job) else { return }
            let view = SelectionView.build(request, source: source)
            if current.isCurrent(job) { inbox.post(.viewBuilt(job: job, view: view)) }
            // What building it parsed and let go (a huge diff's first items) leaves the process.
            Platform.returnFreedMemoryToTheSystem()
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
        inbox.begin()
        queue.async { [self] in
            defer { inbox.end() }
            var described: [Int: ValueChangeText.Values] = [:]
            for change in changes { described[change.entry] = ValueChangeText.values(of: change, source: source) }
            inbox.post(.changesDescribed(described))
        }
    }

    /// Nothing is waited for any more (Esc).
    func stop() { current.end() }

    /// True when nothing is queued, running, or waiting to be taken.
    var isIdle: Bool { inbox.isIdle }

    /// Events since the last call, in order.
    func takeEvents() -> [InspectorEvent] { inbox.take() }

    /// Blocks until every job started so far is built or skipped (tests).
    func waitUntilIdle() { queue.sync {} }
}
