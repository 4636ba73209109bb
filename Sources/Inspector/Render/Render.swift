import Recorder

/// Draws the whole screen for `model` at `size`. Pure: same model, same cells.
///
/// ```swift
/// print(render(model, size: ScreenSize(columns: 80, rows: 24)).plainText)
/// ```
func render(_ model: InspectorModel, size: ScreenSize) -> ScreenBuffer {
    var screen = ScreenBuffer(size: size)
    let layout = PaneLayout(size: size, timelineShare: model.panes.timelineWidthShare, zoomed: model.panes.zoomed)
    guard !layout.isTooSmall else {
        let minimum = PaneLayout.minimumSize
        screen.write("Terminal too small: need \(minimum.columns)×\(minimum.rows)".truncated(toWidth: size.columns), row: 0, column: 0)
        if size.rows > 1 { screen.write("q quits", row: 1, column: 0) }
        return screen
    }
    var painter = ScreenPainter(screen: screen, model: model, layout: layout)
    painter.drawTimeline()
    painter.drawSeparator()
    if model.panes.showsAction { painter.drawActionPane() } else { painter.drawStatePane() }
    painter.drawDiffPane()
    painter.drawStatusBar()
    painter.drawHintLine()
    painter.drawSearchHighlights()
    painter.drawOverlay()
    return painter.screen
}

/// Draws one frame; each pane has its own file (Render/*Pane.swift).
struct ScreenPainter {
    var screen: ScreenBuffer
    let model: InspectorModel
    let layout: PaneLayout

    /// A pane's title row: reversed when the pane has focus.
    mutating func drawTitle(_ title: String, over content: Rect, focused: Bool) {
        let row = content.row - 1
        let style = focused ? CellStyle(foreground: .accent, reverse: true) : .bold
        screen.fill(rows: row..<(row + 1), columns: content.columns, style: style)
        screen.write(" " + title, row: row, column: content.column, style: style, limit: content.column + content.width)
    }

    /// The last search's matches, underlined in every pane (until Esc).
    mutating func drawSearchHighlights() {
        guard model.scans.highlightsSearch, let needle = model.scans.lastSearch, !needle.isEmpty else { return }
        for pane in InspectorModel.Pane.allCases {
            let area = layout.content(of: pane)
            for row in area.rows { screen.highlight(needle, row: row, columns: area.columns) }
        }
    }

    mutating func drawSeparator() {
        let column = layout.separatorColumn
        guard column >= 0 else { return }
        for row in 0..<layout.statusRow { screen.write("│", row: row, column: column, style: .dim) }
    }
}
