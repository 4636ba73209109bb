import Recorder
import Foundation

extension ScreenPainter {
    /// The selected action in the state pane's place (`p`): who sent it, how long
    /// the reducer took, where it was dispatched (when recorded), and the whole
    /// payload as a foldable tree (Model/PayloadTree.swift builds the rows on screen).
    mutating func drawActionPane() {
        let area = layout.state
        let tree = model.panes.payloadTree
        // Focused, the title is the breadcrumb (the hint line still says `p`).
        var title = "Action \(model.label(ofRow: model.timeline.selection))  (p: back to the state)"
        if model.panes.focus == .state, let row = tree.cursorRow { title = "Action \(model.label(ofRow: model.timeline.selection))  " + row.path.description }
        drawTitle(title, over: area, focused: model.panes.focus == .state)
        guard model.view.entry != nil else {
            // A gap's, a session's or a damaged record's row holds no action: say what it is instead.
            if model.timeline.count > 0, let what = model.view.stateError ?? model.view.diffError {
                drawWrapped("No action: " + what, in: area, style: .colored(.warning))
            } else {
                screen.write(" (no entries yet)", row: area.row, column: area.column, style: .dim, limit: area.column + area.width)
            }
            return
        }
        let end = area.column + area.width
        var y = area.row
        for (text, style) in tree.lines.dropFirst(tree.top).prefix(area.height) {
            let cellStyle: CellStyle = switch style {
            case .title: .bold
            case .note: .dim
            case .cause: .colored(.accent)
            case .plain: .plain
            }
            screen.write(" " + text, row: y, column: area.column, style: cellStyle, limit: end)
            y += 1
        }
        let cursorRow = tree.cursorRow
        for row in tree.rows where y < area.row + area.height {
            let indent = row.depth > StateTree.indentLevels
                ? String(repeating: "  ", count: StateTree.indentLevels - 1) + "⋯ "
                : String(repeating: "  ", count: row.depth + 1)
            let disclosure = row.isContainer ? (row.isExpanded ? "▾ " : "▸ ") : "  "
            var x = screen.write(" " + indent + disclosure, row: y, column: area.column, style: .dim, limit: end)
            if let key = row.key {
                x = screen.write(key + (row.isContainer ? " " : ": "), row: y, column: x, style: .colored(.accent), limit: end)
            }
            let summary = ValueFormatting.nodeSummary(row.node, expanded: row.isExpanded)
            screen.write(summary.truncated(toWidth: max(0, end - x)), row: y, column: x, style: row.isContainer ? .dim : .plain, limit: end)
            if row == cursorRow && model.panes.focus == .state {
                for column in area.columns {
                    var style = screen[y, column].style
                    style.reverse = true
                    screen.applyStyle(style, row: y, columns: column..<(column + 1))
                }
            }
            y += 1
        }
    }
}

extension ValueFormatting {
    /// `850 ns`, `12.5 µs`, `3.20 ms`, `1.50 s`.
    static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0 else { return "?" }
        if seconds < 1e-6 { return "\(Int((seconds * 1e9).rounded())) ns" }
        if seconds < 1e-3 { return String(format: "%.1f µs", seconds * 1e6) }
        if seconds < 1 { return String(format: "%.2f ms", seconds * 1e3) }
        return String(format: "%.2f s", seconds)
    }
}
