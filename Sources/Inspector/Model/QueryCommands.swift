import Recorder
import RewindQuery

/// `:find QUERY` or `:bisect QUERY` on its way through the log.
///
/// On a log file the search runs in the background on `rewind find`'s engine
/// (``QueryScan``, on every core; the ``QueryWorker`` behind the effect runner),
/// and reports what it found as events: a huge state costs the keys nothing.
/// A timeline whose states are not the log's (a replay branch, skipped entries)
/// is read here instead, a slice of states per event (EntryScans).
struct QueryScanProgress: Equatable, Sendable {
    enum Kind: String, Sendable {
        /// Every entry whose state matches; the first at or after the selection is selected.
        case find
        /// The first entry whose state does not match.
        case bisect
    }

    var kind: Kind
    var query: Query
    /// The background search's number (``InspectorEffect/runQuery(job:kind:query:)``); nil: read in slices here.
    var job: Int?
    /// Slices: entries examined so far, from the first.
    var scanned = 0
    /// The background search: the share of the log examined so far, 0...1.
    var examinedFraction = 0.0
    /// `find`: matching entries so far.
    var matches: [Int] = []
    /// The selection when the command was given.
    var startSelection: Int
    /// `find`: true once a match at or after `startSelection` was selected.
    var selectedMatch = false
    /// `bisect`: entries whose state cannot be rebuilt, so whether it held there is unknown.
    var unchecked = UncheckedEntries()
}

/// The entries the last `:find` matched, for n and N.
struct QueryMatches: Equatable, Sendable {
    var query: Query
    var entries: [Int]
}

extension InspectorModel {
    /// `find …` or `bisect …` typed at the `:` prompt: starts the search (or
    /// reports a bad query). False when the text is not one of them (a jump).
    mutating func startQueryCommand(_ text: String) -> Bool {
        let trimmed = text.drop { $0 == " " }
        let kind: QueryScanProgress.Kind
        if trimmed.hasPrefix("find ") || trimmed == "find" { kind = .find } else if trimmed.hasPrefix("bisect ") || trimmed == "bisect" { kind = .bisect } else { return false }
        let queryText = String(trimmed.dropFirst(kind.rawValue.count)).trimmingCharacters(in: .whitespaces)
        let query: Query
        do {
            query = try Query(parsing: queryText)
        } catch {
            overlays.message = "Bad query: \(error.description)"
            return true
        }
        // A log still being indexed may have entries the model has not heard of yet: the engine waits for them.
        guard timeline.count > 0 || (source.queryableLog != nil && source.indexing != .complete) else {
            overlays.message = "Nothing to \(kind.rawValue): the log has no entries"
            return true
        }
        stopBackgroundQuery()
        scans.timelineSearch = nil
        scans.queryMatches = nil
        var scan = QueryScanProgress(kind: kind, query: query, startSelection: timeline.selection)
        if source.queryableLog != nil {
            scans.queryJobs += 1
            scan.job = scans.queryJobs
            request(.runQuery(job: scans.queryJobs, kind: kind, query: query))
        }
        scans.queryScan = scan
        overlays.message = ":\(kind.rawValue) \(query) …"
        return true
    }

    /// Asks the background search in progress, if any, to stop (a new search, Esc, the log read again).
    mutating func stopBackgroundQuery() {
        if let job = scans.queryScan?.job { request(.cancelQuery(job: job)) }
    }

    /// The background search `job` examined `fraction` of the log and found `newMatches`
    /// (entries of the log file, in order) since it last said.
    mutating func noteQueryProgress(job: Int, newMatches: [Int], fraction: Double) {
        guard var scan = scans.queryScan, scan.job == job else { return }
        // The search may have found entries the background index added since the last tick.
        if source.count != timeline.count { pickUpNewEntries() }
        scan.matches += newMatches.map(source.entryIndex(ofRecordedLogIndex:))
        scan.examinedFraction = fraction
        selectFirstMatchFromTheStart(&scan)
        scans.queryScan = scan
        overlays.message = ":\(scan.kind.rawValue) \(scan.query): " + (scan.kind == .find ? "\(scan.matches.count) so far, " : "")
            + "\(Int(fraction * 100))%"
    }

    /// The background search `job` is done: `find` with what it reported, `bisect` with `firstBreak`
    /// (entries of the log file; nil for a `find`).
    mutating func finishQuery(job: Int, firstBreak: QueryScan.FirstBreak?) {
        guard var scan = scans.queryScan, scan.job == job else { return }
        scans.queryScan = nil
        if source.count != timeline.count { pickUpNewEntries() }
        switch scan.kind {
        case .find:
            finishFind(scan)
        case .bisect:
            guard let firstBreak else { return }
            let broken = firstBreak.entry.map(source.entryIndex(ofRecordedLogIndex:))
            // Rows the log file has no entry for (a damaged record, a gap) have no state to check either;
            // a new session's row stands for no entry.
            let rowsWithoutEntry = source.positionsWithoutRecordedEntry(before: broken ?? timeline.count).filter { source.session(at: $0) == nil }
            for row in (firstBreak.unchecked.map(source.entryIndex(ofRecordedLogIndex:)) + rowsWithoutEntry).sorted() {
                scan.unchecked.add(row)
            }
            finishBisect(scan, broken: broken)
        }
    }

    /// Reads the next slice of states for `:find` or `:bisect` on a timeline without a queryable log.
    mutating func continueQueryScan(allowance: inout ScanAllowance) {
        guard var scan = scans.queryScan, scan.job == nil else { return }
        let query = scan.query
        var broken: Int?
        source.scanStates(scan.scanned..<timeline.count, keepingPrevious: query.readsPreviousState) { step in
            guard allowance.take() else { return false }
            // Rows not handed over: a damaged record's or a gap's has no state to check either;
            // a new session's stands for no entry.
            if scan.kind == .bisect {
                for skipped in scan.scanned..<step.index where source.session(at: skipped) == nil { scan.unchecked.add(skipped) }
            }
            scan.scanned = step.index + 1
            // An entry whose state cannot be rebuilt neither matches nor breaks anything; bisect says it skipped it.
            guard let state = step.state else {
                if scan.kind == .bisect { scan.unchecked.add(step.index) }
                return true
            }
            let holds = query.matches(QueryInput(state: state, previousState: step.previousState, actionType: step.actionType))
            switch scan.kind {
            case .find:
                if holds { scan.matches.append(step.index) }
            case .bisect:
                if !holds { broken = step.index; return false }
            }
            return true
        }
        switch scan.kind {
        case .find:
            selectFirstMatchFromTheStart(&scan)
            guard scan.scanned >= timeline.count else {
                scans.queryScan = scan
                overlays.message = ":find \(query): \(scan.matches.count) so far, \(scanProgress(scan.scanned) ?? "")"
                return
            }
            scans.queryScan = nil
            finishFind(scan)
        case .bisect:
            if broken != nil || scan.scanned >= timeline.count {
                scans.queryScan = nil
                finishBisect(scan, broken: broken)
            } else {
                scans.queryScan = scan
                overlays.message = ":bisect \(query): \(scanProgress(scan.scanned) ?? "")"
            }
        }
    }

    /// `find`: the first match at or after where the user was is selected as soon as it is found.
    private mutating func selectFirstMatchFromTheStart(_ scan: inout QueryScanProgress) {
        guard scan.kind == .find, !scan.selectedMatch, let match = scan.matches.first(where: { $0 >= scan.startSelection }) else { return }
        selectShowing(match)
        scan.selectedMatch = true
    }

    /// `find` has looked at every entry: n and N step through what it found.
    private mutating func finishFind(_ scan: QueryScanProgress) {
        guard let first = scan.matches.first else {
            overlays.message = "No entry matches \(scan.query)"
            return
        }
        scans.queryMatches = QueryMatches(query: scan.query, entries: scan.matches)
        if !scan.selectedMatch { selectShowing(first) }
        let matched = scan.matches.count == 1 ? "1 entry matches" : "\(scan.matches.count) entries match"
        overlays.message = "\(matched) \(scan.query); n/N next/previous"
    }

    /// `bisect` found where the condition stops holding (`broken`), or that it never does.
    private mutating func finishBisect(_ scan: QueryScanProgress, broken: Int?) {
        guard let broken else {
            overlays.message = scan.unchecked.isEmpty ? "\(scan.query) holds at every entry"
                : "\(scan.query) holds at every entry that could be checked; \(scan.unchecked.numbers(in: source)) could not be (no state)"
            return
        }
        selectShowing(broken)
        let action = source.entry(at: broken)?.actionType ?? "an unreadable entry"
        let unsure = scan.unchecked.isEmpty ? ""
            : "; \(scan.unchecked.numbers(in: source)) could not be checked (no state), so it may stop holding earlier"
        overlays.message = "\(scan.query) stops holding at entry \(label(ofRow: broken)) (\(action))" + unsure
    }

    /// n / N after `:find`: the next or previous match, around the ends.
    mutating func stepThroughQueryMatches(forward: Bool) {
        guard let matches = scans.queryMatches, !matches.entries.isEmpty else { return }
        let entries = matches.entries
        let position: Int
        var wrapped = false
        if forward {
            let next = entries.partitioningIndex { $0 > timeline.selection }
            wrapped = next == entries.count
            position = wrapped ? 0 : next
        } else {
            let next = entries.partitioningIndex { $0 >= timeline.selection } - 1
            wrapped = next < 0
            position = wrapped ? entries.count - 1 : next
        }
        selectShowing(entries[position])
        overlays.message = "Match \(position + 1) of \(entries.count) for \(matches.query)" + (wrapped ? " (wrapped around)" : "")
    }

    /// Selects `index` in the timeline, clearing a filter that hides it.
    private mutating func selectShowing(_ index: Int) {
        if let filter = timeline.filter, !filter.entries.contains(index) { self.timeline.filter = nil }
        select(entry: index)
        panes.focus = .timeline
    }
}
