import Recorder

extension ScreenPainter {
    /// Below this width the timeline drops its time column.
    static let timeColumnMinimumWidth = 36

    /// One row per entry: mark, number, time offset, effect marker, action
    /// and payload summary, and on the right how many paths it changed.
    mutating func drawTimeline() {
        let area = layout.timeline
        var title = "Timeline  \(model.lastNumber.counted("entry", "entries"))"
        if let filter = model.timeline.filter {
            title = "Timeline  \(filter.entries.count)/\(model.timeline.count) " + (filter.shown.map { "\"\($0.sorted().joined(separator: " + "))\"" } ?? "")
            if !filter.hidden.isEmpty { title += " \(filter.hidden.count) hidden" }
        }
        drawTitle(title, over: area, focused: model.panes.focus == .timeline)
        drawSparkline(in: area, after: 2 + TerminalWidth.of(title))
        guard model.timeline.count > 0 else {
            screen.write(" (no entries yet)", row: area.row, column: area.column, style: .dim, limit: area.column + area.width)
            return
        }
        let numberWidth = max(3, String(model.lastNumber).count)
        for offset in 0..<area.height {
            let row = model.timeline.timelineTop + offset
            guard let index = model.entryIndex(atRow: row) else { break }
            let y = area.row + offset
            let selected = index == model.timeline.selection
            guard let entry = model.source.entry(at: index) else {
                if let text = placeholderText(at: index, numberWidth: numberWidth) {
                    // Where entries were not recorded, or a new session starts: a row of its own, as `rewind log` prints it.
                    var style = CellStyle.colored(model.source.gap(at: index) != nil ? .warning : .accent)
                    style.reverse = selected
                    screen.write(text.truncated(toWidth: area.width).padded(toWidth: area.width), row: y, column: area.column, style: style,
                                 limit: area.column + area.width)
                    continue
                }
                if let record = model.source.damagedRecord(at: index) {
                    // The damaged record's own row: the numbers after it stay those of the file.
                    let text = " \(String(model.number(index)).leftPadded(toWidth: numberWidth)) ⚠ damaged: line \(record.line), \(record.reason)"
                    var style = CellStyle.colored(.warning)
                    style.reverse = selected
                    screen.write(text.truncated(toWidth: area.width).padded(toWidth: area.width), row: y, column: area.column, style: style,
                                 limit: area.column + area.width)
                    continue
                }
                screen.write(" \(String(model.number(index)).leftPadded(toWidth: numberWidth)) (unreadable)", row: y, column: area.column, style: .colored(.warning), limit: area.column + area.width)
                continue
            }
            drawTimelineRow(entry, y: y, area: area, numberWidth: numberWidth, selected: selected)
        }
    }

    /// A gap's row (`  3–5 ⋯ not recorded (3 entries): the recording queue was full …`) or a new
    /// session's (`      ── new recording session 2026-12-05T14:02:11Z, MyApp`); nil for other rows.
    private func placeholderText(at index: Int, numberWidth: Int) -> String? {
        if let gap = model.source.gap(at: index) {
            let range = GapDescription.range(numbered: model.number(index), gap: gap)
            return " " + range.leftPadded(toWidth: numberWidth) + " ⋯ " + GapDescription.rowText(gap)
        }
        if let session = model.source.session(at: index) {
            return " " + String(repeating: " ", count: numberWidth) + " ── " + session.description
        }
        return nil
    }

    /// The sparkline, right-aligned in the title row.
    private mutating func drawSparkline(in area: Rect, after titleWidth: Int) {
        let bars = model.timeline.sparkline.bars()
        guard !bars.isEmpty, bars.count <= model.sparklineColumns else { return }
        let row = area.row - 1
        var x = area.column + area.width - bars.count - 1
        guard x > area.column + titleWidth else { return }   // a long title (a filter) keeps its text
        let focused = model.panes.focus == .timeline
        for (bar, slow) in bars {
            var style = CellStyle(foreground: slow ? .warning : .accent, bold: slow, reverse: focused)
            if !focused { style.bold = true }
            screen.write(String(bar), row: row, column: x, style: style, limit: area.column + area.width)
            x += 1
        }
    }

    private mutating func drawTimelineRow(_ entry: TimelineEntry, y: Int, area: Rect, numberWidth: Int, selected: Bool) {
        let end = area.column + area.width
        // The mark, or what replay found: ≠ divergent, ? cannot replay, - skipped, ⎇ branch.
        let replayMarker = model.replayMarker(for: entry.index)
        let markSymbol = model.timeline.mark == entry.index ? "*" : replayMarker?.symbol ?? " "
        let markStyle = model.timeline.mark == entry.index ? CellStyle.colored(.accent, bold: true) : replayMarker?.style ?? .colored(.accent, bold: true)
        var x = screen.write(markSymbol, row: y, column: area.column, style: markStyle, limit: end)
        x = screen.write(String(model.number(entry.index)).leftPadded(toWidth: numberWidth) + " ", row: y, column: x, style: .dim, limit: end)
        // A narrow timeline keeps the action names: the time column goes first.
        if area.width >= Self.timeColumnMinimumWidth {
            x = screen.write(ValueFormatting.timeOffset(entry.timeOffset).leftPadded(toWidth: 8) + " ", row: y, column: x, style: .dim, limit: end)
        }
        // Effects dispatch on their own: mark them so cause and effect read apart.
        x = screen.write(entry.fromEffect ? "↳ " : "  ", row: y, column: x, style: .colored(.accent), limit: end)
        let changed = entry.changedPaths.count
        let countText = changed == 0 ? "·" : "±\(changed)"
        let countColumn = end - TerminalWidth.of(countText) - 1
        x = screen.write(entry.actionType, row: y, column: x, style: .bold, limit: countColumn - 1)
        let payload = ValueFormatting.payloadSummary(of: entry)
        if !payload.isEmpty, x < countColumn - 2 {
            screen.write(" " + payload.truncated(toWidth: countColumn - 2 - x), row: y, column: x, limit: countColumn - 1)
        }
        screen.write(countText, row: y, column: countColumn, style: changed == 0 ? .dim : .colored(.changed), limit: end)
        if replayMarker == .skipped {
            for column in area.columns {
                var style = screen[y, column].style
                style.dim = true
                screen.applyStyle(style, row: y, columns: column..<(column + 1))
            }
        }
        if selected {
            let focused = model.panes.focus == .timeline
            for column in area.columns {
                var style = screen[y, column].style
                style.reverse = true
                style.dim = false
                if !focused { style.bold = true }
                screen.applyStyle(style, row: y, columns: column..<(column + 1))
            }
        }
    }
}
