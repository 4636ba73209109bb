import Foundation
import Testing
@testable import Recorder
@testable import RewindQuery

/// The scan `rewind find` runs (states rebuilt one patch at a time, in chunks
/// on several threads, records skimmed rather than parsed) against the plain
/// definition: every entry's state rebuilt on its own with `state(at:)`.
/// Random logs with arrays that grow and shrink, keyframes, gaps, lines that
/// fail their checksum, sealed records that do not read and patches that do
/// not apply; inserts, removals, moves and copies under and beside the query
/// paths (the scan follows only the values at those paths: each of these must
/// move them as the whole state moves); random conditions in every mode.
@Suite struct QueryScanAgreementTests {
    /// What the definition says a query finds in `reader`.
    struct Expected {
        var matches: [Int] = []
        var changes: [QueryScan.Hit] = []
        var unavailable = 0
        /// `bisect`: the first entry where the query is false, and the entries before it without a state.
        var firstBreak = QueryScan.FirstBreak(entry: nil, unchecked: [])
    }

    static func expected(_ query: Query, in reader: LogReader) -> Expected {
        var result = Expected()
        var last = false
        for index in 0..<reader.entryCount {
            guard let after = try? reader.state(at: index), let entry = try? reader.entry(at: index) else {
                result.unavailable += 1
                if result.firstBreak.entry == nil { result.firstBreak.unchecked.append(index) }
                continue
            }
            let before = index == 0 ? reader.header.initialState : try? reader.state(at: index - 1)
            let truth = query.matches(QueryInput(state: after, previousState: before, actionType: entry.action.name))
            if truth { result.matches.append(index) }
            if !truth, result.firstBreak.entry == nil { result.firstBreak.entry = index }
            if truth != last { result.changes.append(QueryScan.Hit(index: index, truth: truth)) }
            last = truth
        }
        return result
    }

    static func scan(_ query: Query, in reader: LogReader, mode: QueryScan.Mode, chunk: Int, workers: Int) -> (hits: [QueryScan.Hit], unavailable: Int) {
        var scan = QueryScan(reader: reader, query: query, mode: mode)
        scan.chunkEntries = chunk
        scan.workers = workers
        var hits: [QueryScan.Hit] = []
        var unavailable = 0
        scan.run { report in
            hits += report.hits
            unavailable += report.unavailable
            return true
        }
        return (hits, unavailable)
    }

    @Test func theScanFindsWhatRebuildingEveryStateFinds() throws {
        var generator = SplitMix64(seed: 1919)
        var compared = 0, unavailableSeen = 0, matchesSeen = 0
        for round in 0..<12 {
            let log = try RandomLog.write(&generator, entries: 120 + Int(generator.next() % 120), round: round)
            let reader = try LogReader(path: log)
            for _ in 0..<14 {
                let text = RandomQuery.text(&generator, depth: 0)
                let query = try Query(parsing: text)
                let expected = Self.expected(query, in: reader)
                let chunk = [1, 5, 16, 64, 100_000][Int(generator.next() % 5)]
                let workers = 1 + Int(generator.next() % 3)
                let context = "round \(round), \(text), chunks of \(chunk) on \(workers)"

                let matches = Self.scan(query, in: reader, mode: .matches, chunk: chunk, workers: workers)
                #expect(matches.hits.map(\.index) == expected.matches, "\(context)")
                #expect(matches.unavailable == expected.unavailable, "\(context)")
                let first = Self.scan(query, in: reader, mode: .first, chunk: chunk, workers: workers)
                #expect(first.hits.map(\.index) == Array(expected.matches.prefix(1)), "\(context)")
                let changes = Self.scan(query, in: reader, mode: .changes, chunk: chunk, workers: workers)
                #expect(changes.hits == expected.changes, "\(context)")
                #expect(QueryScan.firstBreak(of: query, in: reader, workers: workers) == expected.firstBreak, "\(context): first break")

                // The one pass `find DIR` makes: a reader opened with only its start
                // indexed, each line scanned as the index checks it.
                let prefix = [1, 700, 4096, 1 << 20][Int(generator.next() % 4)]
                for (mode, wanted) in [(QueryScan.Mode.matches, expected.matches.map { QueryScan.Hit(index: $0, truth: true) }),
                                       (.first, expected.matches.prefix(1).map { QueryScan.Hit(index: $0, truth: true) }),
                                       (.changes, expected.changes)] {
                    let fresh = try LogReader(path: log, indexing: .prefix(bytes: prefix))
                    let report = QueryScan(reader: fresh, query: query, mode: mode).runIndexing()
                    #expect(report.hits == wanted, "\(context), one pass after \(prefix) bytes, \(mode)")
                    if mode != .first {
                        #expect(report.unavailable == expected.unavailable, "\(context), one pass after \(prefix) bytes")
                        #expect(fresh.entryCount == reader.entryCount && fresh.isFullyIndexed, "\(context): the pass indexed the whole log")
                    }
                }

                compared += 1
                unavailableSeen += expected.unavailable
                matchesSeen += expected.matches.count
            }
        }
        #expect(compared == 12 * 14)
        #expect(unavailableSeen > 0, "damage, gaps, unreadable records and failed patches made states unavailable")
        #expect(matchesSeen > 100, "the conditions are not all false")
    }
}
