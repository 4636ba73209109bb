import Foundation
import Recorder
import RewindQuery

/// The inspector's only way to change: applies one event to the model and
/// returns the work the outside world must do (quit, write a file): every
/// effect the model asks for on the way (``InspectorModel/request(_:)``),
/// in order — the one route effects leave by.
///
/// ```swift
/// var effects = reduce(&model, .key(.character("j")))   // selects the next entry
/// ```
@discardableResult
func reduce(_ model: inout InspectorModel, _ event: InspectorEvent) -> [InspectorEffect] {
    switch event {
    case .key(let key):
        model.overlays.message = nil
        if model.overlays.confirmation != nil {
            model.answerConfirmation(key)
        } else if model.overlays.prompt != nil {
            model.handlePromptKey(key)
        } else if model.overlays.overlay != nil {
            model.handleOverlayKey(key)
        } else if case .character(let digit) = key, let value = digit.wholeNumberValue, digit.isASCII,
                  value > 0 || model.pendingCount != nil {
            // A count before a motion, as in less and vim: 5j, 10G.
            model.pendingCount = min(99_999_999, (model.pendingCount ?? 0) * 10 + value)
        } else if let command = KeyTable.command(for: key) {
            model.perform(command)
            model.pendingCount = nil
        } else {
            model.pendingCount = nil
            model.reportUnknownKey(key)
        }
        model.pauseFollowWhenLookingBack()
    case .mouse(let mouse):
        model.handleMouse(mouse)
        model.pauseFollowWhenLookingBack()
    case .resize(let size):
        model.size = size
    case .tick:
        model.ticks &+= 1
        model.pickUpNewEntries()
        model.continuePendingJump()
    case .interrupt:
        model.request(.quit)
    case .exportStarted(let path):
        model.scans.exporting?.path = path
        model.overlays.message = "Exporting the diff to \(path)… (Esc cancels)"
    case .exportProgress(let fraction):
        model.scans.exporting?.written = fraction
    case .exportFinished(let path):
        model.scans.exporting = nil
        model.overlays.message = nil   // "Exporting… (Esc cancels)" no longer holds
        model.overlays.notice = "Exported the diff to \(path)  (Esc dismisses)"
    case .exportFailed(let reason):
        model.scans.exporting = nil
        model.overlays.message = nil
        model.overlays.notice = "Export failed: \(reason)  (Esc dismisses)"
    case .exportCancelled:
        model.scans.exporting = nil
        model.overlays.message = "Export cancelled: nothing was written"
    case .hideListSaveFailed(let reason):
        // A notice: the filter's own message comes with the same key and must not hide it for good.
        model.overlays.notice = "Cannot save the hide-list: \(reason)  (Esc dismisses)"
    case .branchFileChosen(let path):
        model.branchFileChosen(path: path)
    case .branchSaved(let path, let entries):
        model.overlays.message = "Saved the branch (\(entries.counted("entry", "entries"))) to \(path)"
    case .branchSaveFailed(let reason):
        model.overlays.message = "Cannot save the branch: \(reason)"
    case .replayProgress(let job, let fraction):
        model.noteReplayProgress(job: job, fraction: fraction)
    case .replayFinished(let job, let run):
        model.finishReplay(job: job, run: run)
    case .compatibilityProgress(let checked):
        model.noteCompatibilityProgress(checked: checked)
    case .compatibilityChecked(let check):
        model.finishCompatibilityCheck(check)
    case .viewBuilt(let job, let view):
        model.viewBuilt(job: job, view: view)
    case .changesDescribed(let described):
        model.changesDescribed(described)
    case .queryProgress(let job, let newMatches, let fraction):
        model.noteQueryProgress(job: job, newMatches: newMatches, fraction: fraction)
    case .queryFinished(let job, let firstBreak):
        model.finishQuery(job: job, firstBreak: firstBreak)
    }
    model.scheduleCompatibilityCheck()
    model.advanceScans()
    model.refreshHistoryDetails()
    model.layOutValueViewer()
    model.refreshView()
    model.keepTimelineSelectionVisible()
    model.timeline.sparkline.update(count: model.timeline.count, columns: model.sparklineColumns, source: model.source, quickStateBytes: model.quickStateBytes)
    return model.takeEffects()
}

extension InspectorModel {
    mutating func perform(_ command: InspectorCommand) {
        let times = pendingCount ?? 1
        // A key that moves the selection itself leaves a jump waiting for indexing behind.
        if command.movesSelection && panes.focus == .timeline { timeline.pendingJump = nil }
        let page = max(1, layout.content(of: panes.focus).height - 1)
        switch command {
        case .moveDown: move(by: times)
        case .moveUp: move(by: -times)
        case .pageDown: move(by: page * times)
        case .pageUp: move(by: -page * times)
        case .halfPageDown: move(by: max(1, page / 2) * times)
        case .halfPageUp: move(by: -max(1, page / 2) * times)
        case .moveFirst where pendingCount != nil && panes.focus == .timeline, .moveLast where pendingCount != nil && panes.focus == .timeline:
            jump(to: String(times))
        case .moveFirst: move(by: Int.min / 2)
        case .moveLast:
            if timeline.follow && timeline.followPaused && panes.focus == .timeline {
                resumeFollowing()
            } else if panes.focus == .timeline && isIndexing && timeline.filter == nil && !timeline.follow {
                jumpToLastWhileIndexing()
            } else {
                move(by: Int.max / 2)
            }
        case .copyValue: copySelection()
        case .copyPath: copyPath()
        case .narrowerTimeline: resizeSplit(by: -4)
        case .widerTimeline: resizeSplit(by: 4)
        case .zoomPane: panes.zoomed = panes.zoomed == nil ? panes.focus : nil
        case .toggleActionView: panes.showsAction.toggle(); panes.payloadTree.top = 0; panes.payloadTree.cursor = 0
        case .jumpToCause: jumpToCause()
        case .jumpBack: jumpBack()
        case .redraw: request(.redraw)
        case .jumpToEntry: overlays.prompt = .jump("")
        case .focusNext: panes.focus = Pane.allCases[(Pane.allCases.firstIndex(of: panes.focus)! + 1) % Pane.allCases.count]
        case .focusPrevious: panes.focus = Pane.allCases[(Pane.allCases.firstIndex(of: panes.focus)! + Pane.allCases.count - 1) % Pane.allCases.count]
        case .toggleNode: toggleNode()
        case .spaceBar:
            // Space pages, as in less, where there is a page to turn; in the trees it folds, as Enter does.
            if panes.focus == .state { toggleNode() } else { move(by: page * times) }
        case .expandNode: expandNode()
        case .collapseNode: collapseNode()
        case .expandAll: expandAllUnderCursor()
        case .collapseAll: collapseAllNodes()
        case .search: overlays.prompt = .search("")
        case .nextMatch: repeatSearch(forward: true)
        case .previousMatch: repeatSearch(forward: false)
        case .filterByAction: toggleFilter()
        case .markEntry: toggleMark()
        case .diffAgainstMark: toggleMarkComparison()
        case .pathHistory: openPathHistory()
        case .viewValue: openValueViewer()
        case .exportDiff: exportDiff()
        case .toggleFollow: toggleFollow()
        case .showDamage: openDamageList()
        case .replayFromSelection: replayFromSelection()
        case .editAction: openActionEditor()
        case .saveBranch: saveBranch()
        case .toggleSkip: toggleSkipAtSelection()
        case .showHelp: overlays.overlay = .help(scroll: 0)
        case .closeOverlay:
            if overlays.notice != nil { overlays.notice = nil; return }
            if let export = scans.exporting, !export.cancelling {
                scans.exporting?.cancelling = true
                request(.cancelExport)
                overlays.message = "Cancelling the export" + (export.path.map { " to \($0)" } ?? "") + "…"
                return
            }
            if stopBuildingView() { return }
            if cancelPendingJump() { return }
            if cancelReplay() { return }
            if cancelScan() { return }
            if scans.highlightsSearch { scans.highlightsSearch = false; scans.searchMatch = nil; panes.diffMatchLine = nil; scans.timelineMatchCount = nil; return }
            if timeline.comparingWithMark { timeline.comparingWithMark = false; overlays.message = leavingMarkDiff }
        case .quit: request(.quit)
        }
    }

    /// Columns one → or ← scrolls the diff pane.
    static let sidewaysStep = 8

    // MARK: Moving

    /// Moves the cursor of the focused pane.
    mutating func move(by delta: Int) {
        switch panes.focus {
        case .timeline where timeline.showingInitialState && delta > 0:
            // From the initial state, the first step down is entry 1.
            selectRow(selectedRow.addingClamped(delta - 1))
        case .timeline: selectRow(selectedRow.addingClamped(delta))
        case .state where panes.showsAction:
            movePayloadCursor(by: delta)
        case .state:
            panes.stateCursor = min(max(0, panes.stateCursor.addingClamped(delta)), max(0, stateRowCount - 1))
        case .diff:
            let height = layout.diff.height
            panes.diffTop = min(max(0, panes.diffTop.addingClamped(delta)), max(0, view.diffLines.count - height))
        }
    }

    /// Selects the entry on timeline row `row` (clamped to the rows there are).
    mutating func selectRow(_ row: Int) {
        let rows = visibleEntryCount
        guard rows > 0 else { return }
        timeline.selection = entryIndex(atRow: min(max(0, row), rows - 1)) ?? 0
        timeline.showingInitialState = false
    }

    mutating func select(entry index: Int) {
        timeline.showingInitialState = false
        guard timeline.count > 0 else { timeline.selection = 0; return }
        timeline.selection = min(max(0, index), timeline.count - 1)
    }

    mutating func keepTimelineSelectionVisible() {
        Self.keepVisible(&timeline.timelineTop, cursor: selectedRow, height: layout.timeline.height, total: visibleEntryCount)
    }

    // MARK: Tree nodes

    /// The state row under the cursor (always on screen, so in the window).
    var cursorRow: TreeRow? {
        let offset = panes.stateCursor - panes.stateTop
        return stateRows.indices.contains(offset) ? stateRows[offset] : nil
    }

    mutating func toggleNode() {
        if panes.focus == .timeline, resumeBuildingView() { return }
        if actionPaneHasKeys { togglePayloadNode(); return }
        guard panes.focus == .state else { if panes.focus == .timeline { panes.focus = .state }; return }
        guard let row = cursorRow else { return }
        // A leaf has nothing to open: Enter shows its whole value instead.
        guard row.isContainer else { openValueViewer(); return }
        setExpanded(row.path, !row.isExpanded)
    }

    mutating func expandNode() {
        // In the diff pane → and ← scroll long lines sideways, until the longest one's end shows.
        if panes.focus == .diff { panes.diffLeft = min(panes.diffLeft + Self.sidewaysStep, diffLeftLimit); return }
        if actionPaneHasKeys { expandPayloadNode(); return }
        guard panes.focus == .state else { if panes.focus == .timeline { panes.focus = .state }; return }
        guard let row = cursorRow, row.isContainer else { return }
        if row.isExpanded { panes.stateCursor += 1 } else { setExpanded(row.path, true) }
    }

    /// Closes an open node; on a closed node or a leaf, moves to its parent (as file trees do);
    /// on a closed top-level node, back to the timeline (`l` came from there).
    mutating func collapseNode() {
        if panes.focus == .diff { panes.diffLeft = max(0, min(panes.diffLeft, diffLeftLimit) - Self.sidewaysStep); return }
        if actionPaneHasKeys { collapsePayloadNode(); return }
        guard panes.focus == .state, let row = cursorRow else { if panes.focus == .state { panes.focus = .timeline }; return }
        if row.isExpanded {
            setExpanded(row.path, false)
        } else if let parent = row.path.parent, !parent.isRoot, let parentRow = stateRowIndex(of: parent) {
            panes.stateCursor = parentRow
        } else {
            panes.focus = .timeline
        }
    }

    /// Containers `E` opens at most: a 30 MB list has a hundred thousand, and every one
    /// open is a row to count on each key.
    static let expandAllLimit = 10_000

    /// `E`: the node under the cursor open, and every container inside it (up to ``expandAllLimit``).
    mutating func expandAllUnderCursor() {
        guard panes.focus == .state, !actionPaneHasKeys, let row = cursorRow else { overlays.message = "E opens a state node and all inside it: Tab to the state pane"; return }
        guard row.isContainer else { overlays.message = "\(row.path) has nothing inside to open"; return }
        var opened = 0
        setExpanded(row.path, true)
        var walk = NodeWalk(row.node)
        while let step = walk.next(), opened < Self.expandAllLimit {
            guard step.node.opens else { continue }
            setExpanded(JSONPointer(tokens: row.path.tokens + step.tokens), true)
            opened += 1
        }
        overlays.message = opened < Self.expandAllLimit ? "Opened \(row.path.isRoot ? "/" : row.path.description) and everything in it"
            : "Opened the first \(Self.expandAllLimit) nodes in \(row.path) (the rest stay closed: Enter opens one)"
    }

    /// `C`: every node closed, the ones the action's change opened too; the cursor on its top-level node.
    mutating func collapseAllNodes() {
        guard panes.focus == .state, !actionPaneHasKeys else { overlays.message = "C closes every state node: Tab to the state pane"; return }
        let top = cursorRow.flatMap { $0.path.tokens.first }.map { JSONPointer(tokens: [$0]) }
        for path in panes.folds.opened.union(expansion.openPaths) { setExpanded(path, false) }
        refreshRows()
        if let top, let row = stateRowIndex(of: top) { panes.stateCursor = row }
        overlays.message = "Closed every node (E opens one and all in it)"
    }

    /// The most columns the diff pane scrolls sideways: where the longest line's end
    /// shows after the `…` that marks the cut (0 when every line fits).
    var diffLeftLimit: Int {
        // The pane's first column holds the match marker `▶`.
        let room = layout.diff.width - 1
        let longest = view.widestDiffLine
        return longest <= room ? 0 : longest - room + 1
    }

    mutating func setExpanded(_ path: JSONPointer, _ expanded: Bool) {
        panes.folds.set(path, open: expanded)
    }

    // MARK: Prompt

    /// Every key goes to the prompt while it is open: editing keys edit, Enter
    /// submits, Esc cancels, Up/Down walk the history; nothing else happens, so
    /// keys typed into a prompt never run as commands.
    mutating func handlePromptKey(_ key: Key) {
        guard var current = overlays.prompt else { return }
        switch key {
        case .escape:
            overlays.prompt = nil
            if current.kind == .editAction { overlays.editError = nil; overlays.message = "Edit cancelled: nothing was dispatched" }
            return
        case .enter:
            overlays.prompt = nil
            if !current.text.isEmpty {
                var history = overlays.promptHistory[current.kind, default: []]
                if history.last != current.text { history.append(current.text) }
                overlays.promptHistory[current.kind] = Array(history.suffix(100))
            }
            submit(current)
            return
        case .up, .down:
            let history = overlays.promptHistory[current.kind, default: []]
            guard !history.isEmpty else { return }
            let position: Int? = key == .up
                ? min(history.count - 1, (current.historyPosition ?? -1) + 1)
                : current.historyPosition.flatMap { $0 > 0 ? $0 - 1 : nil }
            if current.historyPosition == nil { current.draft = current.text }
            current.historyPosition = position
            current.editor.replace(with: position.map { history[history.count - 1 - $0] } ?? current.draft)
        default:
            _ = current.editor.handle(key)
        }
        overlays.prompt = current
    }

    private mutating func submit(_ prompt: Prompt) {
        switch prompt.kind {
        case .search:
            // An empty search repeats the last one (as in less and vim).
            guard let query = prompt.text.isEmpty ? scans.lastSearch : prompt.text else { overlays.message = "No search yet: type what to look for"; return }
            scans.lastSearch = query
            scans.queryMatches = nil
            search(query, forward: true)
        case .jump:
            if startQueryCommand(prompt.text) { return }
            timeline.pendingJump = nil
            jump(to: prompt.text)
        case .editAction:
            submitEditedAction(prompt.text)
        }
    }

    /// `:N`: entry N by its recorded number (a gap's row for a number it stands for); `:0` the
    /// initial state's neighbour (entry 1, state pane titled "initial"); past the end, the last entry.
    mutating func jump(to text: String) {
        let digits = text.trimmingCharacters(in: .whitespaces)
        // `:` then Enter asks for nothing: the prompt closes quietly.
        guard !digits.isEmpty else { return }
        // More digits than an Int holds is past any end, as 999 is.
        let tooLong = digits.allSatisfy { $0.isASCII && $0.isNumber } ? Int.max : nil
        guard let number = Int(digits) ?? tooLong, number >= 0 else {
            overlays.message = "No entry \(text) (entries are 1–\(lastNumber))"
            return
        }
        guard timeline.count > 0 || isIndexing else { overlays.message = "No entries yet"; return }
        // Past what is indexed so far is not past the end while indexing goes on.
        if isIndexing, timeline.count == 0 || number > lastNumber { jumpWhenIndexed(number: number); return }
        let index: Int
        switch source.lookUp(entryNumber: max(1, number)) {
        case .row(let row):
            index = row
        case .notRecorded(let gap, let row?):
            index = row
            let sentence = GapDescription.sentence(numbered: self.number(row), gap: gap)
            overlays.message = sentence.prefix(1).uppercased() + sentence.dropFirst()
        case .notRecorded(_, nil), .damaged, .pastTheEnd:
            index = timeline.count - 1
            if number > 0 { overlays.message = "Entry \(Int(digits).map(String.init) ?? digits) is past the end: showing the last, \(label(ofRow: index))" }
        }
        if let filter = timeline.filter, !filter.entries.contains(index) {
            self.timeline.filter = nil
            overlays.message = "Filter cleared to show entry \(label(ofRow: index))"
        }
        select(entry: index)
        panes.focus = .timeline
        if number == 0 {
            timeline.showingInitialState = true
            overlays.message = "The initial state, before entry 1 (j or any move leaves it)"
        }
    }

    // MARK: Mouse

    mutating func handleMouse(_ mouse: MouseEvent) {
        if overlays.overlay != nil {
            switch mouse.kind {
            case .wheelUp: handleOverlayKey(.up)
            case .wheelDown: handleOverlayKey(.down)
            case .press: break
            }
            return
        }
        let layout = self.layout
        let pane: Pane? = Pane.allCases.first { pane in
            let content = layout.content(of: pane)
            // The title row above the content belongs to the pane too.
            return Rect(column: content.column, row: content.row - 1, width: content.width, height: content.height + 1)
                .contains(column: mouse.column, row: mouse.row)
        }
        guard let pane else { return }
        let content = layout.content(of: pane)
        switch mouse.kind {
        case .press:
            panes.focus = pane
            guard content.rows.contains(mouse.row) else { return }
            if pane == .timeline { timeline.pendingJump = nil }
            let offset = mouse.row - content.row
            switch pane {
            case .timeline:
                if timeline.timelineTop + offset < visibleEntryCount { selectRow(timeline.timelineTop + offset) }
            case .state:
                guard panes.stateTop + offset < stateRowCount else { return }
                panes.stateCursor = panes.stateTop + offset
                // A click on a node's ▸/▾ (drawn after one space and two per level) opens or closes it.
                let window = offset
                if stateRows.indices.contains(window), stateRows[window].isContainer {
                    let row = stateRows[window]
                    let glyph = content.column + 1 + 2 * min(row.depth, StateTree.indentLevels)
                    if mouse.column == glyph || mouse.column == glyph + 1 { setExpanded(row.path, !row.isExpanded) }
                }
            case .diff:
                break
            }
        case .wheelUp, .wheelDown:
            if pane == .timeline { timeline.pendingJump = nil }
            let saved = panes.focus
            panes.focus = pane
            move(by: mouse.kind == .wheelUp ? -3 : 3)
            panes.focus = saved
        }
    }

}

extension InspectorModel {
    /// The log is read from its start again (cut, rewritten or rotated):
    /// what pointed at the old entries no longer does.
    mutating func startOverAfterReopen() {
        // Entry numbers no longer hold: a search's findings would name other entries.
        if let scan = scans.queryScan {
            stopBackgroundQuery()
            scans.queryScan = nil
            overlays.message = ":\(scan.kind.rawValue) \(scan.query) stopped: the log was read again from its start"
        }
        scans.queryMatches = nil
        timeline.mark = nil
        timeline.comparingWithMark = false
        if let filter = timeline.filter { applyFilter(shown: filter.shown) }
        invalidateView()
        selectRow(visibleEntryCount - 1)
    }
}

extension Int {
    func addingClamped(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? Int.max : Int.min) : sum
    }
}
