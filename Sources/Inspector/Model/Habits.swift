import Recorder

/// The keys users bring from less, vim and tig: copying (OSC 52), cause and
/// effect jumps, the split, and saying once that a key does nothing.
extension InspectorModel {
    // MARK: Keys without a command

    /// Says once per key that it does nothing, so a mistyped key is noticed but not nagged about.
    mutating func reportUnknownKey(_ key: Key) {
        guard !reportedUnknownKeys.contains(key) else { return }
        reportedUnknownKeys.insert(key)
        message = "\(key.label) does nothing here; ? lists the keys"
    }

    // MARK: Copying (OSC 52)

    /// `y`: the node's value as compact JSON (state pane: the state's, or in the action
    /// view the payload's, whichever the cursor is on), else the selected action.
    mutating func copySelection(effects: inout [InspectorEffect]) {
        if actionPaneHasKeys, let row = payloadTree.cursorRow {
            let text = JSONWriter.compactString(row.value)
            effects.append(.copyToClipboard(text))
            message = "Copied the action's value at \(row.path.isRoot ? "/" : row.path.description) (\(text.utf8.count.counted("byte", "bytes"))) to the clipboard"
        } else if focus == .state, !actionPaneHasKeys, let row = cursorRow {
            let text = JSONWriter.compactString(row.value)
            effects.append(.copyToClipboard(text))
            message = "Copied the value at \(row.path.isRoot ? "/" : row.path.description) (\(text.utf8.count.counted("byte", "bytes"))) to the clipboard"
        } else if let entry = view.entry {
            let text = JSONWriter.compactString(["type": .string(entry.actionType), "payload": entry.payload])
            effects.append(.copyToClipboard(text))
            message = "Copied entry \(number(entry.index))'s action (\(text.utf8.count.counted("byte", "bytes"))) to the clipboard"
        }
    }

    /// `Y`: the JSON Pointer of the node under the cursor (in the action view, within the payload).
    mutating func copyPath(effects: inout [InspectorEffect]) {
        if actionPaneHasKeys {
            guard let row = payloadTree.cursorRow else { message = "The action has no payload node to copy the path of"; return }
            effects.append(.copyToClipboard(row.path.isRoot ? "" : row.path.description))
            message = "Copied the action's path \(row.path.isRoot ? "/ (the root, an empty pointer)" : row.path.description) to the clipboard"
            return
        }
        guard focus == .state, let row = cursorRow else { message = "Select a state node first (Tab to the state pane)"; return }
        let text = row.path.isRoot ? "" : row.path.description
        effects.append(.copyToClipboard(text))
        message = "Copied the path \(row.path.isRoot ? "/ (the root, an empty pointer)" : text) to the clipboard"
    }

    // MARK: Cause and effect

    /// `c`: the entry whose effect sent the selected action (found by sequence number, looking back).
    mutating func jumpToCause() {
        guard let entry = view.entry, let cause = entry.causeSequence else {
            message = "Entry \(label(ofRow: selection))'s action was not sent by an effect"
            return
        }
        var index = selection - 1
        // Sequence numbers restart with each recording session: the cause is the nearest one before.
        while index >= 0, selection - index <= Self.causeSearchLimit {
            if source.entry(at: index)?.sequence == cause {
                causeTrail.append(selection)
                if let filter, !filter.entries.contains(index) { self.filter = nil }
                select(entry: index)
                message = "Entry \(number(index)) sent entry \(number(entry.index))'s action; b goes back"
                return
            }
            index -= 1
        }
        message = "The entry that sent it (sequence \(cause)) is not in the \(Self.causeSearchLimit) entries before"
    }

    static let causeSearchLimit = 100_000

    /// `b`: back to where `c` jumped from.
    mutating func jumpBack() {
        guard let back = causeTrail.popLast() else { message = "Nothing to go back to (c jumps to an action's cause)"; return }
        if let filter, !filter.entries.contains(back) { self.filter = nil }
        select(entry: back)
    }

    // MARK: Layout

    /// Columns left for the sparkline in the timeline's title row (none in a narrow timeline).
    var sparklineColumns: Int {
        let area = layout.timeline
        let free = area.width - 32
        return free >= 6 ? min(32, free) : 0
    }

    mutating func resizeSplit(by delta: Int) {
        timelineWidthShare = min(80, max(20, timelineWidthShare + delta))
    }
}
