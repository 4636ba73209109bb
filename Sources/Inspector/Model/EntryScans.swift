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

    /// Keeps a key press under ~30 ms (one or two frames) whatever the record sizes.
    static let interactive = ScanBudget(entriesPerEvent: 1_000_000, timePerEvent: .milliseconds(25))
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
    /// True while a scan has entries left to examine.
    var hasPendingScan: Bool {
        if timelineSearch != nil { return true }
        if let filter, filter.scanned < count { return true }
        switch overlay {
        case .filterPicker(let picker): return picker.scanned < count
        case .pathHistory(let history): return history.scanned < count
        default: return false
        }
    }

    /// Runs the next slice of every scan in progress, within one budget.
    mutating func advanceScans() {
        var allowance = ScanAllowance(scanBudget)
        switch overlay {
        case .filterPicker(var picker):
            collectActionTypes(into: &picker, allowance: &allowance)
            if picker.scanned >= count && picker.choices.isEmpty {
                overlay = nil
                message = "Nothing to filter: the log has no readable entries"
            } else {
                overlay = .filterPicker(picker)
            }
        case .pathHistory(var history):
            collectChanges(into: &history, allowance: &allowance)
            if history.scanned >= count && history.entries.isEmpty {
                overlay = nil
                message = "No entry changed \(history.path)"
            } else {
                overlay = .pathHistory(history)
            }
        default:
            break
        }
        if timelineSearch != nil { continueTimelineSearch(allowance: &allowance) }
        if filter != nil { extendFilter(allowance: &allowance) }
    }

    /// `43%` while a scan that has examined `scanned` entries is not done, else nil.
    func scanProgress(_ scanned: Int) -> String? {
        scanned < count ? "\(scanned * 100 / max(1, count))%" : nil
    }

    /// Esc while a search or a filter is still scanning: stop it. False when none was.
    mutating func cancelScan() -> Bool {
        if let search = timelineSearch {
            timelineSearch = nil
            message = "Search for \"\(search.query)\" cancelled"
            return true
        }
        if let filter, filter.scanned < count {
            self.filter = nil
            message = "Filter \"\(filter.actionType)\" cancelled"
            return true
        }
        return false
    }

    // MARK: The filter picker's action types

    private func collectActionTypes(into picker: inout FilterPicker, allowance: inout ScanAllowance) {
        let pointed = picker.choices.indices.contains(picker.cursor) ? picker.choices[picker.cursor].actionType : nil
        while picker.scanned < count, allowance.take() {
            defer { picker.scanned += 1 }
            guard let type = source.entry(at: picker.scanned)?.actionType else { continue }
            let position = picker.choices.partitioningIndex { $0.actionType >= type }
            if position < picker.choices.count, picker.choices[position].actionType == type {
                picker.choices[position].count += 1
            } else {
                picker.choices.insert(ActionTypeCount(actionType: type, count: 1), at: position)
            }
        }
        // New types sort in anywhere: keep the cursor on the type it was on.
        if let pointed, let index = picker.choices.firstIndex(where: { $0.actionType == pointed }) { picker.cursor = index }
    }

    // MARK: Path history

    private mutating func collectChanges(into history: inout PathHistory, allowance: inout ScanAllowance) {
        let path = history.path
        let before = history.entries.count
        while history.scanned < count, allowance.take() {
            defer { history.scanned += 1 }
            guard let entry = source.entry(at: history.scanned) else { continue }
            if entry.changedPaths.contains(where: { $0.hasPrefix(path) || path.hasPrefix($0) }) { history.entries.append(history.scanned) }
        }
        // The cursor rests on the last change at or before the selection (moving it moves the selection).
        if history.entries.count != before { history.cursor = history.entries.lastIndex { $0 <= selection } ?? 0 }
    }

    // MARK: Timeline search

    private mutating func continueTimelineSearch(allowance: inout ScanAllowance) {
        guard var search = timelineSearch else { return }
        let needle = search.query.lowercased()
        while search.examined < search.rows, allowance.take() {
            search.examined += 1
            let step = search.examined
            let row = ((search.forward ? search.startRow + step : search.startRow - step) % search.rows + search.rows) % search.rows
            guard let index = entryIndex(atRow: row), let entry = source.entry(at: index) else { continue }
            if Self.entry(entry, matches: needle) {
                timelineSearch = nil
                selection = index
                if search.forward ? row <= search.startRow : row >= search.startRow { message = "Search wrapped around" }
                return
            }
        }
        if search.examined >= search.rows {
            timelineSearch = nil
            message = "No match for \"\(search.query)\" in the timeline pane"
        } else {
            timelineSearch = search
        }
    }

    // MARK: Filter

    /// Checks entries the filter has not seen yet: after `f` picks a type, and
    /// when follow mode or indexing adds entries.
    private mutating func extendFilter(allowance: inout ScanAllowance) {
        guard var filter else { return }
        let found = filter.entries.count
        while filter.scanned < count, allowance.take() {
            if source.entry(at: filter.scanned)?.actionType == filter.actionType { filter.entries.append(filter.scanned) }
            filter.scanned += 1
        }
        // Follow mode keeps the newest match selected.
        if follow, !filter.isBuilding, filter.entries.count > found, let newest = filter.entries.last { selection = newest }
        // Select the first match at or after the entry selected when the type was picked, once found.
        if let wanted = filter.selectFrom, let last = filter.entries.last, last >= wanted {
            selection = filter.entries[filter.entries.partitioningIndex { $0 >= wanted }]
            filter.selectFrom = nil
        }
        if filter.isBuilding, filter.scanned >= count {
            filter.isBuilding = false
            guard let first = filter.entries.first else {
                self.filter = nil
                message = "No \"\(filter.actionType)\" entries"
                return
            }
            if filter.selectFrom != nil { selection = first }
            filter.selectFrom = nil
            message = "Showing \(filter.entries.count) \"\(filter.actionType)\" entries; f clears the filter"
        }
        self.filter = filter
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
