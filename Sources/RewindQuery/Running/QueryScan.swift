import Foundation
import Recorder

/// Runs a query over every entry of a log, on all cores: the log is cut into
/// chunks, in each chunk the values at the query's paths follow the patches
/// from the state before it (``LogReader/scanPathValues(_:paths:_:)``), and the chunks'
/// results are handed over in log order as they are ready, so output streams.
/// The engine of `rewind find`, `rewind bisect` and the inspector's `:find` and `:bisect`.
package struct QueryScan: Sendable {
    package enum Mode: Sendable {
        /// Every entry whose state satisfies the query.
        case matches
        /// Only the first of those.
        case first
        /// Entries where the query's truth flips (the first entry with a state counts when it is true).
        case changes
    }

    /// An entry the scan reports, and the query's truth there (always true except in `.changes`).
    package struct Hit: Sendable, Equatable {
        package var index: Int
        package var truth: Bool

        package init(index: Int, truth: Bool) {
            self.index = index
            self.truth = truth
        }
    }

    /// What one chunk found.
    package struct ChunkReport: Sendable {
        package var range: Range<Int>
        package var hits: [Hit] = []
        /// `.changes`: the chunk's first entry with a state, reported apart
        /// because whether it flipped depends on the chunks before.
        var firstWithState: Hit?
        /// `.changes`: the truth at the chunk's last entry with a state.
        var lastTruth: Bool?
        /// Entries skipped because their state is unavailable (damage, a gap).
        package var unavailable = 0
    }

    package let reader: LogReader
    package let query: Query
    package let mode: Mode
    /// Entries per chunk; a chunk starts from one rebuilt state, so it is large.
    package var chunkEntries = 16_384
    /// Threads; 1 scans on the calling thread.
    package var workers = ProcessInfo.processInfo.activeProcessorCount
    /// Asked between entries: true stops the scan (the inspector's Esc), chunks
    /// already reported staying reported. Nil: the scan runs to its end.
    package var stopRequested: (@Sendable () -> Bool)?

    package init(reader: LogReader, query: Query, mode: Mode) {
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
    package func run(_ range: Range<Int>? = nil, report: (ChunkReport) -> Bool) {
        var carried: Bool?   // `.changes`: the truth at the last entry with a state so far
        let stitch = { (report: inout ChunkReport) in Self.stitch(&report, mode: mode, after: &carried) }
        let (reader, chunkEntries, start, stopRequested) = (self.reader, self.chunkEntries, range?.lowerBound ?? 0, self.stopRequested)
        ParallelInOrder.run(workers: workers, work: { [self] item -> ChunkReport? in
            let lower = start + item * chunkEntries
            var upper = lower + chunkEntries
            if let range { upper = min(upper, range.upperBound) }
            guard lower < upper, stopRequested?() != true, Self.waitForIndex(of: reader, toReach: upper) > lower else { return nil }
            return scan(lower..<min(upper, reader.entryCount), stopAfterFirst: mode == .first)
        }) { chunkReport in
            var chunkReport = chunkReport
            stitch(&chunkReport)
            return report(chunkReport) && !(mode == .first && !chunkReport.hits.isEmpty) && stopRequested?() != true
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
    package func runIndexing() -> ChunkReport {
        let judge = StepJudge(query: query, mode: mode, stopRequested: stopRequested)
        var result = ChunkReport(range: 0..<0)
        reader.indexingScanPathValues(paths: query.distinctPaths) { step in judge.take(step, into: &result) }
        result.range = 0..<reader.entryCount
        var carried: Bool?
        Self.stitch(&result, mode: mode, after: &carried)
        return result
    }

    /// Waits until the reader has indexed `entries` entries or all there are;
    /// returns how many it has. The index grows on another thread (``LogReader/indexMore(maxBytes:)``),
    /// which does not signal: a short sleep between looks costs nothing next to a chunk's scan.
    package static func waitForIndex(of reader: LogReader, toReach entries: Int) -> Int {
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
        var judge = StepJudge(query: query, mode: mode, stopRequested: stopRequested)
        judge.stopsAtFirstHit = stopAfterFirst
        reader.scanPathValues(chunk, paths: query.distinctPaths) { step in judge.take(step, into: &result) }
        return result
    }
}

extension QueryScan {
    /// Where a condition first stops holding (`bisect`): the first entry whose
    /// state does not satisfy `query`, and the entries before it whose state
    /// could not be rebuilt, so whether it held there is unknown.
    package struct FirstBreak: Sendable, Equatable {
        /// The first entry where the query is false; nil when it holds wherever it could be checked.
        package var entry: Int?
        /// Entries before ``entry`` (or in the whole log) that could not be checked.
        package var unchecked: [Int]

        package init(entry: Int?, unchecked: [Int]) {
            self.entry = entry
            self.unchecked = unchecked
        }
    }

    /// Looks for ``FirstBreak`` in `reader`, on `workers` threads: the scan for the
    /// query's negation in `.first` mode, then, only on a log with entries it could
    /// not check, one more pass over the same paths to find which they were.
    /// `stopRequested` as in ``stopRequested``; a stopped search returns nil.
    package static func firstBreak(of query: Query, in reader: LogReader, workers: Int = ProcessInfo.processInfo.activeProcessorCount,
                                   stopRequested: (@Sendable () -> Bool)? = nil) -> FirstBreak? {
        var found: Int?
        var uncheckedCount = 0
        let negation = Query(negating: query)
        var scan = QueryScan(reader: reader, query: negation, mode: .first)
        scan.workers = workers
        scan.stopRequested = stopRequested
        scan.run { report in
            uncheckedCount += report.unavailable
            found = report.hits.first?.index
            return true
        }
        if stopRequested?() == true { return nil }
        var unchecked: [Int] = []
        if uncheckedCount > 0 {
            reader.scanPathValues(0..<(found ?? reader.entryCount), paths: negation.distinctPaths) { step in
                if !step.isReadable || step.values == nil { unchecked.append(step.index) }
                return stopRequested?() != true
            }
        }
        if stopRequested?() == true { return nil }
        return FirstBreak(entry: found, unchecked: unchecked)
    }
}

/// The query at one entry of a path scan, and what that adds to its chunk's report.
private struct StepJudge {
    let mode: QueryScan.Mode
    let predicate: QueryPredicate
    let stopRequested: (@Sendable () -> Bool)?
    var stopsAtFirstHit: Bool

    init(query: Query, mode: QueryScan.Mode, stopRequested: (@Sendable () -> Bool)?) {
        self.mode = mode
        predicate = query.predicate
        self.stopRequested = stopRequested
        stopsAtFirstHit = mode == .first
    }

    /// Adds the entry's verdict to `result`; false when the scan should stop.
    func take(_ step: PathScanStep, into result: inout QueryScan.ChunkReport) -> Bool {
        if let stopRequested, stopRequested() { return false }
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
