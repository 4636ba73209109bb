import Recorder

/// `:find QUERY` or `:bisect QUERY` reading states, a slice per event (EntryScans).
struct QueryScanProgress: Equatable, Sendable {
    enum Kind: String, Sendable {
        /// Every entry whose state matches; the first at or after the selection is selected.
        case find
        /// The first entry whose state does not match.
        case bisect
    }

    var kind: Kind
    var query: Query
    /// Entries examined so far, from the first.
    var scanned = 0
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
    /// `find …` or `bisect …` typed at the `:` prompt: starts the scan (or
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
            message = "Bad query: \(error.description)"
            return true
        }
        guard count > 0 else {
            message = "Nothing to \(kind.rawValue): the log has no entries"
            return true
        }
        timelineSearch = nil
        queryMatches = nil
        queryScan = QueryScanProgress(kind: kind, query: query, startSelection: selection)
        message = ":\(kind.rawValue) \(query) …"
        return true
    }

    /// Reads the next slice of states for `:find` or `:bisect`.
    mutating func continueQueryScan(allowance: inout ScanAllowance) {
        guard var scan = queryScan else { return }
        let query = scan.query
        var broken: Int?
        source.scanStates(scan.scanned..<count, keepingPrevious: query.readsPreviousState) { step in
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
            if !scan.selectedMatch, let match = scan.matches.first(where: { $0 >= scan.startSelection }) {
                selectShowing(match)
                scan.selectedMatch = true
            }
            guard scan.scanned >= count else {
                queryScan = scan
                message = ":find \(query): \(scan.matches.count) so far, \(scanProgress(scan.scanned) ?? "")"
                return
            }
            queryScan = nil
            guard let first = scan.matches.first else {
                message = "No entry matches \(query)"
                return
            }
            queryMatches = QueryMatches(query: query, entries: scan.matches)
            if !scan.selectedMatch { selectShowing(first) }
            let matched = scan.matches.count == 1 ? "1 entry matches" : "\(scan.matches.count) entries match"
            message = "\(matched) \(query); n/N next/previous"
        case .bisect:
            if let broken {
                queryScan = nil
                selectShowing(broken)
                let action = source.entry(at: broken)?.actionType ?? "an unreadable entry"
                let unsure = scan.unchecked.isEmpty ? ""
                    : "; \(scan.unchecked.numbers(in: source)) could not be checked (no state), so it may stop holding earlier"
                message = "\(query) stops holding at entry \(label(ofRow: broken)) (\(action))" + unsure
            } else if scan.scanned >= count {
                queryScan = nil
                message = scan.unchecked.isEmpty ? "\(query) holds at every entry"
                    : "\(query) holds at every entry that could be checked; \(scan.unchecked.numbers(in: source)) could not be (no state)"
            } else {
                queryScan = scan
                message = ":bisect \(query): \(scanProgress(scan.scanned) ?? "")"
            }
        }
    }

    /// n / N after `:find`: the next or previous match, around the ends.
    mutating func stepThroughQueryMatches(forward: Bool) {
        guard let matches = queryMatches, !matches.entries.isEmpty else { return }
        let entries = matches.entries
        let position: Int
        var wrapped = false
        if forward {
            let next = entries.partitioningIndex { $0 > selection }
            wrapped = next == entries.count
            position = wrapped ? 0 : next
        } else {
            let next = entries.partitioningIndex { $0 >= selection } - 1
            wrapped = next < 0
            position = wrapped ? entries.count - 1 : next
        }
        selectShowing(entries[position])
        message = "Match \(position + 1) of \(entries.count) for \(matches.query)" + (wrapped ? " (wrapped around)" : "")
    }

    /// Selects `index` in the timeline, clearing a filter that hides it.
    private mutating func selectShowing(_ index: Int) {
        if let filter, !filter.entries.contains(index) { self.filter = nil }
        select(entry: index)
        focus = .timeline
    }
}
