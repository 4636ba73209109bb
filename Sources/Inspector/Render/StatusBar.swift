import Recorder

extension ScreenPainter {
    /// File, entry i/N, mode, indexing progress, damage; reversed across the screen.
    mutating func drawStatusBar() {
        let row = layout.statusRow
        let width = layout.size.columns
        screen.fill(rows: row..<(row + 1), columns: 0..<width, style: .reverse)
        var parts: [String] = [model.source.name]
        parts.append(model.selectionStatus)
        parts.append(model.panes.focus.title.lowercased())
        if model.timeline.follow { parts.append(model.timeline.followPaused ? "FOLLOW paused (F/G resumes)" : "FOLLOW") }
        if let compatibility = model.compatibilityText { parts.append(compatibility) }
        if let replaying = model.replays.replaying { parts.append("replaying from \(model.number(replaying.start))… \(Int(replaying.fraction * 100))%") }
        if let fork = model.forkIndex { parts.append("branch forks after \(model.number(fork))") }
        if let filter = model.timeline.filter {
            parts.append("filter: \(filter.label)" + (filter.isBuilding ? model.scanProgress(filter.scanned).map { " (filtering… \($0))" } ?? "" : ""))
        }
        if let search = model.scans.timelineSearch { parts.append("searching… \(Int(search.fraction * 100))%") }
        if let search = model.scans.stateSearch, search.landed == nil { parts.append("searching the state… \(Int(search.fraction * 100))%") }
        if let match = model.scans.searchMatch {
            parts.append(match.total.map { "match \(match.index)/\($0)" }
                         ?? "match \(match.index)/… (counting \(Int((model.scans.stateSearch?.fraction ?? 1) * 100))%)")
        }
        // While the selection is on the match the search landed on.
        if let counting = model.scans.timelineMatchCount, counting.matchRow == model.selectedRow {
            let position = counting.examined > counting.matchRow ? String(counting.position) : "…"
            parts.append(counting.isDone ? "match \(position)/\(counting.total)"
                                         : "match \(position)/… (counting \(counting.examined * 100 / max(1, counting.rows))%)")
        }
        if let mark = model.timeline.mark { parts.append("mark \(model.label(ofRow: mark))") }
        if let exporting = model.scans.exporting {
            parts.append(exporting.cancelling ? "cancelling the export…"
                         : exporting.written.map { "exporting… \(Int($0 * 100))%" } ?? "exporting… building the report")
        }
        if case .scanning(let fraction) = model.source.indexing {
            parts.append("indexing \(Int(fraction * 100))%")
        }
        // A torn last line is what a crash mid-write leaves (the reader drops it as it should), not damage;
        // while following it is a record still being written.
        if model.source.tornTail != nil && !model.timeline.follow { parts.append("last line torn (D)") }
        let x = screen.write(" " + parts.joined(separator: "  │  "), row: row, column: 0, style: .reverse, limit: width)
        let damageCount = model.source.damage.count
        if damageCount > 0 {
            let text = "  ⚠ \(damageCount) damaged (D lists)"
            screen.write(text, row: row, column: x, style: CellStyle(foreground: .warning, bold: true, reverse: true), limit: width)
        }
    }

    /// The prompt being typed, a message, or key hints from the key table.
    mutating func drawHintLine() {
        let row = layout.hintRow
        let width = layout.size.columns
        if let prompt = model.overlays.prompt {
            switch prompt.kind {
            case .search: drawPrompt("/", prompt.editor)
            case .jump: drawPrompt(":", prompt.editor)
            case .editAction: drawActionEditor(prompt.editor)
            }
            return
        }
        if let question = model.overlays.confirmation?.question {
            screen.write(question, row: row, column: 0, style: .colored(.warning, bold: true), limit: width)
            return
        }
        if let message = model.overlays.message ?? model.overlays.notice {
            // Too long for one row (a path, a reason): it takes the status bar's row too, rather than be cut.
            let style = CellStyle.colored(.accent, bold: true)
            if TerminalWidth.of(message) > width, row > 0 {
                let (first, rest) = Self.split(message, width: width)
                screen.fill(rows: (row - 1)..<row, columns: 0..<width)
                screen.write(first, row: row - 1, column: 0, style: style, limit: width)
                screen.write(rest.truncated(toWidth: width), row: row, column: 0, style: style, limit: width)
            } else {
                screen.write(message, row: row, column: 0, style: style, limit: width)
            }
            return
        }
        // An overlay has keys of its own: its hints, not the pane's behind it.
        let hints = model.overlays.overlay.map(Self.overlayHints)
            ?? KeyTable.hints(for: model.panes.focus, actionView: model.panes.showsAction, unavailable: model.unavailability(of:))
        var x = 0
        for (key, label) in hints {
            let needed = TerminalWidth.of(key) + 1 + TerminalWidth.of(label) + 2
            if x + needed > width { break }
            x = screen.write(key, row: row, column: x, style: .bold, limit: width)
            x = screen.write(" " + label + "  ", row: row, column: x, style: .dim, limit: width)
        }
    }

    /// The keys each overlay answers to, for the hint line.
    static func overlayHints(_ overlay: InspectorModel.Overlay) -> [(key: String, label: String)] {
        switch overlay {
        case .help, .damage: [("Esc", "close"), ("j/k", "scroll"), ("Space/PgDn", "page")]
        case .filterPicker: [("Esc", "close"), ("Enter", "show"), ("Space", "pick"), ("type", "narrows"), ("Tab", "hide"), ("S-Tab", "this log")]
        case .pathHistory: [("Esc", "close"), ("j/k", "change"), ("Enter", "go there"), ("v", "view"), ("←/→", "scroll")]
        case .value: [("Esc", "close"), ("j/k", "line"), ("Space/b", "page"), ("g/G", "start/end")]
        }
    }

    /// `text` broken in two at a space before `width` columns (or at `width` when there is none).
    static func split(_ text: String, width: Int) -> (String, String) {
        var first = ""
        var index = text.startIndex
        var lastSpace: (String.Index, Int)?
        while index < text.endIndex, TerminalWidth.of(first) + TerminalWidth.of(text[index]) <= width {
            if text[index] == " " { lastSpace = (index, first.count) }
            first.append(text[index])
            index = text.index(after: index)
        }
        if index < text.endIndex, let (space, kept) = lastSpace, kept > width / 2 {
            return (String(first.prefix(kept)), String(text[text.index(after: space)...]))
        }
        return (first, String(text[index...]))
    }

    /// `label` and the line being edited, the cursor as a block (reversed over the character it is on).
    mutating func drawPrompt(_ label: String, _ editor: LineEditor) {
        let row = layout.hintRow
        let width = layout.size.columns
        let labelWidth = TerminalWidth.of(label)
        let (shown, cursorColumn) = editor.window(width: width - labelWidth - 1)
        screen.write(label + shown, row: row, column: 0, style: .bold, limit: width)
        let x = labelWidth + cursorColumn
        if editor.cursor == editor.characters.count {
            screen.write("█", row: row, column: x, limit: width)
        } else {
            screen.applyStyle(CellStyle(bold: true, reverse: true), row: row, columns: x..<(x + 1))
        }
    }
}
