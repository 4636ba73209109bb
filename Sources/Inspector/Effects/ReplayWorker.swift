import Foundation
import Recorder

/// Replays (`r`) and checks compatibility on background queues, each on a
/// verifier of its own (``ReplayEngine/makeVerifier()``), and hands the session
/// progress and results as events. A replay that was cancelled or replaced by
/// a newer one stops at its next entry and reports nothing.
final class ReplayWorker: Sendable {
    /// Separate queues: a long replay never holds back the compatibility report.
    private let replayQueue = DispatchQueue(label: "rewind.inspector.replay", qos: .userInitiated)
    private let checkQueue = DispatchQueue(label: "rewind.inspector.compatibility", qos: .utility)
    private let inbox = EventInbox()
    /// The replay that may go on: a newer one, or a cancel, ends the one before.
    private let current = CurrentJob()

    /// Replays from `start` to the last entry; progress about every 1%.
    func replay(_ verifier: any ReplayVerifier, from start: Int, job: Int) {
        current.start(job)
        let handed = HandedOver(verifier)
        inbox.begin()
        replayQueue.async { [self] in
            defer { inbox.end() }
            let verifier = handed.value
            let total = max(1, verifier.entryCount - start)
            let step = max(1, total / 100)
            let run = verifier.replay(from: start, stopAtFirstProblem: false) { index in
                guard isCurrent(job) else { return false }
                let done = index - start
                if done > 0 && done % step == 0 { post(.replayProgress(job: job, fraction: Double(done) / Double(total))) }
                return true
            }
            if isCurrent(job) { post(.replayFinished(job: job, run: run)) }
        }
    }

    func cancel(job: Int) {
        current.cancel(job)
    }

    /// Extends `check` over the entries up to `end`; progress about every 1%.
    func checkCompatibility(_ verifier: any ReplayVerifier, continuing check: CompatibilityCheck, through end: Int) {
        let handed = HandedOver(verifier)
        inbox.begin()
        checkQueue.async { [self] in
            defer { inbox.end() }
            let step = max(1, (end - check.checkedEntries) / 100)
            let result = handed.value.checkCompatibility(continuing: check, through: end) { index in
                if index > check.checkedEntries && (index - check.checkedEntries) % step == 0 { post(.compatibilityProgress(checked: index)) }
                return true
            }
            post(.compatibilityChecked(result))
        }
    }

    private func isCurrent(_ job: Int) -> Bool { current.isCurrent(job) }

    private func post(_ event: InspectorEvent) { inbox.post(event) }

    /// True when nothing is queued, running, or waiting to be taken.
    var isIdle: Bool { inbox.isIdle }

    /// Events since the last call, in order.
    func takeEvents() -> [InspectorEvent] { inbox.take() }

    /// Blocks until every replay and check started so far is done (tests).
    func waitUntilIdle() {
        replayQueue.sync {}
        checkQueue.sync {}
    }
}

/// A value made for one background job and used only on the job's queue after
/// it is handed over: nothing else holds it, so sending it across is sound.
private struct HandedOver<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
