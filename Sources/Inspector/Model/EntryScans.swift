import Recorder
import RewindQuery

/// Work that reads every entry — the `f` picker's action types, the filter,
/// `w` path history and timeline search — runs in slices: each event examines
/// at most one `ScanBudget` of entries and the scan's position stays in the
/// model, so a key press on a million-entry log returns at once, results show
/// as they are found, and Esc stops the scan. The run loop sends ticks without
/// waiting while `hasPendingScan` is true (InspectorSession).
struct ScanBudget: Equatable, Sendable {
    /// Most entries one event examines.
    var entriesPerEvent: Int
    /// Most time one event spends examining; nil counts entries only, which
    /// tests use so that every screen is reproducible. The clock decides only
    /// where a slice stops, never what a scan finds.
    var timePerEvent: Duration?

    /// A slice, then the redraw, stays well inside the 50 ms in which a key must be answered
    /// while any scan runs (≈ 21 ms of CPU per event at most, docs/PERFORMANCE.md), whatever the
    /// record sizes. Shorter slices cost more in all: each event also redraws the screen.
    static let interactive = ScanBudget(entriesPerEvent: 1_000_000, timePerEvent: .milliseconds(20))
}

/// One event's share of the budget, spent entry by entry by all running scans.
struct ScanAllowance {
    private var remaining: Int
    private let deadline: ContinuousClock.Instant?
    private var untilClockCheck = 0

    init(_ budget: ScanBudget) {
        remaining = max(1, budget.entriesPerEvent)
        deadline = budget.timePerEvent.map { ContinuousClock.now + $0 }
    }

    /// True when one more entry may be examined (and counts it).
    mutating func take() -> Bool {
        guard remaining > 0 else { return false }
        if let deadline {
            // Reading the clock costs more than checking a small entry: look every 32.
            if untilClockCheck == 0 {
                untilClockCheck = 32
                if ContinuousClock.now >= deadline { remaining = 0; return false }
            }
            untilClockCheck -= 1
        }
        remaining -= 1
        return true
    }
}

/// After a timeline search lands on a match: counting every match, in slices, for `match i/N`.
struct TimelineMatchCount: Equatable, Sendable {
    var query: String
    /// The row the search landed on.
    var matchRow: Int
    var rows: Int
    var examined = 0
    /// Matches found so far, and how many of them are at or before `matchRow`.
    var total = 0
    var position = 0

    var isDone: Bool { examined >= rows }
}

/// A timeline search (`/`, `n`, `N`) on its way through the rows.
struct TimelineSearch: Equatable, Sendable {
    var query: String
    var forward: Bool
    /// The selected row when the search started; the search goes around from it.
    var startRow: Int
    /// Rows to look through (the visible rows when the search started).
    var rows: Int
    /// How many rows past `startRow` have been looked at.
    var examined = 0

    var fraction: Double { Double(examined) / Double(max(1, rows)) }
}

extension InspectorModel {
    /// True while a background search (`:find`, `:bisect` on a log file) runs: the session
    /// then looks for its reports more often than it ticks, so the answer shows at once.
    var awaitsBackgroundQuery: Bool { scans.queryScan?.job != nil }

    /// True while a scan has entries left to examine here, a slice per event.
    var hasPendingScan: Bool {
        if scans.timelineSearch != nil || scans.stateSearch != nil || (scans.queryScan != nil && scans.queryScan?.job == nil) { return true }
        if let counting = scans.timelineMatchCount, !counting.isDone { return true }
        if let filter = timeline.filter, filter.scanned < timeline.count { return true }
        switch overlays.overlay {
        case .filterPicker(let picker): return picker.scanned < timeline.count
        case .pathHistory(let history): return !history.history.isDone(count: timeline.count)
        default: return false
        }
    }

    /// Runs the next slice of every scan in progress, within one budget.
    mutating func advanceScans() {
        var allowance = ScanAllowance(scans.scanBudget)
        // The history may hold a million changes: moved out of the overlay (not matched in a
        // `switch`, which can keep a second reference alive) so its arrays are appended to in
        // place — a second reference would make every slice copy them all.
        if var history = overlays.overlay?.takePathHistory() {
            overlays.overlay = nil
            collectChanges(into: &history, allowance: &allowance)
            if history.history.isDone(count: timeline.count) && history.history.count == 0 {
                overlays.message = "No entry changed \(history.path)"
            } else {
                overlays.overlay = .pathHistory(history)
            }
        }
        switch overlays.overlay {
        case .filterPicker(var picker):
            overlays.overlay = nil   // the only reference left: the scan appends in place
            collectActionTypes(into: &picker, allowance: &allowance)
            if picker.scanned >= timeline.count && picker.choices.isEmpty {
                overlays.overlay = nil
                overlays.message = "Nothing to filter: the log has no readable entries"
            } else {
                overlays.overlay = .filterPicker(picker)
            }
        default:
            break
        }
        if scans.timelineSearch != nil { continueTimelineSearch(allowance: &allowance) }
        if scans.stateSearch != nil { continueStateSearch(allowance: &allowance) }
        if scans.queryScan != nil { continueQueryScan(allowance: &allowance) }
        if let counting = scans.timelineMatchCount, !counting.isDone { countTimelineMatches(allowance: &allowance) }
        if timeline.filter != nil { extendFilter(allowance: &allowance) }
    }

    /// `43%` while a scan that has examined `scanned` entries is not done, else nil.
    func scanProgress(_ scanned: Int) -> String? {
        scanned < timeline.count ? "\(scanned * 100 / max(1, timeline.count))%" : nil
    }

    /// Esc while a search or a filter is still scanning: stop it. False when none was.
    mutating func cancelScan() -> Bool {
        if let scan = scans.queryScan {
            stopBackgroundQuery()
            scans.queryScan = nil
            overlays.message = ":\(scan.kind.rawValue) \(scan.query) cancelled"
            return true
        }
        if let search = scans.timelineSearch {
            scans.timelineSearch = nil
            overlays.message = "Search for \"\(search.query)\" cancelled"
            return true
        }
        if let search = scans.stateSearch {
            scans.stateSearch = nil
            if search.landed != nil { scans.searchMatch = nil }
            overlays.message = search.landed == nil ? "Search for \"\(search.query)\" cancelled" : "Stopped counting the matches of \"\(search.query)\""
            return true
        }
        if let filter = timeline.filter, filter.scanned < timeline.count {
            self.timeline.filter = nil
            overlays.message = "Filter \"\(filter.label)\" cancelled"
            return true
        }
        return false
    }

    // MARK: Reading entries

    /// Entries asked of the source at once: neighbours come in with one read.
    static let scanBatch = 1024

    /// Examines entries from `start` on while the allowance lasts; returns the
    /// index of the first entry not examined.
    private func scanEntries(from start: Int, fields: ScannedEntry.Fields, allowance: inout ScanAllowance,
                             _ examine: (Int, ScannedEntry?) -> Void) -> Int {
        let source = self.source
        var next = start
        var sliceOver = false
        while !sliceOver, next < timeline.count {
            source.scanEntries(Array(next..<min(timeline.count, next + Self.scanBatch)), fields: fields) { index, entry in
                guard allowance.take() else { sliceOver = true; return false }
                examine(index, entry)
                next += 1
                return true
            }
        }
        return next
    }

    // MARK: The filter picker's action types

    private func collectActionTypes(into picker: inout FilterPicker, allowance: inout ScanAllowance) {
        let visible = picker.visibleChoices
        let pointed = visible.indices.contains(picker.cursor) ? visible[picker.cursor].actionType : nil
        var choices: [ActionTypeCount] = []
        swap(&choices, &picker.choices)   // appended to in place, not copied
        picker.scanned = scanEntries(from: picker.scanned, fields: [], allowance: &allowance) { _, entry in
            guard let type = entry?.actionType else { return }
            let position = choices.partitioningIndex { $0.actionType >= type }
            if position < choices.count, choices[position].actionType == type {
                choices[position].count += 1
            } else {
                choices.insert(ActionTypeCount(actionType: type, count: 1), at: position)
            }
        }
        picker.choices = choices
        // New types sort in anywhere: keep the cursor on the type it was on.
        if let pointed, let index = picker.visibleChoices.firstIndex(where: { $0.actionType == pointed }) { picker.cursor = index }
    }

    // MARK: Path history

    private mutating func collectChanges(into history: inout PathHistory, allowance: inout ScanAllowance) {
        let before = history.history.count
        let earlierBefore = history.history.earlierCount
        history.history.advance(source: source, allowance: &allowance)
        guard history.history.count != before else { return }
        if history.cursorMoved {
            // Changes found before the origin come in at the top: keep the cursor on its change.
            history.cursor += history.history.earlierCount - earlierBefore
        } else {
            // The cursor rests on the last change at or before the selection (moving it moves the selection).
            history.cursor = max(0, history.history.earlierCount - 1)
        }
    }

    // MARK: Timeline search

    private mutating func continueTimelineSearch(allowance: inout ScanAllowance) {
        guard var search = scans.timelineSearch else { return }
        let needle = SearchNeedle(search.query.lowercased())
        let source = self.source
        var scratch: [UInt8] = []
        var match: (row: Int, index: Int)?
        var sliceOver = false
        while match == nil, !sliceOver, search.examined < search.rows {
            // The next rows in search order; a row without an entry (-1) reads as unreadable.
            let steps = (search.examined + 1)...min(search.rows, search.examined + Self.scanBatch)
            let rows = steps.map { step in
                ((search.forward ? search.startRow + step : search.startRow - step) % search.rows + search.rows) % search.rows
            }
            var position = 0
            source.scanEntries(rows.map { entryIndex(atRow: $0) ?? -1 }, fields: .payloadJSON) { index, entry in
                guard allowance.take() else { sliceOver = true; return false }
                let row = rows[position]
                position += 1
                search.examined += 1
                guard let entry, Self.action(entry.actionType, payloadJSON: entry.payloadJSON, matches: needle, scratch: &scratch) else { return true }
                match = (row, index)
                return false
            }
        }
        if let match {
            scans.timelineSearch = nil
            timeline.selection = match.index
            scans.timelineMatchCount = TimelineMatchCount(query: search.query, matchRow: match.row, rows: search.rows)
            if search.forward ? match.row <= search.startRow : match.row >= search.startRow { overlays.message = "Search wrapped around" }
        } else if search.examined >= search.rows {
            scans.timelineSearch = nil
            // The timeline holds actions only: say where the states are searched.
            overlays.message = "No action matches \"\(search.query)\" (states: :find, or Tab then /)"
        } else {
            scans.timelineSearch = search
        }
    }

    /// Counts the matches of the last timeline search over every row (for `match i/N`).
    private mutating func countTimelineMatches(allowance: inout ScanAllowance) {
        guard var counting = scans.timelineMatchCount else { return }
        let needle = SearchNeedle(counting.query.lowercased())
        let source = self.source
        var scratch: [UInt8] = []
        var sliceOver = false
        while !sliceOver, !counting.isDone {
            let rows = Array(counting.examined..<min(counting.rows, counting.examined + Self.scanBatch))
            var position = 0
            source.scanEntries(rows.map { entryIndex(atRow: $0) ?? -1 }, fields: .payloadJSON) { _, entry in
                guard allowance.take() else { sliceOver = true; return false }
                let row = rows[position]
                position += 1
                counting.examined += 1
                if let entry, Self.action(entry.actionType, payloadJSON: entry.payloadJSON, matches: needle, scratch: &scratch) {
                    counting.total += 1
                    if row <= counting.matchRow { counting.position += 1 }
                }
                return true
            }
        }
        scans.timelineMatchCount = counting
    }

    // MARK: Filter

    /// Checks entries the filter has not seen yet: after `f` picks a type, and
    /// when follow mode or indexing adds entries.
    private mutating func extendFilter(allowance: inout ScanAllowance) {
        guard var filter = timeline.filter else { return }
        self.timeline.filter = nil   // the only reference left: the scan appends in place (put back below)
        let found = filter.entries.count
        let matching = filter
        var entries: [Int] = []
        swap(&entries, &filter.entries)   // appended to in place, not copied
        filter.scanned = scanEntries(from: filter.scanned, fields: [], allowance: &allowance) { index, entry in
            if let type = entry?.actionType, matching.matches(type) { entries.append(index) }
        }
        filter.entries = entries
        // Follow mode keeps the newest match selected.
        if timeline.follow, !timeline.followPaused, !filter.isBuilding, filter.entries.count > found, let newest = filter.entries.last { timeline.selection = newest }
        // Select the first match at or after the entry selected when the type was picked, once found.
        if let wanted = filter.selectFrom, let last = filter.entries.last, last >= wanted {
            timeline.selection = filter.entries[filter.entries.partitioningIndex { $0 >= wanted }]
            filter.selectFrom = nil
        }
        if filter.isBuilding, filter.scanned >= timeline.count {
            filter.isBuilding = false
            guard let first = filter.entries.first else {
                self.timeline.filter = nil
                overlays.message = "No \"\(filter.label)\" entries"
                return
            }
            if filter.selectFrom != nil { timeline.selection = first }
            filter.selectFrom = nil
            overlays.message = "Showing \(filter.entries.count.counted("entry", "entries")) (\(filter.label)); f clears the filter"
        }
        self.timeline.filter = filter
    }
}

extension Array {
    /// The first index whose element satisfies `belongsInSecondPart`, in an array where those come last.
    func partitioningIndex(where belongsInSecondPart: (Element) -> Bool) -> Int {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if belongsInSecondPart(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
