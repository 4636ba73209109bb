import Recorder

extension ScreenPainter {
    /// The state at the selection as a tree; nodes the action changed are highlighted.
    mutating func drawStatePane() {
        let area = layout.state
        var title = "State"
        if model.timeline.showingInitialState {
            title = "Initial state (before entry 1)"
        } else if model.source.session(at: model.timeline.selection) != nil {
            title = "State at the start of a new session"
        } else if let gap = model.source.gap(at: model.timeline.selection) {
            title += "  (" + GapDescription.entries(numbered: model.number(model.timeline.selection), gap: gap) + " not recorded)"
        } else if model.timeline.count > 0 {
            title += " after \(model.number(model.timeline.selection))"
        }
        if model.timeline.comparingWithMark, let mark = model.timeline.mark { title += "  (vs mark \(model.label(ofRow: mark)))" }
        // The breadcrumb: where the cursor is, so a deep node's path is never guessed from its indentation.
        if model.panes.focus == .state, let row = model.cursorRow, !row.path.isRoot { title += "  " + row.path.description }
        drawTitle(title, over: area, focused: model.panes.focus == .state)
        guard model.view.state != nil else {
            if let loading = model.view.loading {
                let what = model.timeline.showingInitialState ? "the initial state" : "the state after entry \(model.label(ofRow: model.timeline.selection))"
                let size = ValueFormatting.shortBytes(Int64(loading.bytes))
                let text = loading.stopped ? "Not read: Esc stopped reading \(what) (\(size)); Enter reads it"
                    : "Reading \(what) (\(size))… \(Self.spinner(model.ticks)) Esc stops; the keys keep working"
                drawWrapped(text, in: area, style: .dim)
            } else if model.timeline.count == 0 {
                screen.write(" (no entries yet)", row: area.row, column: area.column, style: .dim, limit: area.column + area.width)
            } else {
                let reason = model.view.stateError ?? "the entry's record cannot be read"
                drawWrapped("State unavailable: " + reason, in: area, style: .colored(.warning))
            }
            return
        }
        let end = area.column + area.width
        for offset in 0..<area.height {
            let index = model.panes.stateTop + offset
            guard offset < model.stateRows.count else { break }
            let row = model.stateRows[offset]
            let y = area.row + offset
            let changed = model.isChanged(row.path)
            // Indentation stops growing after a few levels (the breadcrumb says where a row is).
            let indent = row.depth > StateTree.indentLevels
                ? String(repeating: "  ", count: StateTree.indentLevels - 1) + "⋯ "
                : String(repeating: "  ", count: row.depth)
            let disclosure = row.isContainer ? (row.isExpanded ? "▾ " : "▸ ") : "  "
            var x = screen.write(" " + indent + disclosure, row: y, column: area.column, style: .dim, limit: end)
            let keyStyle: CellStyle = changed ? .colored(.changed, bold: true) : .colored(.accent)
            if let key = row.key {
                x = screen.write(key, row: y, column: x, style: keyStyle, limit: end)
                x = screen.write(row.isContainer ? " " : ": ", row: y, column: x, style: keyStyle, limit: end)
            }
            let date = row.node.scalarValue.flatMap { model.datePaths.date($0, at: row.path) }
            let summary = date ?? ValueFormatting.nodeSummary(row.node, expanded: row.isExpanded)
            let valueStyle: CellStyle = changed ? .colored(.changed, bold: true) : (row.isContainer ? .dim : .plain)
            screen.write(summary.truncated(toWidth: max(0, end - x)), row: y, column: x, style: valueStyle, limit: end)
            if changed { screen.write("●", row: y, column: area.column, style: .colored(.changed, bold: true), limit: end) }
            if index == model.panes.stateCursor && model.panes.focus == .state {
                for column in area.columns {
                    var style = screen[y, column].style
                    style.reverse = true
                    screen.applyStyle(style, row: y, columns: column..<(column + 1))
                }
            }
        }
    }

    /// A frame of the spinner that says work goes on in the background, one per tick.
    static func spinner(_ ticks: Int) -> Character {
        let frames: [Character] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
        return frames[ticks % frames.count]
    }

    /// Text broken at spaces over the rows of `area` (for messages longer than a row).
    mutating func drawWrapped(_ text: String, in area: Rect, style: CellStyle) {
        let width = max(1, area.width - 1)
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            let candidate = current.isEmpty ? String(word) : current + " " + word
            if TerminalWidth.of(candidate) <= width || current.isEmpty {
                current = candidate
            } else {
                lines.append(current)
                current = String(word)
            }
        }
        if !current.isEmpty { lines.append(current) }
        for (row, line) in zip(area.rows, lines) {
            screen.write(" " + line, row: row, column: area.column, style: style, limit: area.column + area.width)
        }
    }
}
