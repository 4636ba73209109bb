import Recorder

/// `G` and `:N` while a big log is still being indexed in the background: the
/// entries past what is indexed so far exist, they are only not found yet. So `G`
/// keeps the selection on the last entry as indexing finds more, and `:N` past the
/// entries indexed so far goes to entry N once indexing reaches it; only when
/// indexing is done is an entry past the end. Esc, or a key that moves the
/// selection, stays where the selection is.
enum PendingJump: Equatable, Sendable {
    /// `G`: the last entry, wherever the end turns out to be.
    case last
    /// `:N`: entry `number` (from 1), once indexed.
    case entry(number: Int)
}

extension InspectorModel {
    /// True while the background scan has not reached the end of the file.
    var isIndexing: Bool { source.indexing != .complete }

    /// True while something changes without a key: indexing, follow mode, a spinner, work
    /// the model waits for. Otherwise the session sleeps until the next key.
    var needsTicks: Bool {
        isIndexing || timeline.follow || view.loading?.stopped == false || scans.exporting != nil || replays.replaying != nil
            || replays.compatibilityChecking != nil || timeline.pendingJump != nil || timeline.sparkline.isFilling
    }

    /// `indexing 43%`, for messages about waiting for it.
    var indexingProgress: String {
        if case .scanning(let fraction) = source.indexing { return "indexing \(Int(fraction * 100))%" }
        return "indexed"
    }

    /// `G` while indexing: the last entry found so far, and the ones after it as they are found.
    mutating func jumpToLastWhileIndexing() {
        selectRow(visibleEntryCount - 1)
        timeline.pendingJump = .last
        overlays.message = "The last entry so far, \(label(ofRow: timeline.selection)) (\(indexingProgress)): the selection follows the end until indexing is done (Esc stays)"
    }

    /// `:N` past the entries indexed so far, while indexing: go there once indexing gets there.
    mutating func jumpWhenIndexed(number: Int) {
        timeline.pendingJump = .entry(number: number)
        overlays.message = "Entry \(number) is not indexed yet (\(indexingProgress)): it is selected when it is (Esc cancels)"
    }

    /// After indexing found more entries: moves a pending `G` to the new end, and
    /// makes a pending `:N` once entry N is indexed (or indexing ended before it).
    mutating func continuePendingJump() {
        switch timeline.pendingJump {
        case .last?:
            selectRow(visibleEntryCount - 1)
            if !isIndexing {
                timeline.pendingJump = nil
                overlays.message = "Indexing done: entry \(label(ofRow: timeline.selection)) is the last"
            }
        case .entry(let number)?:
            guard number <= lastNumber || !isIndexing else { return }
            timeline.pendingJump = nil
            jump(to: String(number))
        case nil:
            break
        }
    }

    /// Esc: the selection stays where it is. False when no jump was waiting.
    mutating func cancelPendingJump() -> Bool {
        guard let waiting = timeline.pendingJump else { return false }
        timeline.pendingJump = nil
        switch waiting {
        case .last: overlays.message = "Staying at entry \(label(ofRow: timeline.selection)); G goes to the last entry indexed so far"
        case .entry(let number): overlays.message = "Not going to entry \(number): staying at entry \(label(ofRow: timeline.selection))"
        }
        return true
    }
}
