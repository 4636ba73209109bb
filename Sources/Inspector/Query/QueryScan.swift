import Foundation
import Recorder

/// Runs a query over every entry of a log, on all cores: the log is cut into
/// chunks, in each chunk the values at the query's paths follow the patches
/// from the state before it (``LogReader/scanPathValues(_:paths:_:)``), and the chunks'
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
        let stitch = { (report: inout ChunkReport) in Self.stitch(&report, mode: mode, after: &carried) }
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

    /// `.changes`: a chunk's first entry with a state is a hit when the
    /// query's truth there differs from the last one `carried` from the chunks before.
    private static func stitch(_ report: inout ChunkReport, mode: Mode, after carried: inout Bool?) {
        guard mode == .changes else { return }
        if let first = report.firstWithState, first.truth != (carried ?? false) {
            report.hits.insert(first, at: 0)
        }
        if let last = report.lastTruth { carried = last }
    }

    /// The query over every entry of a reader opened with only the start of
    /// its file indexed, on the calling thread, indexing the rest as it goes
    /// (``LogReader/indexingScanPathValues(paths:_:)``: each line is read from
    /// the file once). For `rewind find DIR`, which searches one recording per
    /// core; one report for the whole log, the index complete afterwards
    /// (unless `.first` stopped at a hit).
    func runIndexing() -> ChunkReport {
        let judge = StepJudge(query: query, mode: mode)
        var result = ChunkReport(range: 0..<0)
        reader.indexingScanPathValues(paths: judge.paths) { step in judge.take(step, into: &result) }
        result.range = 0..<reader.entryCount
        var carried: Bool?
        Self.stitch(&result, mode: mode, after: &carried)
        return result
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
    /// Only the values at the query's paths are kept from one entry to the
    /// next (``LogReader/scanPathValues(_:paths:_:)``), not whole states: a
    /// patch is applied to those values where that is exact, and keyframes are
    /// not walked past them. `changed /x` compares with the value before the
    /// entry, which the scan hands over too.
    func scan(_ chunk: Range<Int>, stopAfterFirst: Bool) -> ChunkReport {
        var result = ChunkReport(range: chunk)
        var judge = StepJudge(query: query, mode: mode)
        judge.stopsAtFirstHit = stopAfterFirst
        reader.scanPathValues(chunk, paths: judge.paths) { step in judge.take(step, into: &result) }
        return result
    }
}

/// The query at one entry of a path scan, and what that adds to its chunk's report.
private struct StepJudge {
    let mode: QueryScan.Mode
    let paths: [JSONPointer]
    let predicate: PathScanPredicate
    var stopsAtFirstHit: Bool

    init(query: Query, mode: QueryScan.Mode) {
        self.mode = mode
        paths = query.distinctPaths
        predicate = PathScanPredicate(query, paths: paths)
        stopsAtFirstHit = mode == .first
    }

    /// Adds the entry's verdict to `result`; false when the scan should stop.
    func take(_ step: PathScanStep, into result: inout QueryScan.ChunkReport) -> Bool {
        guard step.isReadable, let values = step.values else {
            result.unavailable += 1
            return true
        }
        let truth = predicate.matches(values: values, previous: step.previousValues, actionType: step.actionType)
        switch mode {
        case .matches, .first:
            if truth { result.hits.append(QueryScan.Hit(index: step.index, truth: true)) }
            return !(stopsAtFirstHit && truth)
        case .changes:
            if let last = result.lastTruth {
                if last != truth { result.hits.append(QueryScan.Hit(index: step.index, truth: truth)) }
            } else {
                result.firstWithState = QueryScan.Hit(index: step.index, truth: truth)
            }
            result.lastTruth = truth
            return true
        }
    }
}

