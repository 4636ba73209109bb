import Recorder

extension ScreenPainter {
    /// What the selected action changed (or mark → selection), `-` red, `+` green.
    mutating func drawDiffPane() {
        let area = layout.diff
        var title = "Diff"
        let markDiff = model.timeline.comparingWithMark && model.timeline.mark != nil
        if model.timeline.showingInitialState && !markDiff {
            drawTitle("Diff", over: area, focused: model.panes.focus == .diff)
            screen.write(" (the initial state: before any entry)", row: area.row, column: area.column, style: .dim, limit: area.column + area.width)
            return
        }
        if markDiff, let mark = model.timeline.mark {
            title += "  \(model.label(ofRow: mark)) → " + (model.timeline.showingInitialState ? "initial state" : model.label(ofRow: model.timeline.selection))
        } else if model.timeline.count > 0, model.source.gap(at: model.timeline.selection) == nil, model.source.session(at: model.timeline.selection) == nil {
            let base = model.diffBase(of: model.timeline.selection)
            if base >= 0, model.source.session(at: base) != nil {
                title += "  session start → \(model.number(model.timeline.selection))"
            } else {
                title += "  \(base >= 0 ? model.number(base) : 0) → \(model.number(model.timeline.selection))"
            }
            let spanned = model.gapsSpanned(before: model.timeline.selection)
            if !spanned.isEmpty {
                title += "  (across a gap: " + spanned.joined(separator: ", ") + ")"
            } else if let fork = model.forkIndex, base == fork, model.timeline.selection != fork + 1 {
                title += "  (the branch forks after entry \(model.number(fork)))"
            }
        }
        if !model.timeline.comparingWithMark, model.replayDivergence(at: model.timeline.selection) != nil {
            title = "Diff  entry \(model.number(model.timeline.selection)): recorded (-) → recomputed (+)"
        }
        drawTitle(title, over: area, focused: model.panes.focus == .diff)
        let lines = model.view.diffLines
        if let loading = model.view.loading {
            drawWrapped(loading.stopped ? "(not read)" : "(reading the states…)", in: area, style: .dim)
            return
        }
        if let reason = model.view.diffError {
            drawWrapped(reason, in: area, style: .colored(.warning))
            return
        }
        if lines.isEmpty {
            if markDiff, model.timeline.showingInitialState {
                screen.write(" (no differences)", row: area.row, column: area.column, style: .dim, limit: area.column + area.width)
            } else if markDiff, model.timeline.mark == model.timeline.selection {
                screen.write(" (no differences: same entry)", row: area.row, column: area.column, style: .dim, limit: area.column + area.width)
            } else if model.view.entry != nil {
                screen.write(" (no changes)", row: area.row, column: area.column, style: .dim, limit: area.column + area.width)
            }
            return
        }
        for offset in 0..<area.height {
            let index = model.panes.diffTop + offset
            guard index < lines.count else { break }
            let line = lines[index]
            let style: CellStyle
            switch line.kind {
            case .path: style = .colored(.accent, bold: true)
            case .removed: style = .colored(.removed)
            case .added: style = .colored(.added)
            case .context, .unchanged: style = .plain
            case .collapsed: style = .dim
            }
            let marker = index == model.panes.diffMatchLine ? "▶" : " "
            // Scrolled sideways by diffLeft; a line cut at either edge says so with `…`.
            var text = DiffFormatting.plainText(line)
            let cutLeft = model.panes.diffLeft > 0 && TerminalWidth.of(text) > 0
            if model.panes.diffLeft > 0 { text = String(text.dropFirst(min(text.count, model.panes.diffLeft))) }
            if cutLeft { text = "…" + text }
            let room = area.width - 1
            if TerminalWidth.of(text) > room { text = text.truncated(toWidth: room) }
            screen.write(marker + text, row: area.row + offset, column: area.column, style: style, limit: area.column + area.width)
        }
    }
}
