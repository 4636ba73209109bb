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

    /// Scans `range` (default: every entry, including those the reader's
    /// background indexing has yet to find) and hands each chunk's hits to
    /// `report`, in log order, on the calling thread, until it returns false.
    /// In `.changes` the hits are already stitched across chunks; in `.first`
    /// scanning stops at the first hit.
    ///
    /// A chunk is scanned as soon as the index covers it, so on a log opened
    /// with background indexing the scan runs alongside the index.
    func run(_ range: Range<Int>? = nil, report: (ChunkReport) -> Bool) {
        var carried: Bool?   // `.changes`: the truth at the last entry with a state so far
        let stitch = { (report: inout ChunkReport) in
            guard mode == .changes else { return }
            if let first = report.firstWithState, first.truth != (carried ?? false) {
                report.hits.insert(first, at: 0)
            }
            if let last = report.lastTruth { carried = last }
        }
        let (reader, chunkEntries, start) = (self.reader, self.chunkEntries, range?.lowerBound ?? 0)
        ParallelInOrder.run(workers: workers, work: { [self] item -> ChunkReport? in
            let lower = start + item * chunkEntries
            var upper = lower + chunkEntries
            if let range { upper = min(upper, range.upperBound) }
            guard lower < upper, Self.waitForIndex(of: reader, toReach: upper) > lower else { return nil }
            return scan(lower..<min(upper, reader.entryCount), stopAfterFirst: mode == .first)
        }) { chunkReport in
            var chunkReport = chunkReport
            stitch(&chunkReport)
            return report(chunkReport) && !(mode == .first && !chunkReport.hits.isEmpty)
        }
    }

    /// Waits until the reader has indexed `entries` entries or all there are;
    /// returns how many it has. The index grows on another thread (``LogReader/indexMore(maxBytes:)``),
    /// which does not signal: a short sleep between looks costs nothing next to a chunk's scan.
    static func waitForIndex(of reader: LogReader, toReach entries: Int) -> Int {
        while reader.entryCount < entries && !reader.isFullyIndexed { usleep(500) }
        return reader.entryCount
    }

    /// The query over one chunk.
    ///
    /// `changed /x` reads the state before each entry: the scan keeps the
    /// values at those paths from one entry to the next (``PreviousPathValues``)
    /// rather than the whole previous state, which would make every patch copy
    /// the containers it edits.
    func scan(_ chunk: Range<Int>, stopAfterFirst: Bool) -> ChunkReport {
        var result = ChunkReport(range: chunk)
        let changedPaths = query.changedPaths
        var previous: PreviousPathValues?
        if !changedPaths.isEmpty, !chunk.isEmpty {
            // The state before the chunk, as the state scan starts from it.
            let before = chunk.lowerBound == 0 ? reader.header.initialState : try? reader.state(at: chunk.lowerBound - 1)
            previous = PreviousPathValues(paths: changedPaths, of: before)
        }
        reader.scanStates(chunk, keepingPrevious: false) { step in
            defer {
                if previous != nil {
                    // An entry that does not read has no state of its own, but `state(at:)`
                    // still rebuilds one there (from its patch alone): the next entry's `changed` compares with it.
                    let after = step.isReadable ? step.state : try? reader.state(at: step.index)
                    previous = PreviousPathValues(paths: changedPaths, of: after)
                }
            }
            guard step.state != nil else {
                result.unavailable += 1
                return true
            }
            let truth = query.matches(QueryInput(state: step.state, actionType: step.actionType, previousValues: previous))
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

