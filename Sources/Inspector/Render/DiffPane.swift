import Recorder

extension ScreenPainter {
    /// What the selected action changed (or mark → selection), `-` red, `+` green.
    mutating func drawDiffPane() {
        let area = layout.diff
        var title = "Diff"
        let markDiff = model.comparingWithMark && model.mark != nil
        if model.showingInitialState && !markDiff {
            drawTitle("Diff", over: area, focused: model.focus == .diff)
            screen.write(" (the initial state: before any entry)", row: area.row, column: area.column, style: .dim, limit: area.column + area.width)
            return
        }
        if markDiff, let mark = model.mark {
            title += "  \(model.label(ofRow: mark)) → " + (model.showingInitialState ? "initial state" : model.label(ofRow: model.selection))
        } else if model.count > 0, model.source.gap(at: model.selection) == nil, model.source.session(at: model.selection) == nil {
            let base = model.diffBase(of: model.selection)
            if base >= 0, model.source.session(at: base) != nil {
                title += "  session start → \(model.number(model.selection))"
            } else {
                title += "  \(base >= 0 ? model.number(base) : 0) → \(model.number(model.selection))"
            }
            let spanned = model.gapsSpanned(before: model.selection)
            if !spanned.isEmpty {
                title += "  (across a gap: " + spanned.joined(separator: ", ") + ")"
            } else if let fork = model.forkIndex, base == fork, model.selection != fork + 1 {
                title += "  (the branch forks after entry \(model.number(fork)))"
            }
        }
        if !model.comparingWithMark, model.replayDivergence(at: model.selection) != nil {
            title = "Diff  entry \(model.number(model.selection)): recorded (-) → recomputed (+)"
        }
        drawTitle(title, over: area, focused: model.focus == .diff)
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
            if markDiff, model.showingInitialState {
                screen.write(" (no differences)", row: area.row, column: area.column, style: .dim, limit: area.column + area.width)
            } else if markDiff, model.mark == model.selection {
                screen.write(" (no differences: same entry)", row: area.row, column: area.column, style: .dim, limit: area.column + area.width)
            } else if model.view.entry != nil {
                screen.write(" (no changes)", row: area.row, column: area.column, style: .dim, limit: area.column + area.width)
            }
            return
        }
        for offset in 0..<area.height {
            let index = model.diffTop + offset
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
            let marker = index == model.diffMatchLine ? "▶" : " "
            // Scrolled sideways by diffLeft; a line cut at either edge says so with `…`.
            var text = DiffFormatting.plainText(line)
            let cutLeft = model.diffLeft > 0 && TerminalWidth.of(text) > 0
            if model.diffLeft > 0 { text = String(text.dropFirst(min(text.count, model.diffLeft))) }
            if cutLeft { text = "…" + text }
            let room = area.width - 1
            if TerminalWidth.of(text) > room { text = text.truncated(toWidth: room) }
            screen.write(marker + text, row: area.row + offset, column: area.column, style: style, limit: area.column + area.width)
        }
    }
}
