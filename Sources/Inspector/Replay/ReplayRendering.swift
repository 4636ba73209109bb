import Recorder

extension InspectorModel.ReplayMarker {
    /// The symbol in the timeline's mark column.
    var symbol: String {
        switch self {
        case .divergent: "≠"
        case .cannotReplay: "?"
        case .skipped: "-"
        case .branch: "⎇"
        case .forkPoint: "┬"
        }
    }

    var style: CellStyle {
        switch self {
        case .divergent: .colored(.removed, bold: true)
        case .cannotReplay: .colored(.warning, bold: true)
        case .skipped: .dim
        case .branch, .forkPoint: .colored(.accent, bold: true)
        }
    }
}

extension ScreenPainter {
    /// The action editor (`a`) on the hint line, the end of the JSON in view; a
    /// decode error from the last Enter replaces the status bar above it.
    mutating func drawActionEditor(_ editor: LineEditor) {
        let width = layout.size.columns
        if let error = model.overlays.editError {
            let row = layout.statusRow
            screen.fill(rows: row..<(row + 1), columns: 0..<width, style: CellStyle(foreground: .warning, bold: true, reverse: true))
            screen.write(" ✗ \(error)  (fix it and press Enter; Esc cancels)", row: row, column: 0,
                         style: CellStyle(foreground: .warning, bold: true, reverse: true), limit: width)
        }
        drawPrompt("action> ", editor)
    }
}
