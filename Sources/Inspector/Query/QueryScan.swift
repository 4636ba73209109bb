import Foundation
import Recorder

/// Runs a query over every entry of a log, on all cores: the log is cut into
/// chunks, each chunk's states are rebuilt one patch at a time from the state
/// before it (``LogReader/scanStates(_:keepingPrevious:_:)``), and the chunks'
/// results are handed over in log order as they are ready, so output streams.
struct QueryScan: Sendable {
    enum Mode: Sendable {
        /// Every entry whose state satisfies the query.
        case matches
        /// Only the first of those.
        case first
        /// Entries where the query's truth flips (the first entry with a state counts when it is true).
        case changes
    }

    /// An entry the scan reports, and the query's truth there (always true except in `.changes`).
    struct Hit: Sendable, Equatable {
        var index: Int
        var truth: Bool
    }

    /// What one chunk found.
    struct ChunkReport: Sendable {
        var range: Range<Int>
        var hits: [Hit] = []
        /// `.changes`: the chunk's first entry with a state, reported apart
        /// because whether it flipped depends on the chunks before.
        var firstWithState: Hit?
        /// `.changes`: the truth at the chunk's last entry with a state.
        var lastTruth: Bool?
        /// Entries skipped because their state is unavailable (damage, a gap).
        var unavailable = 0
    }

    let reader: LogReader
    let query: Query
    let mode: Mode
    /// Entries per chunk; a chunk starts from one rebuilt state, so it is large.
    var chunkEntries = 16_384
    /// Threads; 1 scans on the calling thread.
    var workers = ProcessInfo.processInfo.activeProcessorCount

    init(reader: LogReader, query: Query, mode: Mode) {
        self.reader = reader
        self.query = query
        self.mode = mode
    }

    /// Scans `range` (default: every entry) and hands each chunk's hits to
    /// `report`, in log order, on the calling thread, until it returns false.
    /// In `.changes` the hits are already stitched across chunks; in `.first`
    /// scanning stops at the first hit.
    func run(_ range: Range<Int>? = nil, report: (ChunkReport) -> Bool) {
        let range = range ?? 0..<reader.entryCount
        let chunks = stride(from: range.lowerBound, to: range.upperBound, by: chunkEntries).map {
            $0..<min(range.upperBound, $0 + chunkEntries)
        }
        var carried: Bool?   // `.changes`: the truth at the last entry with a state so far
        var keepGoing = true
        let stitch = { (report: inout ChunkReport) in
            guard mode == .changes else { return }
            if let first = report.firstWithState, first.truth != (carried ?? false) {
                report.hits.insert(first, at: 0)
            }
            if let last = report.lastTruth { carried = last }
        }
        if workers <= 1 || chunks.count <= 1 {
            for chunk in chunks where keepGoing {
                var chunkReport = scan(chunk, stopAfterFirst: mode == .first)
                stitch(&chunkReport)
                keepGoing = report(chunkReport) && !(mode == .first && !chunkReport.hits.isEmpty)
            }
            return
        }
        ParallelInOrder.run(count: chunks.count, workers: workers, work: { scan(chunks[$0], stopAfterFirst: mode == .first) }) { chunkReport in
            var chunkReport = chunkReport
            stitch(&chunkReport)
            return report(chunkReport) && !(mode == .first && !chunkReport.hits.isEmpty)
        }
    }

    /// The query over one chunk.
    func scan(_ chunk: Range<Int>, stopAfterFirst: Bool) -> ChunkReport {
        var result = ChunkReport(range: chunk)
        let readsPrevious = query.readsPreviousState
        reader.scanStates(chunk, keepingPrevious: readsPrevious) { step in
            guard step.state != nil else {
                result.unavailable += 1
                return true
            }
            let truth = query.matches(QueryInput(state: step.state, previousState: step.previousState, actionType: step.actionType))
            switch mode {
            case .matches, .first:
                if truth { result.hits.append(Hit(index: step.index, truth: true)) }
                return !(stopAfterFirst && truth)
            case .changes:
                if let last = result.lastTruth {
                    if last != truth { result.hits.append(Hit(index: step.index, truth: truth)) }
                } else {
                    result.firstWithState = Hit(index: step.index, truth: truth)
                }
                result.lastTruth = truth
                return true
            }
        }
        return result
    }
}

