import Recorder

extension ScreenPainter {
    /// File, entry i/N, mode, indexing progress, damage; reversed across the screen.
    mutating func drawStatusBar() {
        let row = layout.statusRow
        let width = layout.size.columns
        screen.fill(rows: row..<(row + 1), columns: 0..<width, style: .reverse)
        var parts: [String] = [model.source.name]
        parts.append(model.count == 0 ? "no entries" : "entry \(model.selection + 1)/\(model.count)")
        parts.append(model.focus.title.lowercased())
        if model.follow { parts.append(model.followPaused ? "FOLLOW paused (F/G resumes)" : "FOLLOW") }
        if let compatibility = model.compatibilityText { parts.append(compatibility) }
        if let replaying = model.replaying { parts.append("replaying from \(replaying.start + 1)… \(Int(replaying.fraction * 100))%") }
        if let fork = model.forkIndex { parts.append("branch forks after \(fork + 1)") }
        if let filter = model.filter {
            parts.append("filter: \(filter.label)" + (filter.isBuilding ? model.scanProgress(filter.scanned).map { " (filtering… \($0))" } ?? "" : ""))
        }
        if let search = model.timelineSearch { parts.append("searching… \(Int(search.fraction * 100))%") }
        if let search = model.stateSearch, search.landed == nil { parts.append("searching the state… \(Int(search.fraction * 100))%") }
        if let match = model.searchMatch {
            parts.append(match.total.map { "match \(match.index)/\($0)" }
                         ?? "match \(match.index)/… (counting \(Int((model.stateSearch?.fraction ?? 1) * 100))%)")
        }
        // While the selection is on the match the search landed on.
        if let counting = model.timelineMatchCount, counting.matchRow == model.selectedRow {
            let position = counting.examined > counting.matchRow ? String(counting.position) : "…"
            parts.append(counting.isDone ? "match \(position)/\(counting.total)"
                                         : "match \(position)/… (counting \(counting.examined * 100 / max(1, counting.rows))%)")
        }
        if let mark = model.mark { parts.append("mark \(mark + 1)") }
        if let exporting = model.exporting {
            parts.append(exporting.cancelling ? "cancelling the export…"
                         : exporting.written.map { "exporting… \(Int($0 * 100))%" } ?? "exporting… building the report")
        }
        if case .scanning(let fraction) = model.source.indexing {
            parts.append("indexing \(Int(fraction * 100))%")
        }
        let x = screen.write(" " + parts.joined(separator: "  │  "), row: row, column: 0, style: .reverse, limit: width)
        // While following, a cut-off last line is a record still being written, not damage.
        let damageCount = model.source.damage.count + (model.source.tornTail == nil || model.follow ? 0 : 1)
        if damageCount > 0 {
            let text = "  ⚠ \(damageCount) damaged (D lists)"
            screen.write(text, row: row, column: x, style: CellStyle(foreground: .warning, bold: true, reverse: true), limit: width)
        }
    }

    /// The prompt being typed, a message, or key hints from the key table.
    mutating func drawHintLine() {
        let row = layout.hintRow
        let width = layout.size.columns
        if let prompt = model.prompt {
            switch prompt.kind {
            case .search: drawPrompt("/", prompt.editor)
            case .jump: drawPrompt(":", prompt.editor)
            case .editAction: drawActionEditor(prompt.editor)
            }
            return
        }
        if let question = model.confirmation?.question {
            screen.write(question, row: row, column: 0, style: .colored(.warning, bold: true), limit: width)
            return
        }
        if let message = model.message ?? model.notice {
            screen.write(message, row: row, column: 0, style: .colored(.accent, bold: true), limit: width)
            return
        }
        var x = 0
        for (key, label, unavailable) in KeyTable.hints(for: model.focus, actionView: model.showsAction, unavailable: model.unavailability(of:)) {
            let needed = TerminalWidth.of(key) + 1 + TerminalWidth.of(label) + 2
            if x + needed > width { break }
            // An unavailable key is greyed whole (key and label), where a working key's is bold.
            x = screen.write(key, row: row, column: x, style: unavailable ? .unavailable : .bold, limit: width)
            x = screen.write(" " + label + "  ", row: row, column: x, style: unavailable ? .unavailable : .dim, limit: width)
        }
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
