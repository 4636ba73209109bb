import Recorder

/// The action pane's payload (`p`) as a foldable tree, the state pane's way:
/// `▸`/`▾` nodes, Enter/→/← fold, Enter on a leaf (or `v` anywhere) opens the
/// value viewer. Above the tree sit a few lines about the action (its name,
/// the reducer's duration, who sent it, where it was dispatched); they scroll
/// with the tree, the cursor moves over the tree's rows only.
struct PayloadTree: Sendable {
    /// Nodes the user opened or closed. The payload's first two levels are open
    /// by themselves (payloads are small and were shown whole before).
    var folds = FoldChoices()
    /// Position of the cursor among the tree's rows.
    var cursor = 0
    /// First line of the pane on screen (the action's lines and the tree's rows together).
    var top = 0
    /// The action's lines above the tree, and the tree's rows on screen (from `top`), built by the model.
    private(set) var lines: [(text: String, style: PayloadLineStyle)] = []
    private(set) var rowCount = 0
    private(set) var rows: [TreeRow] = []
    private(set) var expansion = TreeExpansion(open: [])

    /// Lines of the pane in all: the action's lines, then one per tree row.
    var totalLines: Int { lines.count + rowCount }

    /// The row under the cursor (always on screen, so in the window).
    var cursorRow: TreeRow? {
        let offset = cursor - firstRow
        return rows.indices.contains(offset) ? rows[offset] : nil
    }

    /// The tree row at the top of the window of `rows`.
    private var firstRow: Int { max(0, top - lines.count) }

    /// Rebuilds the lines and the window of rows for `entry` in a pane `height` rows tall.
    mutating func refresh(entry: TimelineEntry?, causeTrail: [Int], height: Int) {
        guard let entry else { lines = []; rows = []; rowCount = 0; cursor = 0; top = 0; return }
        lines = Self.headerLines(entry, canGoBack: !causeTrail.isEmpty)
        expansion = folds.expansion(over: firstLevels(of: entry.payload))
        // A scalar payload is on its `payload:` line; only containers have a tree.
        let payload = JSONNode(entry.payload)
        rowCount = payload.opens ? StateTree.rowCount(of: payload, expansion: expansion) : 0
        cursor = min(max(0, cursor), max(0, rowCount - 1))
        let height = max(1, height)
        // Keep the cursor's row on screen; at the top, the action's lines show too.
        InspectorModel.keepVisible(&top, cursor: lines.count + cursor, height: height, total: totalLines)
        if cursor == 0 && lines.count < height { top = 0 }
        let visibleRows = max(0, height - max(0, lines.count - top))
        rows = rowCount == 0 ? [] : StateTree.rows(of: payload, expansion: expansion, in: firstRow..<(firstRow + visibleRows))
    }

    /// What opens by itself: the first two levels.
    private func firstLevels(of payload: JSONValue) -> Set<JSONPointer> {
        var open = Set<JSONPointer>()
        for (key, child) in Self.children(of: payload) where StateTree.opens(child) { open.insert(JSONPointer().appending(key)) }
        return open
    }

    private static func children(of value: JSONValue) -> [(String, JSONValue)] {
        switch value {
        case .object(let object): Array(object.members)
        case .array(let elements): elements.enumerated().map { (String($0.offset), $0.element) }
        default: []
        }
    }

    func isExpanded(_ path: JSONPointer) -> Bool { path.isRoot || expansion.isExpanded(path) }

    mutating func setExpanded(_ path: JSONPointer, _ open: Bool) {
        folds.set(path, open: open)
    }

    /// Name, reducer duration, cause, dispatch site: the lines above the tree.
    static func headerLines(_ entry: TimelineEntry, canGoBack: Bool) -> [(text: String, style: PayloadLineStyle)] {
        var lines: [(text: String, style: PayloadLineStyle)] = [(entry.actionType, .title)]
        lines.append((entry.duration.map { "reducer " + ValueFormatting.duration($0) } ?? "reducer time not recorded", .note))
        if entry.causeSequence != nil {
            lines.append(("sent by an effect (c: cause" + (canGoBack ? ", b: back)" : ")"), .cause))
        } else {
            lines.append(("sent by the app" + (canGoBack ? " (b: back)" : ""), .note))
        }
        if let trace = entry.trace {
            // Where the action was dispatched (the reference store, the manual API), and the stack with `Options.trace`.
            if let file = trace.file { lines.append(("dispatched at " + file + (trace.line.map { ":\($0)" } ?? ""), .note)) }
            if !trace.stack.isEmpty {
                lines.append(("call stack:", .note))
                for frame in trace.stack { lines.append(("  " + frame, .plain)) }
            }
        }
        lines.append((StateTree.opens(entry.payload) ? "payload:" : "payload: " + entry.payload.description, .note))
        return lines
    }
}

/// How one of the action's lines is drawn.
enum PayloadLineStyle: Sendable {
    case title, note, cause, plain
}

extension InspectorModel {
    /// The action pane has the keys: the state pane shows the action (`p`) and has focus.
    var actionPaneHasKeys: Bool { panes.showsAction && panes.focus == .state }

    mutating func refreshPayloadTree() {
        guard panes.showsAction else { return }
        panes.payloadTree.refresh(entry: view.entry, causeTrail: timeline.causeTrail, height: layout.state.height)
    }

    /// j/k and pages in the action pane: the cursor over the payload's rows.
    mutating func movePayloadCursor(by delta: Int) {
        panes.payloadTree.cursor = min(max(0, panes.payloadTree.cursor.addingClamped(delta)), max(0, panes.payloadTree.rowCount - 1))
    }

    /// Enter / Space: fold a node; on a leaf, the value viewer.
    mutating func togglePayloadNode() {
        guard let row = panes.payloadTree.cursorRow else { return }
        guard row.isContainer else { openPayloadValueViewer(); return }
        panes.payloadTree.setExpanded(row.path, !row.isExpanded)
    }

    /// →: open a node, or step into an open one.
    mutating func expandPayloadNode() {
        guard let row = panes.payloadTree.cursorRow, row.isContainer else { return }
        if row.isExpanded { movePayloadCursor(by: 1) } else { panes.payloadTree.setExpanded(row.path, true) }
    }

    /// ←: close an open node; on a closed node or a leaf, go to its parent.
    mutating func collapsePayloadNode() {
        guard let row = panes.payloadTree.cursorRow, let payload = view.entry?.payload else { return }
        if row.isExpanded {
            panes.payloadTree.setExpanded(row.path, false)
        } else if let parent = row.path.parent, !parent.isRoot,
                  let parentRow = StateTree.rowIndex(of: parent, in: JSONNode(payload), expansion: panes.payloadTree.expansion) {
            panes.payloadTree.cursor = parentRow
        }
    }

    /// `v`, or Enter on a leaf: the whole value under the cursor (the whole payload when it is a scalar).
    mutating func openPayloadValueViewer() {
        guard let entry = view.entry else { return }
        if let row = panes.payloadTree.cursorRow {
            overlays.overlay = .value(ValueViewer(path: row.path, value: row.node.value))
        } else {
            overlays.overlay = .value(ValueViewer(path: JSONPointer(), value: entry.payload))
        }
    }
}
