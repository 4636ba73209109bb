/// A rectangle of cells.
struct Rect: Equatable, Sendable {
    var column: Int
    var row: Int
    var width: Int
    var height: Int

    var rows: Range<Int> { row..<(row + max(0, height)) }
    var columns: Range<Int> { column..<(column + max(0, width)) }
    func contains(column x: Int, row y: Int) -> Bool { rows.contains(y) && columns.contains(x) }
}

/// Where each pane sits for a screen size. Shared by `render` (drawing) and
/// `reduce` (mouse hit-testing, page sizes) so they always agree.
///
///     Timeline title     │ State title
///     timeline rows      │ state rows
///                        │ Diff title
///                        │ diff rows
///     status bar
///     key hints / prompt / message
struct PaneLayout: Equatable, Sendable {
    static let minimumSize = ScreenSize(columns: 40, rows: 8)

    let size: ScreenSize
    /// Content rectangles (the title row sits just above each).
    let timeline: Rect
    let state: Rect
    let diff: Rect
    let separatorColumn: Int
    let statusRow: Int
    let hintRow: Int

    /// `timelineShare`: the timeline's percentage of the width (`<`/`>`); `zoomed`: one pane alone (`z`).
    init(size: ScreenSize, timelineShare: Int = 50, zoomed: InspectorModel.Pane? = nil) {
        self.size = size
        let body = max(0, size.rows - 2)
        statusRow = size.rows - 2
        hintRow = size.rows - 1
        if let zoomed {
            let whole = Rect(column: 0, row: 1, width: size.columns, height: body - 1)
            let hidden = Rect(column: 0, row: 0, width: 0, height: 0)
            timeline = zoomed == .timeline ? whole : hidden
            state = zoomed == .state ? whole : hidden
            diff = zoomed == .diff ? whole : hidden
            separatorColumn = -1
            return
        }
        let leftWidth = min(size.columns - 12, max(12, size.columns * timelineShare / 100))
        separatorColumn = leftWidth
        let rightColumn = leftWidth + 1
        let rightWidth = max(0, size.columns - rightColumn)
        let stateBlock = (body + 1) / 2
        timeline = Rect(column: 0, row: 1, width: leftWidth, height: body - 1)
        state = Rect(column: rightColumn, row: 1, width: rightWidth, height: stateBlock - 1)
        diff = Rect(column: rightColumn, row: stateBlock + 1, width: rightWidth, height: body - stateBlock - 1)
    }

    var isTooSmall: Bool { size.columns < Self.minimumSize.columns || size.rows < Self.minimumSize.rows }

    func content(of pane: InspectorModel.Pane) -> Rect {
        switch pane {
        case .timeline: timeline
        case .state: state
        case .diff: diff
        }
    }

    /// The rectangle overlays are drawn in: centred, leaving a margin.
    var overlay: Rect {
        let width = min(size.columns - 4, max(60, size.columns * 9 / 10))
        let height = max(3, size.rows - 4)
        return Rect(column: (size.columns - width) / 2, row: 1, width: width, height: height)
    }
}
