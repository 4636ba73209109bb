/// Draws the list view: a title, one row per recording (the selected one
/// reversed, failed tests in the warning colour), a status line and key hints.
func render(_ model: RecordingListModel) -> ScreenBuffer {
    let size = model.size
    var screen = ScreenBuffer(size: size)
    guard size.rows >= 4, size.columns >= 20 else {
        screen.write("Terminal too small", row: 0, column: 0, limit: size.columns)
        return screen
    }
    let title = " Recordings  \(model.recordings.count) under \(model.directory)"
    screen.fill(rows: 0..<1, columns: 0..<size.columns, style: .bold)
    screen.write(title.truncated(toWidth: size.columns), row: 0, column: 0, style: .bold)
    if model.recordings.isEmpty {
        screen.write("No recordings (*.jsonl) here.".truncated(toWidth: size.columns - 2), row: 1, column: 1, style: .dim)
    }
    for line in 0..<model.visibleRows {
        let index = model.top + line
        guard index < model.recordings.count else { break }
        let recording = model.recordings[index]
        let selected = index == model.cursor
        var style: CellStyle = recording.failed ? .colored(.warning) : (recording.isLog ? .plain : .dim)
        if selected {
            style.reverse = true
            screen.fill(rows: (line + 1)..<(line + 2), columns: 0..<size.columns, style: style)
        }
        screen.write((" " + RecordingListFormat.row(recording)).truncated(toWidth: size.columns), row: line + 1, column: 0, style: style)
    }
    let status: String
    if let selected = model.selected {
        status = " recording \(model.cursor + 1)/\(model.recordings.count)  │  \(selected.path)"
    } else {
        status = " no recordings"
    }
    screen.fill(rows: (size.rows - 2)..<(size.rows - 1), columns: 0..<size.columns, style: .reverse)
    screen.write(status.truncated(toWidth: size.columns), row: size.rows - 2, column: 0, style: .reverse)
    let hints = model.message ?? "↑↓ move  Enter open (q there comes back)  q quit"
    screen.write(hints.truncated(toWidth: size.columns), row: size.rows - 1, column: 0, style: model.message == nil ? .dim : .plain)
    return screen
}
