import Recorder

extension ScreenPainter {
    /// Help, filter picker, path history or damage list, boxed over the panes.
    mutating func drawOverlay() {
        guard let overlay = model.overlays.overlay else { return }
        switch overlay {
        case .help(let scroll):
            let lines = model.helpLines(width: layout.overlay.width - 3).map { ($0.text, $0.unavailable ? CellStyle.unavailable : .plain) }
            drawBox(title: "Keys (Esc closes)", lines: lines, cursor: nil, top: scroll)
        case .filterPicker(let picker):
            let lines = picker.visibleChoices.map { choice -> (String, CellStyle) in
                let mark = picker.selected.contains(choice.actionType) ? "[x] " : (picker.selected.isEmpty ? "" : "[ ] ")
                let inProject = model.timeline.hiddenActionTypes.contains(choice.actionType)
                let inLog = model.timeline.logHiddenActionTypes.contains(choice.actionType)
                let hiddenNote = inProject && inLog ? "  hidden (project, this log)" : inProject ? "  hidden" : inLog ? "  hidden (this log)" : ""
                return ("\(mark)\(choice.actionType)  (\(choice.count))\(hiddenNote)", inProject || inLog ? .dim : .plain)
            }
            let progress = model.scanProgress(picker.scanned).map { " — scanning… \($0), types so far" } ?? ""
            let narrowing = picker.query.isEmpty ? "" : " matching \"\(picker.query)\""
            drawBox(title: "Filter by action type\(narrowing)\(progress) (type to narrow, Space picks, Tab/S-Tab hide)",
                    lines: lines, cursor: picker.cursor, top: nil)
        case .pathHistory(let history):
            let changes = history.history
            let source = model.source
            let sideWidth = model.historySideWidth
            let progress = changes.isDone(count: model.timeline.count) ? "" : " so far, scanning… \(Int(changes.fraction(count: model.timeline.count) * 100))%"
            // Only the rows on screen are built: a history can hold a million changes.
            drawBox(title: "History of \(history.path) — \(changes.count.counted("change", "changes"))\(progress) (j/k jump, v view, ←/→, Esc)",
                    count: changes.count, cursor: history.cursor, top: history.top) { position in
                let change = changes[position]
                let entry = source.entry(at: change.entry)
                let time = entry.map { ValueFormatting.timeOffset($0.timeOffset) } ?? ""
                // Both values cut around their first difference, as far in as the row is scrolled sideways.
                let detail = history.details[change.entry]?.text(width: sideWidth, shift: history.left)
                let rest = InspectorModel.PathHistory.rowText(actionType: entry?.actionType, detail: detail)
                return (String(source.entryNumber(at: change.entry)).leftPadded(toWidth: 6) + " " + time.leftPadded(toWidth: 8) + "  " + rest, .plain)
            }
        case .value(let viewer):
            // The rows on screen only (the model lays them out): lines are counted, never all written.
            let rows = viewer.visibleRows
            let position = viewer.top == ValueViewer.Position(line: 0, row: 0) && viewer.bottomLine == viewer.lineCount - 1
                ? nil : "lines \(viewer.top.line + 1)–\(viewer.bottomLine + 1) of \(viewer.lineCount)"
            let caption = viewer.caption.map { " " + $0 } ?? ""
            drawBox(title: "Value at \(viewer.path.isRoot ? "/" : viewer.path.description)\(caption) — \(viewer.lineCount.counted("line", "lines")) (j/k scroll, Esc closes)",
                    count: rows.count, cursor: nil, top: 0, position: position) { (rows[$0], .plain) }
        case .damage(let scroll):
            var lines = model.source.damage.map { ("line \($0.line): \($0.reason)", CellStyle.colored(.warning)) }
            if let torn = model.source.tornTail { lines.append(("line \(torn.line): \(torn.reason) (torn tail, ignored)", .colored(.warning))) }
            drawBox(title: "Damaged records (Esc closes)", lines: lines, cursor: nil, top: scroll)
        }
    }

    private mutating func drawBox(title: String, lines: [(String, CellStyle)], cursor: Int?, top: Int?) {
        drawBox(title: title, count: lines.count, cursor: cursor, top: top) { lines[$0] }
    }

    /// A box of `count` lines, of which only those on screen are asked of `line`. `position` says
    /// where the lines are in the bottom edge (by default `first–last of count` when they do not all fit).
    private mutating func drawBox(title: String, count: Int, cursor: Int?, top: Int?, position: String? = nil,
                                  line: (Int) -> (String, CellStyle)) {
        let box = layout.overlay
        let inner = box.width - 2
        let visible = max(1, box.height - 2)
        let height = min(box.height, count + 2)
        var first = top ?? 0
        if let cursor { InspectorModel.keepVisible(&first, cursor: cursor, height: visible, total: count) }
        first = max(0, min(first, max(0, count - visible)))
        let border = CellStyle.colored(.accent, bold: true)
        screen.fill(rows: box.row..<(box.row + height), columns: box.columns)
        let titleText = " " + title.truncated(toWidth: inner - 2) + " "
        let topEdge = "┌" + titleText + String(repeating: "─", count: max(0, inner - TerminalWidth.of(titleText))) + "┐"
        screen.write(topEdge, row: box.row, column: box.column, style: border)
        for offset in 0..<(height - 2) {
            let y = box.row + 1 + offset
            screen.write("│", row: y, column: box.column, style: border)
            screen.write("│", row: y, column: box.column + box.width - 1, style: border)
            let index = first + offset
            guard index < count else { continue }
            let (text, style) = line(index)
            var lineStyle = style
            if index == cursor { lineStyle.reverse = true }
            screen.write(" " + text.padded(toWidth: inner - 1), row: y, column: box.column + 1, style: lineStyle, limit: box.column + box.width - 1)
        }
        var bottom = String(repeating: "─", count: inner)
        if let position = position.map({ " \($0) " }) ?? (count > visible ? " \(first + 1)–\(min(count, first + visible)) of \(count) " : nil) {
            bottom = String(repeating: "─", count: max(0, inner - position.count - 1)) + position + "─"
        }
        screen.write("└" + bottom + "┘", row: box.row + height - 1, column: box.column, style: border)
    }
}
