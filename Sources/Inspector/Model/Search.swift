import Recorder
import RewindQuery

/// `/` and `n`/`N`: the timeline searches action names and payloads, the
/// state pane keys and values, the diff pane its lines. Case-insensitive.
extension InspectorModel {
    mutating func repeatSearch(forward: Bool) {
        if scans.queryMatches != nil { return stepThroughQueryMatches(forward: forward) }
        guard let query = scans.lastSearch else { overlays.message = "No search yet: press / to search"; return }
        search(query, forward: forward)
    }

    mutating func search(_ query: String, forward: Bool) {
        let needle = query.lowercased()
        scans.highlightsSearch = true
        scans.searchMatch = nil
        scans.timelineMatchCount = nil
        scans.stateSearch = nil
        let found: Bool
        switch panes.focus {
        case .timeline:
            // Runs in slices (EntryScans), which report the match or its absence.
            scans.timelineSearch = visibleEntryCount > 0 ? TimelineSearch(query: query, forward: forward, startRow: selectedRow, rows: visibleEntryCount) : nil
            found = visibleEntryCount > 0
        case .state: found = searchState(query, forward: forward)
        case .diff: found = searchDiff(needle, forward: forward)
        }
        guard !found else { return }
        if panes.focus == .diff, view.diffLines.contains(where: DiffLines.isCut) {
            // The diff pane holds a long value's start only: the rest is in the state, searched whole there.
            overlays.message = "No match for \"\(query)\" in the diff shown (it is cut; / in the state pane searches all)"
        } else {
            overlays.message = "No match for \"\(query)\" in the \(panes.focus.title.lowercased()) pane"
        }
    }

    /// `needle` is lowercased. The payload is matched as its compact JSON bytes: a search
    /// reads every entry of a huge log, and lowercasing a String per entry costs 3× the read.
    static func entry(_ entry: TimelineEntry, matches needle: String) -> Bool {
        var scratch: [UInt8] = []
        return action(entry.actionType, payloadJSON: JSONWriter.compact(entry.payload), matches: SearchNeedle(needle), scratch: &scratch)
    }

    /// `payloadJSON` is the payload's compact JSON; `scratch` is the caller's, kept between entries.
    static func action(_ type: String, payloadJSON: [UInt8], matches needle: SearchNeedle, scratch: inout [UInt8]) -> Bool {
        guard needle.isASCII else {
            return type.lowercased().contains(needle.text) || String(decoding: payloadJSON, as: UTF8.self).lowercased().contains(needle.text)
        }
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: type.utf8)
        return containsIgnoringASCIICase(scratch, needle.bytes) || containsIgnoringASCIICase(payloadJSON, needle.bytes)
    }

    /// True when `haystack` contains `needle` (lowercase ASCII), ASCII letters compared without case.
    static func containsIgnoringASCIICase(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard let first = needle.first else { return true }
        guard haystack.count >= needle.count else { return false }
        // Candidates for the first byte (either case) are found eight bytes at a time.
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let lower = ones &* UInt64(first)
        let upper = ones &* UInt64(first >= 0x61 && first <= 0x7A ? first - 0x20 : first)
        @inline(__always) func hasZeroByte(_ word: UInt64) -> Bool { (word &- ones) & ~word & highs != 0 }
        return haystack.withUnsafeBufferPointer { hay in
            needle.withUnsafeBufferPointer { pattern in
                let raw = UnsafeRawPointer(hay.baseAddress!)
                var start = 0
                let last = hay.count - pattern.count
                while start <= last {
                    if start + 8 <= hay.count {
                        let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: start, as: UInt64.self))
                        if !hasZeroByte(word ^ lower) && !hasZeroByte(word ^ upper) {
                            start += 8
                            continue
                        }
                    }
                    if lowercasedASCII(hay[start]) == first {
                        var offset = 1
                        while offset < pattern.count, lowercasedASCII(hay[start + offset]) == pattern[offset] { offset += 1 }
                        if offset == pattern.count { return true }
                    }
                    start += 1
                }
                return false
            }
        }
    }

    @inline(__always) private static func lowercasedASCII(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }

    /// Starts looking through every node of the selected state (open or not) in display
    /// order, in slices (``StateSearch``, run by `advanceScans`); false when there is no state.
    private mutating func searchState(_ query: String, forward: Bool) -> Bool {
        guard let state = view.state else {
            guard view.loading != nil else { return false }
            overlays.message = "The state is still being read: search again once it shows"
            return true
        }
        scans.stateSearch = StateSearch(query: query, forward: forward, state: state, cursor: cursorRow?.path, request: view.request)
        return true
    }

    /// The next slice of a state search: the cursor goes to the target as soon as it is
    /// known, the matches are counted on (`match i/…`) until every node is seen.
    mutating func continueStateSearch(allowance: inout ScanAllowance) {
        guard var search = scans.stateSearch else { return }
        scans.stateSearch = nil   // the only reference while it walks
        guard search.request == view.request else { return }   // another entry is shown: its state is not the one searched
        let landedBefore = search.landed != nil
        search.advance(allowance: &allowance)
        if let landed = search.landed, !landedBefore {
            reveal(landed.path)
            if search.wrapped { overlays.message = "Search wrapped around" }
        }
        if search.isDone {
            guard let landed = search.landed else {
                overlays.message = "No match for \"\(search.query)\" in the state pane"
                return
            }
            scans.searchMatch = (landed.index, search.total)
        } else {
            scans.searchMatch = search.landed.map { ($0.index, nil) }
            scans.stateSearch = search
        }
    }

    /// Opens every ancestor of `path` and puts the cursor on it.
    mutating func reveal(_ path: JSONPointer) {
        var ancestor = path.parent
        while let current = ancestor, !current.isRoot {
            setExpanded(current, true)
            ancestor = current.parent
        }
        refreshRows()
        if let row = stateRowIndex(of: path) { panes.stateCursor = row }
        refreshRows()
    }

    private mutating func searchDiff(_ needle: String, forward: Bool) -> Bool {
        let lines = view.diffLines
        guard !lines.isEmpty else { return false }
        let matching = lines.indices.filter { DiffFormatting.plainText(lines[$0]).lowercased().contains(needle) }
        guard !matching.isEmpty else { return false }
        // From the current match (the line under the pane's top, or the one found before) onwards.
        let current = panes.diffMatchLine ?? panes.diffTop - (forward ? 1 : 0)
        let target = forward ? (matching.first { $0 > current } ?? matching[0])
                             : (matching.last { $0 < current } ?? matching[matching.count - 1])
        panes.diffMatchLine = target
        // Scroll so the match is on screen, a few lines from the top when there is room.
        panes.diffTop = min(max(0, target - 2), max(0, lines.count - layout.diff.height))
        scans.searchMatch = (matching.firstIndex(of: target)! + 1, matching.count)
        return true
    }
}

/// A lowercased search text, with its bytes worked out once per search.
struct SearchNeedle {
    let text: String
    let bytes: [UInt8]
    let isASCII: Bool

    init(_ lowercased: String) {
        text = lowercased
        bytes = Array(lowercased.utf8)
        isASCII = bytes.allSatisfy { $0 < 0x80 }
    }
}
