import Foundation
import Recorder
import RewindQuery

/// Runs the inspector's `:find` and `:bisect` on `rewind find`'s engine
/// (``QueryScan``: chunks of the log on every core, only the values at the
/// query's paths followed from entry to entry), off the session's thread, and
/// hands what it finds to the session as events. One search at a time: a new
/// one, or Esc, stops the one before between two entries.
final class QueryWorker: Sendable {
    private let queue = DispatchQueue(label: "rewind.inspector.query", qos: .userInitiated)
    private let inbox = EventInbox()
    /// The search that may go on: a newer one, or a cancel, ends the one before.
    private let current = CurrentJob()

    /// Starts searching `reader` for `query`; reports come as `queryProgress` and `queryFinished` with `job`.
    func start(job: Int, kind: QueryScanProgress.Kind, query: Query, reader: LogReader) {
        current.start(job)
        let stopRequested: @Sendable () -> Bool = { [current] in !current.isCurrent(job) }
        inbox.begin()
        queue.async { [self] in
            defer { inbox.end() }
            guard current.isCurrent(job) else { return }
            switch kind {
            case .find:
                var scan = QueryScan(reader: reader, query: query, mode: .matches)
                scan.stopRequested = stopRequested
                scan.run { report in
                    // The index may still be growing: the share is of what it has found so far.
                    let fraction = Double(report.range.upperBound) / Double(max(1, reader.entryCount))
                    post(.queryProgress(job: job, newMatches: report.hits.map(\.index), fraction: min(1, fraction)))
                    return true
                }
                if current.isCurrent(job) { post(.queryFinished(job: job, firstBreak: nil)) }
            case .bisect:
                if let found = QueryScan.firstBreak(of: query, in: reader, stopRequested: stopRequested) {
                    post(.queryFinished(job: job, firstBreak: found))
                }
            }
        }
    }

    /// Stops the search `job` if it is the one running (its reports stop).
    func cancel(job: Int) { current.cancel(job) }

    private func post(_ event: InspectorEvent) { inbox.post(event) }

    /// True when nothing is queued, running, or waiting to be taken.
    var isIdle: Bool { inbox.isIdle }

    /// Events since the last call, in order.
    func takeEvents() -> [InspectorEvent] { inbox.take() }

    /// Blocks until every search started so far has ended (tests, benchmarks).
    func waitUntilIdle() { queue.sync {} }
}
