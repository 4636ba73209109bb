import Recorder

extension ScreenPainter {
    /// Help, filter picker, path history or damage list, boxed over the panes.
    mutating func drawOverlay() {
        guard let overlay = model.overlay else { return }
        switch overlay {
        case .help(let scroll):
            let lines = KeyTable.bindings.map { binding in
                (binding.keyLabel.padded(toWidth: 14) + binding.description, CellStyle.plain)
            }
            drawBox(title: "Keys (Esc closes)", lines: lines, cursor: nil, top: scroll)
        case .filterPicker(let picker):
            let lines = picker.choices.map { ("\($0.actionType)  (\($0.count))", CellStyle.plain) }
            let progress = model.scanProgress(picker.scanned).map { " — scanning… \($0), types so far" } ?? ""
            drawBox(title: "Filter by action type\(progress) (Enter picks, Esc cancels)", lines: lines, cursor: picker.cursor, top: nil)
        case .pathHistory(let history):
            let lines = history.entries.map { index -> (String, CellStyle) in
                let entry = model.source.entry(at: index)
                let time = entry.map { ValueFormatting.timeOffset($0.timeOffset) } ?? ""
                let action = entry.map { $0.actionType + " " + ValueFormatting.payloadSummary($0.payload, actionType: $0.actionType) } ?? "(unreadable)"
                return (String(index + 1).leftPadded(toWidth: 6) + " " + time.leftPadded(toWidth: 8) + "  " + action, .plain)
            }
            let progress = model.scanProgress(history.scanned).map { " so far, scanning… \($0)" } ?? ""
            drawBox(title: "History of \(history.path) — \(history.entries.count) changes\(progress) (j/k jump, Enter/Esc close)",
                    lines: lines, cursor: history.cursor, top: nil)
        case .damage(let scroll):
            var lines = model.source.damage.map { ("line \($0.line): \($0.reason)", CellStyle.colored(.warning)) }
            if let torn = model.source.tornTail { lines.append(("line \(torn.line): \(torn.reason) (torn tail, ignored)", .colored(.warning))) }
            drawBox(title: "Damaged records (Esc closes)", lines: lines, cursor: nil, top: scroll)
        }
    }

    private mutating func drawBox(title: String, lines: [(String, CellStyle)], cursor: Int?, top: Int?) {
        let box = layout.overlay
        let inner = box.width - 2
        let visible = max(1, box.height - 2)
        let height = min(box.height, lines.count + 2)
        var first = top ?? 0
        if let cursor { InspectorModel.keepVisible(&first, cursor: cursor, height: visible, total: lines.count) }
        first = max(0, min(first, max(0, lines.count - visible)))
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
            guard index < lines.count else { continue }
            let (text, style) = lines[index]
            var lineStyle = style
            if index == cursor { lineStyle.reverse = true }
            screen.write(" " + text.padded(toWidth: inner - 1), row: y, column: box.column + 1, style: lineStyle, limit: box.column + box.width - 1)
        }
        var bottom = String(repeating: "─", count: inner)
        if lines.count > visible {
            let position = " \(first + 1)–\(min(lines.count, first + visible)) of \(lines.count) "
            bottom = String(repeating: "─", count: max(0, inner - position.count - 1)) + position + "─"
        }
        screen.write("└" + bottom + "┘", row: box.row + height - 1, column: box.column, style: border)
    }
}
