import Recorder

/// The filter picker, path history, damage list and help overlays.
extension InspectorModel {
    mutating func handleOverlayKey(_ key: Key) {
        guard let overlay = overlays.overlay else { return }
        if case .filterPicker(let picker) = overlay { handlePickerKey(key, picker); return }
        if case .value = overlay { handleViewerKey(key); return }
        if key == .escape || key == .character("q") || (key == .character("?") && overlay == .help(scroll: 0)) {
            self.overlays.overlay = nil
            return
        }
        let delta: Int
        switch key {
        case .down, .character("j"): delta = 1
        case .up, .character("k"): delta = -1
        case .pageDown, .character(" "), .control("f"): delta = max(1, layout.overlay.height - 3)
        case .pageUp, .character("b"), .control("b"): delta = -max(1, layout.overlay.height - 3)
        case .home, .character("g"): delta = Int.min / 2
        case .end, .character("G"): delta = Int.max / 2
        case .enter:
            chooseInOverlay()
            return
        case .right, .left, .character("l"), .character("h"), .character("v"):
            handleHistoryKey(key)
            return
        default:
            return
        }
        switch overlay {
        case .help(let scroll):
            let lines = helpLines(width: layout.overlay.width - 3).count
            self.overlays.overlay = .help(scroll: Self.clamp(scroll.addingClamped(delta), count: max(1, lines - (layout.overlay.height - 3))))
        case .damage(let scroll):
            self.overlays.overlay = .damage(scroll: Self.clamp(scroll.addingClamped(delta), count: source.damage.count))
        case .filterPicker, .value:
            break
        case .pathHistory(var history):
            history.cursor = Self.clamp(history.cursor.addingClamped(delta), count: history.history.count)
            history.cursorMoved = true
            self.overlays.overlay = .pathHistory(history)
            // Moving through the history moves the selection, so the panes behind follow.
            if history.history.count > 0 { selectKeepingFilter(history.history[history.cursor].entry) }
        }
    }

    private static func clamp(_ value: Int, count: Int) -> Int { min(max(0, value), max(0, count - 1)) }

    /// The `?` overlay's lines, `width` columns wide: every key that works here, a description
    /// too long for the row going on under its column (not cut); then, under a line saying what
    /// they need, the keys that do nothing in this inspector (`unavailable`).
    func helpLines(width: Int) -> [(text: String, unavailable: Bool)] {
        let keyColumn = 14
        func lines(_ binding: KeyBinding) -> [String] {
            let rows = WrappedLine.wrap(binding.description, width: max(8, width - keyColumn))
            return rows.enumerated().map { ($0.offset == 0 ? binding.keyLabel : "").padded(toWidth: keyColumn) + $0.element }
        }
        var result: [(text: String, unavailable: Bool)] = []
        for binding in KeyTable.bindings where unavailability(of: binding) == nil {
            result += lines(binding).map { ($0, false) }
        }
        let missing = KeyTable.bindings.filter { unavailability(of: $0) != nil }
        for requirement in Set(missing.compactMap { unavailability(of: $0) }).sorted(by: { $0.note < $1.note }) {
            result.append(("", false))
            result += WrappedLine.wrap("Only in \(requirement.place), not here:", width: width).map { ($0, true) }
            for binding in missing where unavailability(of: binding) == requirement { result += lines(binding).map { ($0, true) } }
        }
        return result
    }

    private mutating func chooseInOverlay() {
        switch overlays.overlay {
        case .filterPicker:
            break
        case .pathHistory(let history):
            overlays.overlay = nil
            guard history.cursor < history.history.count else { return }
            let change = history.history[history.cursor]
            selectKeepingFilter(change.entry)
            // The state pane stays on the value watched, where it is after that entry.
            keepCursor(on: change.pathAfter ?? change.pathBefore ?? history.path)
        default:
            overlays.overlay = nil
        }
    }

    /// Selects `index`, clearing a filter that would hide it.
    private mutating func selectKeepingFilter(_ index: Int) {
        if let filter = timeline.filter, !filter.entries.contains(index) { self.timeline.filter = nil }
        select(entry: index)
    }

    // MARK: Filter

    mutating func toggleFilter() {
        if let filter = timeline.filter, filter.shown != nil {
            applyFilter(shown: nil)
            overlays.message = "Filter \"\(filter.shown!.sorted().joined(separator: " + "))\" cleared"
            return
        }
        guard timeline.count > 0 else { overlays.message = "Nothing to filter: the log has no entries"; return }
        // Filled in by `advanceScans`, a slice per event.
        overlays.overlay = .filterPicker(FilterPicker())
    }

    /// Restricts the timeline to the `shown` types (all when nil), always without the hidden
    /// ones; the matches are collected by `advanceScans`, over every entry.
    mutating func applyFilter(shown: Set<String>?) {
        let hidden = timeline.hiddenActionTypes.union(timeline.logHiddenActionTypes)
        guard shown != nil || !hidden.isEmpty else { timeline.filter = nil; return }
        timeline.filter = ActionFilter(shown: shown, hidden: hidden, entries: [], selectFrom: timeline.selection)
    }

    /// The picker: typing narrows the list, ↑/↓ PgUp/PgDn Home/End move, Space picks
    /// several, Enter shows them (or the one under the cursor), Tab hides or unhides the
    /// type under the cursor everywhere (saved for the project), Shift-Tab in this log only
    /// (saved for the log file), Esc cancels.
    mutating func handlePickerKey(_ key: Key, _ current: FilterPicker) {
        var picker = current
        let visible = picker.visibleChoices
        let page = max(1, layout.overlay.height - 3)
        func move(_ delta: Int) { picker.cursor = Self.clamp(picker.cursor.addingClamped(delta), count: visible.count) }
        let pointed = visible.indices.contains(picker.cursor) ? visible[picker.cursor].actionType : nil
        switch key {
        case .escape: overlays.overlay = nil; return
        // q closes the picker as it closes every overlay, until something is typed (then it narrows).
        case .character("q") where picker.query.isEmpty: overlays.overlay = nil; return
        case .down: move(1)
        case .up: move(-1)
        case .pageDown: move(page)
        case .pageUp: move(-page)
        case .home: move(Int.min / 2)
        case .end: move(Int.max / 2)
        case .character(" "):
            if let pointed { if picker.selected.remove(pointed) == nil { picker.selected.insert(pointed) } }
        case .tab:
            guard let pointed else { break }
            if timeline.hiddenActionTypes.remove(pointed) == nil { timeline.hiddenActionTypes.insert(pointed) }
            request(.saveHiddenActionTypes(timeline.hiddenActionTypes.sorted()))
            applyFilter(shown: timeline.filter?.shown)
        case .backTab:
            guard let pointed else { break }
            guard let log = timeline.hideListLog else { overlays.message = "This log has no file to keep a hide-list for: Tab hides for the project"; break }
            if timeline.logHiddenActionTypes.remove(pointed) == nil { timeline.logHiddenActionTypes.insert(pointed) }
            request(.saveLogHiddenActionTypes(log: log, types: timeline.logHiddenActionTypes.sorted()))
            applyFilter(shown: timeline.filter?.shown)
        case .enter:
            overlays.overlay = nil
            let shown = picker.selected.isEmpty ? pointed.map { [$0] } : picker.selected
            guard let shown else { return }
            applyFilter(shown: shown)
            return
        case .backspace:
            if !picker.query.isEmpty { picker.query.removeLast(); picker.cursor = 0 }
        case .character(let character):
            picker.query.append(character)
            picker.cursor = 0
        default:
            break
        }
        overlays.overlay = .filterPicker(picker)
    }

    // MARK: Marks

    mutating func toggleMark() {
        guard timeline.count > 0 else { return }
        // A mark is an entry; the initial state is what `d` there compares it with.
        if timeline.showingInitialState { overlays.message = "The initial state cannot be marked: mark an entry, then :0 and d diff them"; return }
        if timeline.mark == timeline.selection {
            timeline.mark = nil
            timeline.comparingWithMark = false
            overlays.message = "Mark removed"
        } else {
            timeline.mark = timeline.selection
            overlays.message = "Marked entry \(label(ofRow: timeline.selection)); select another and press d to diff them"
        }
    }

    mutating func toggleMarkComparison() {
        guard let mark = timeline.mark else { overlays.message = "No mark: press m on an entry first"; return }
        timeline.comparingWithMark.toggle()
        guard timeline.comparingWithMark else { overlays.message = leavingMarkDiff; return }
        overlays.message = timeline.showingInitialState
            ? "Diff: entry \(label(ofRow: mark)) → the initial state; d again turns it off"
            : "Diff: entry \(label(ofRow: mark)) → entry \(label(ofRow: timeline.selection)); d again for the action's own diff"
    }

    /// What the diff pane shows once the mark diff is turned off (`d`, `Esc`).
    var leavingMarkDiff: String { timeline.showingInitialState ? "Back to the initial state alone" : "Back to the selected action's diff" }

    // MARK: Path history

    mutating func openPathHistory() {
        // The action view hides the state tree: its cursor is on the payload, whose values have no history.
        if actionPaneHasKeys { overlays.message = "w shows a state value's history; p returns to the state"; return }
        guard panes.focus == .state, let row = cursorRow else { overlays.message = "Select a state node first (Tab to the state pane)"; return }
        // Filled in by `advanceScans`, a slice per event.
        overlays.overlay = .pathHistory(PathHistory(history: ValueHistory(path: row.path, origin: timeline.selection, source: source)))
    }

    /// → / ← scroll both values of every row sideways, together (long values); `v` shows the
    /// value a row's entry left (or, for a removal, the value it removed) whole.
    private mutating func handleHistoryKey(_ key: Key) {
        guard case .pathHistory(var history) = overlays.overlay else { return }
        switch key {
        case .right, .character("l"):
            history.left = min(history.left + Self.sidewaysStep, historyLeftLimit(history))
            overlays.overlay = .pathHistory(history)
        case .left, .character("h"):
            history.left = max(0, history.left - Self.sidewaysStep)
            overlays.overlay = .pathHistory(history)
        default:
            viewHistoryValue(history)
        }
    }

    /// How far the rows on screen scroll sideways: until the longest value's end shows.
    private func historyLeftLimit(_ history: PathHistory) -> Int {
        history.details.values.map { $0.shiftLimit(width: historySideWidth) }.max() ?? 0
    }

    /// Columns of a history row before what scrolls sideways: the entry number and time.
    static let historyPrefixWidth = 17

    /// Columns each side of a row's `old → new` takes: both fit on screen around their first difference.
    var historySideWidth: Int {
        let room = layout.overlay.width - 3 - Self.historyPrefixWidth - PathHistory.actionWidth - 2
        return max(12, (room - 3) / 2)
    }

    /// `v` on a history row: the value after that entry, in the viewer; Esc comes back here.
    private mutating func viewHistoryValue(_ history: PathHistory) {
        guard history.cursor < history.history.count else { return }
        let change = history.history[history.cursor]
        // The selection follows the history's cursor: the state on screen is that entry's.
        guard view.selection == change.entry, let state = view.state else {
            overlays.message = "The state after entry \(change.entry + 1) is still being read: v again once it shows"
            return
        }
        let path = change.pathAfter ?? change.pathBefore ?? history.path
        guard let value = change.pathAfter.flatMap({ state[pointer: $0] }) else {
            overlays.message = "Entry \(change.entry + 1) removed \(path): there is no value after it (the row shows what it was)"
            return
        }
        var viewer = ValueViewer(path: path, node: value)
        viewer.caption = "after entry \(change.entry + 1)"
        viewer.returnsTo = history
        overlays.overlay = .value(viewer)
    }

    /// Works out `old → new` for the history rows on screen (the renderer only draws them).
    /// Each takes two states, so not while the walk is still scrolling the list:
    /// only once it is done or the user moved the cursor.
    mutating func refreshHistoryDetails() {
        guard var history = overlays.overlay?.takePathHistory() else { return }
        overlays.overlay = nil
        let visible = max(1, layout.overlay.height - 2)
        Self.keepVisible(&history.top, cursor: history.cursor, height: visible, total: history.history.count)
        if history.cursorMoved || history.history.isDone(count: timeline.count) {
            let shown = history.top..<min(history.history.count, history.top + visible)
            var details: [Int: ValueChangeText.Values] = [:]
            var slow: [ValueChange] = []
            for position in shown {
                let change = history.history[position]
                if let known = history.details[change.entry] {
                    details[change.entry] = known
                } else if isQuickState(change.entry) && (change.entry == 0 || isQuickState(change.entry - 1)) {
                    details[change.entry] = ValueChangeText.values(of: change, source: source)
                } else {
                    slow.append(change)
                }
            }
            history.details = details
            // Big states are read for them in the background; the rows say `…` until then.
            if !slow.isEmpty && slow != history.describing {
                history.describing = slow
                request(.describeChanges(slow))
            }
        }
        overlays.overlay = .pathHistory(history)
    }

    /// The background reader worked out old and new of history rows (``InspectorEffect/describeChanges(_:)``).
    mutating func changesDescribed(_ described: [Int: ValueChangeText.Values]) {
        guard var history = overlays.overlay?.takePathHistory() else { return }
        history.details.merge(described) { _, new in new }
        history.describing = []
        overlays.overlay = .pathHistory(history)
    }

    /// True when the state after entry `index` is at hand: cached or small.
    func isQuickState(_ index: Int) -> Bool {
        max(source.stateRebuildBytes(at: index), source.stateBytesEstimate(at: index) ?? 0) <= quickStateBytes
    }

    // MARK: Value viewer

    /// The viewer's keys, as less has them: j/k a row, Space/PgDn and b/PgUp a page,
    /// Ctrl-D/Ctrl-U half a page, g/G the ends; Esc, q or Enter close it.
    private mutating func handleViewerKey(_ key: Key) {
        guard var viewer = overlays.overlay?.takeValueViewer() else { return }
        let page = max(1, viewer.height - 1)
        switch key {
        case .escape, .character("q"), .enter: overlays.overlay = viewer.returnsTo.map { .pathHistory($0) }; return
        case .down, .character("j"): viewer.scroll(by: 1)
        case .up, .character("k"): viewer.scroll(by: -1)
        case .pageDown, .character(" "), .control("f"): viewer.scroll(by: page)
        case .pageUp, .character("b"), .control("b"): viewer.scroll(by: -page)
        case .control("d"): viewer.scroll(by: max(1, page / 2))
        case .control("u"): viewer.scroll(by: -max(1, page / 2))
        case .home, .character("g"): viewer.scrollToStart()
        case .end, .character("G"): viewer.scrollToEnd()
        default: break
        }
        overlays.overlay = .value(viewer)
    }

    /// Lays the viewer out in the overlay's box (after every event: keys, a resize).
    mutating func layOutValueViewer() {
        guard var viewer = overlays.overlay?.takeValueViewer() else { return }
        viewer.layout(width: layout.overlay.width - 3, height: layout.overlay.height - 2)
        overlays.overlay = .value(viewer)
    }

    /// Opens the viewer on the state node under the cursor.
    mutating func openValueViewer() {
        if actionPaneHasKeys { openPayloadValueViewer(); return }
        guard panes.focus == .state, let row = cursorRow else { overlays.message = "Select a state node first (Tab to the state pane)"; return }
        overlays.overlay = .value(ValueViewer(path: row.path, node: row.node))
    }

    // MARK: Damage

    mutating func openDamageList() {
        if source.damage.isEmpty && source.tornTail == nil {
            overlays.message = "No damaged records"
        } else {
            overlays.overlay = .damage(scroll: 0)
        }
    }

    // MARK: Export

    /// Exports the diff on screen as Markdown: for the selected action, the
    /// exporter's report of that one entry (`rewind export --format markdown`);
    /// after `m` and `d`, the mark-against-selection diff exactly as the diff
    /// pane shows it (at `:0`, the mark against the initial state) — not a report
    /// of every entry in between, which on a big log takes seconds and megabytes.
    /// The initial state alone has no diff: `e` there says so. The session's effect runner builds the
    /// Markdown, writes the file in the background and reports progress (`exportProgress`, `exportFinished`).
    mutating func exportDiff() {
        guard view.entry != nil else { overlays.message = "Nothing to export"; return }
        guard scans.exporting == nil else { overlays.message = "An export is still being written"; return }
        guard view.diffError == nil else { overlays.message = "Nothing to export: the diff on screen cannot be shown"; return }
        let base = Self.baseName(of: source.name)
        let export: DiffExport
        let from: Int
        // Numbered as `:N` is: 0 is the initial state.
        let to = timeline.showingInitialState ? "0" : label(ofRow: timeline.selection)
        if timeline.comparingWithMark, let mark = timeline.mark {
            from = mark
            export = .markedDiff(logName: source.name, from: label(ofRow: mark), to: timeline.showingInitialState ? nil : label(ofRow: timeline.selection), lines: view.diffLines)
        } else if timeline.showingInitialState {
            overlays.message = "Nothing to export: the initial state has no diff of its own (m an entry, :0, d)"
            return
        } else {
            from = diffBase(of: timeline.selection)
            export = .entry(timeline.selection)
        }
        scans.exporting = ExportProgress()
        overlays.message = "Exporting the diff… (Esc cancels)"
        request(.exportDiff(export, suggestedName: "\(base)-diff-\(from >= 0 ? label(ofRow: from) : "0")-\(to).md"))
    }
}

extension InspectorModel {
    /// `logs/app.jsonl` → `app`, for export file names.
    static func baseName(of name: String) -> String {
        let file = name.split(separator: "/").last.map(String.init) ?? name
        if let dot = file.lastIndex(of: "."), dot != file.startIndex { return String(file[..<dot]) }
        return file
    }
}
