import Recorder

/// The keys users bring from less, vim and tig: copying (OSC 52), cause and
/// effect jumps, the split, and saying once that a key does nothing.
extension InspectorModel {
    // MARK: Keys without a command

    /// Says once per key that it does nothing, so a mistyped key is noticed but not nagged about.
    mutating func reportUnknownKey(_ key: Key) {
        guard !overlays.reportedUnknownKeys.contains(key) else { return }
        overlays.reportedUnknownKeys.insert(key)
        overlays.message = "\(key.label) does nothing here; ? lists the keys"
    }

    // MARK: Copying (OSC 52)

    /// What OSC 52 carries at most: terminals drop (or choke on) more (xterm and tmux take
    /// about 100 KB); a bigger value is exported or printed instead.
    static let clipboardLimit = 100 << 10

    /// `y`: the node's value as compact JSON (state pane: the state's, or in the action
    /// view the payload's, whichever the cursor is on), in the diff pane the diff on
    /// screen as text, in the timeline the selected action. OSC 52 gets no answer, so the
    /// message says it was sent to the terminal, not that the clipboard has it.
    mutating func copySelection() {
        if actionPaneHasKeys, let row = panes.payloadTree.cursorRow {
            send(JSONWriter.compactString(row.node.value), "the action's value at \(row.path.isRoot ? "/" : row.path.description)")
        } else if panes.focus == .state, !actionPaneHasKeys, let row = cursorRow {
            guard !Self.exceedsClipboard(row.node) else {
                overlays.message = "The value at \(row.path) is too big for the terminal's clipboard: v shows it, rewind show LOG --at \(number(timeline.selection)) --path \(row.path) prints it"
                return
            }
            // Within the clipboard's limit, so small enough to read whole (a huge node never gets here).
            send(JSONWriter.compactString(row.node.value), "the value at \(row.path.isRoot ? "/" : row.path.description)")
        } else if panes.focus == .diff {
            guard !view.diffLines.isEmpty else { overlays.message = "No diff on screen to copy"; return }
            let text = view.diffLines.map { DiffFormatting.plainText($0) }.joined(separator: "\n") + "\n"
            send(text, "the diff's \(view.diffLines.count.counted("line", "lines"))")
        } else if let entry = view.entry {
            send(JSONWriter.compactString(["type": .string(entry.actionType), "payload": entry.payload]), "entry \(number(entry.index))'s action")
        }
    }

    private mutating func send(_ text: String, _ what: String) {
        guard text.utf8.count <= Self.clipboardLimit else {
            overlays.message = "\(what.prefix(1).uppercased() + what.dropFirst()) is \(text.utf8.count.counted("byte", "bytes")): too big for the terminal's clipboard (at most \(Self.clipboardLimit / 1024) KB); e exports the diff"
            return
        }
        request(.copyToClipboard(text))
        overlays.message = "Sent \(what) (\(text.utf8.count.counted("byte", "bytes"))) to the terminal's clipboard"
    }

    /// True when `node` takes more than the clipboard's limit as JSON, found without writing it
    /// (a 30 MB node would take a while): its descendants' keys and scalars add up, a child at
    /// a time, until past the limit.
    static func exceedsClipboard(_ node: JSONNode) -> Bool {
        var budget = clipboardLimit
        var walk = NodeWalk(node)
        while let step = walk.next() {
            budget -= 4 + (step.key?.utf8.count ?? 0)
            if case .string(let text)? = step.node.scalarValue { budget -= text.utf8.count } else { budget -= 4 }
            if budget < 0 { return true }
        }
        return false
    }

    /// `Y`: the JSON Pointer of the node under the cursor (in the action view, within the payload).
    mutating func copyPath() {
        if actionPaneHasKeys {
            guard let row = panes.payloadTree.cursorRow else { overlays.message = "The action has no payload node to copy the path of"; return }
            send(row.path.isRoot ? "" : row.path.description,
                 "the action's path \(row.path.isRoot ? "/ (the root, an empty pointer)" : row.path.description)")
            return
        }
        guard panes.focus == .state, let row = cursorRow else { overlays.message = "Select a state node first (Tab to the state pane)"; return }
        send(row.path.isRoot ? "" : row.path.description, "the path \(row.path.isRoot ? "/ (the root, an empty pointer)" : row.path.description)")
    }

    // MARK: Cause and effect

    /// `c`: the entry whose effect sent the selected action (found by sequence number, looking back).
    mutating func jumpToCause() {
        guard let entry = view.entry, let cause = entry.causeSequence else {
            overlays.message = "Entry \(label(ofRow: timeline.selection))'s action was not sent by an effect"
            return
        }
        var index = timeline.selection - 1
        // Sequence numbers restart with each recording session: the cause is the nearest one before.
        while index >= 0, timeline.selection - index <= Self.causeSearchLimit {
            if source.entry(at: index)?.sequence == cause {
                timeline.causeTrail.append(timeline.selection)
                if let filter = timeline.filter, !filter.entries.contains(index) { self.timeline.filter = nil }
                select(entry: index)
                overlays.message = "Entry \(number(index)) sent entry \(number(entry.index))'s action; b goes back"
                return
            }
            index -= 1
        }
        overlays.message = "The entry that sent it (sequence \(cause)) is not in the \(Self.causeSearchLimit) entries before"
    }

    static let causeSearchLimit = 100_000

    /// `b`: back to where `c` jumped from.
    mutating func jumpBack() {
        guard let back = timeline.causeTrail.popLast() else { overlays.message = "Nothing to go back to (c jumps to an action's cause)"; return }
        if let filter = timeline.filter, !filter.entries.contains(back) { self.timeline.filter = nil }
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
        panes.timelineWidthShare = min(80, max(20, panes.timelineWidthShare + delta))
    }
}
