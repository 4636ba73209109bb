import Recorder
import RewindQuery
import RewindJSON

/// Everything the inspector shows, as a value, in scoped states: `timeline` (selection,
/// mark, filter, follow), `panes` (focus, cursors, open nodes), `overlays` (the window,
/// the prompt, the message), `scans` (searches, `:find`, an export) and `replays`; the
/// view of the selection is derived from them. Only `reduce` changes it, effects leave
/// by one route (``request(_:)``, returned by `reduce`), and only `render` draws it.
///
/// The log itself stays behind `source`, which is read (never written) and
/// caches what it rebuilds; the model keeps the few things on screen.
struct InspectorModel {
    enum Pane: CaseIterable, Sendable {
        case timeline, state, diff

        var title: String {
            switch self {
            case .timeline: "Timeline"
            case .state: "State"
            case .diff: "Diff"
            }
        }
    }

    /// A line being typed at the bottom of the screen, in a line editor.
    struct Prompt: Equatable, Sendable {
        enum Kind: Hashable, Sendable {
            case search, jump
            /// The action editor (`a`, with a linked reducer): the action's JSON being edited.
            case editAction
        }

        var kind: Kind
        var editor: LineEditor
        /// Where Up/Down is in this kind's history (0 = the newest); nil on the line being typed.
        var historyPosition: Int?
        /// The line being typed when Up was first pressed, back with Down.
        var draft = ""

        var text: String { editor.text }

        static func search(_ text: String) -> Prompt { Prompt(kind: .search, editor: LineEditor(text)) }
        static func jump(_ text: String) -> Prompt { Prompt(kind: .jump, editor: LineEditor(text)) }
        static func editAction(_ text: String) -> Prompt { Prompt(kind: .editAction, editor: LineEditor(text)) }
    }

    /// A window drawn over the panes; Esc closes it.
    enum Overlay: Equatable, Sendable {
        case help(scroll: Int)
        case filterPicker(FilterPicker)
        case pathHistory(PathHistory)
        case damage(scroll: Int)
        /// The whole of one value (Enter on a leaf, `v` on any node), wrapped and scrollable.
        case value(ValueViewer)
    }

    struct ActionTypeCount: Equatable, Sendable {
        var actionType: String
        var count: Int
    }

    /// The `f` overlay: action types found so far with their counts, sorted.
    struct FilterPicker: Equatable, Sendable {
        var choices: [ActionTypeCount] = []
        /// What has been typed to narrow the list (case-insensitive, anywhere in the name).
        var query = ""
        /// Types picked with Space (Enter shows them all).
        var selected: Set<String> = []
        /// Position in `visibleChoices`.
        var cursor = 0

        var visibleChoices: [ActionTypeCount] {
            query.isEmpty ? choices : choices.filter { $0.actionType.lowercased().contains(query.lowercased()) }
        }
        /// Entries examined so far (the scan runs in slices, see EntryScans).
        var scanned = 0
    }

    /// The history of one value (`w`): the changes found so far and which of them is selected.
    struct PathHistory: Equatable, Sendable {
        var history: ValueHistory
        /// Position of the selected change (oldest first).
        var cursor = 0
        /// First row on screen.
        var top = 0
        /// True once the user moved the cursor: changes found earlier then keep it on its change.
        var cursorMoved = false
        /// Old and new values of the changes on screen, by entry (worked out in `reduce`, not `render`).
        var details: [Int: ValueChangeText.Values] = [:]
        /// Columns the rows are scrolled sideways (→ / ←), after their entry number and time.
        var left = 0
        /// Changes whose values the background reader is working out (big states).
        var describing: [ValueChange] = []

        var path: JSONPointer { history.path }

        /// Width of the action column of a row: the change after it must fit too.
        static let actionWidth = 18

        /// A row after its entry number and time: the action, then `old → new` (or `…` until worked out).
        static func rowText(actionType: String?, detail: String?) -> String {
            (actionType ?? "(unreadable)").truncated(toWidth: actionWidth).padded(toWidth: actionWidth) + "  " + (detail ?? "…")
        }
        /// Every entry found (tests; the screen reads only the rows it shows).
        var entries: [Int] { history.entries }
    }

    /// The timeline restricted to one action type.
    struct ActionFilter: Equatable, Sendable {
        /// The types shown; nil shows every type not hidden.
        var shown: Set<String>?
        /// The hide-list (`heartbeat`, `tick`), applied to every entry before anything else.
        var hidden: Set<String> = []
        /// Matching entry indexes, ascending.
        var entries: [Int]
        /// How many entries have been checked (grows in follow mode).
        var scanned = 0
        /// True until the first pass over the log is done.
        var isBuilding = true
        /// Select the first match at or after this entry once it is found.
        var selectFrom: Int?

        func matches(_ actionType: String) -> Bool {
            !hidden.contains(actionType) && (shown?.contains(actionType) ?? true)
        }

        /// `todo/add`, `todo/add + tick`, or `hiding heartbeat, tick`.
        var label: String {
            var parts: [String] = []
            if let shown { parts.append(shown.sorted().joined(separator: " + ")) }
            if !hidden.isEmpty { parts.append("hiding " + hidden.sorted().joined(separator: ", ")) }
            return parts.joined(separator: ", ")
        }
    }

    let source: any TimelineSource
    var size: ScreenSize
    /// Where the user is in the log: the selection, the mark, the filter, follow mode, a jump waiting for indexing.
    var timeline: TimelineState
    /// Which pane has the keys, where each pane is scrolled, which nodes are open, the layout.
    var panes = PaneState()
    /// Searches, scans and `:find` on their way through the log, and what the last search found.
    var scans = ScanState()
    /// What is drawn over the panes and on the bottom lines: the window open, the line being typed,
    /// the message, the notice, the question waiting for `y`.
    var overlays = OverlayState()
    /// The replay keys' work: the last replay's result, the one running, the compatibility report.
    var replays = ReplayState()
    /// What the model asks the outside world to do, in order, until `reduce` hands it over
    /// (``request(_:)``, ``takeEffects()``): the one way effects leave the model.
    private(set) var effects: [InspectorEffect] = []
    /// Ticks so far: what the spinners of background work turn with.
    var ticks = 0
    /// Digits typed before a motion (`5j`, `10G`).
    var pendingCount: Int?

    private(set) var view = SelectionView()
    /// The number of the last view asked of the background builder (a stale result is dropped).
    private(set) var viewBuildJob = 0
    /// A new selection's first changed node is still to be brought into view (its state was not there yet).
    private var revealsChange = false
    /// Where the state pane's cursor goes once the selected state is shown: a node the user
    /// asked to keep (`reveals`: its parents open), or the one it was on before the selection moved.
    private var cursorTarget: (path: JSONPointer, reveals: Bool)?
    /// A view whose states take more bytes than this (to read, or as JSON) is built in the
    /// background (about 8 ms of parsing; tests set 0 to build every view there).
    var quickStateBytes = 2 << 20
    /// The open nodes in effect (user choices plus revealed changes).
    private(set) var expansion = TreeExpansion(open: [])
    /// Rows of the whole state tree, and the ones on screen (from `stateTop`).
    private(set) var stateRowCount = 0
    private(set) var stateRows: [TreeRow] = []

    /// Where the state holds dates (the header's `datePaths`).
    let datePaths: DatePaths

    init(source: any TimelineSource, size: ScreenSize) {
        self.source = source
        datePaths = DatePaths(source.datePaths)
        self.size = size
        timeline = TimelineState(count: source.count)
        refreshView()
    }

    /// Asks the outside world for `effect` (a file written, a state read in the background);
    /// `reduce` returns it with the others this event asked for.
    mutating func request(_ effect: InspectorEffect) { effects.append(effect) }

    /// The effects asked for since the last call, in order (what `reduce` returns).
    mutating func takeEffects() -> [InspectorEffect] {
        defer { effects = [] }
        return effects
    }

    var layout: PaneLayout { PaneLayout(size: size, timelineShare: panes.timelineWidthShare, zoomed: panes.zoomed) }

    // MARK: Timeline rows (the filter maps rows to entries)

    var visibleEntryCount: Int { timeline.filter?.entries.count ?? timeline.count }

    func entryIndex(atRow row: Int) -> Int? {
        guard row >= 0, row < visibleEntryCount else { return nil }
        return timeline.filter.map { $0.entries[row] } ?? row
    }

    /// The timeline row of `entry`, or of the nearest visible entry before it.
    func row(ofEntry entry: Int) -> Int {
        guard let filter = timeline.filter else { return entry }
        var low = 0, high = filter.entries.count
        while low < high {
            let middle = (low + high) / 2
            if filter.entries[middle] <= entry { low = middle + 1 } else { high = middle }
        }
        return max(0, low - 1)
    }

    var selectedRow: Int { row(ofEntry: timeline.selection) }

    // MARK: Derived view

    /// Nodes shown open: user-opened, and ancestors of what the selected action changed, minus user-closed.
    func isExpanded(_ path: JSONPointer) -> Bool { path.isRoot || expansion.isExpanded(path) }

    private func effectiveExpansion() -> TreeExpansion {
        var open = Set<JSONPointer>()
        for changed in view.changedPaths {
            var ancestor = changed.parent
            while let path = ancestor, !path.isRoot {
                open.insert(path)
                ancestor = path.parent
            }
        }
        return panes.folds.expansion(over: open)
    }

    /// True when the selected action changed `path`, something inside it, or something containing it.
    func isChanged(_ path: JSONPointer) -> Bool {
        view.changedPaths.contains { path.hasPrefix($0) || $0.hasPrefix(path) }
    }

    /// Forgets the selection view so the next refresh reloads it (replay changed what the source returns).
    mutating func invalidateView() { view = SelectionView() }

    /// What the panes should show now: the selection, against what.
    var viewRequest: ViewRequest {
        ViewRequest(selection: timeline.selection, initial: timeline.showingInitialState, comparedWith: timeline.comparingWithMark ? timeline.mark : nil,
                    divergence: timeline.comparingWithMark ? nil : replayDivergence(at: timeline.selection), diffBase: diffBase(of: timeline.selection),
                    hasEntries: timeline.count > 0)
    }

    /// Reloads the selected entry, its state and its diff when the selection or
    /// comparison changed, then the visible tree rows. States that take long to
    /// read are read in the background: the panes say so meanwhile, and the keys
    /// keep working (``viewBuilt(job:view:)`` puts the result on screen).
    mutating func refreshView() {
        let wanted = viewRequest
        if view.request != wanted || view.entry == nil {
            // Big states take long to read, and their diffs to work out even when cached: off this thread.
            let bytes = wanted.stateIndexes.reduce(0) { bytes, index in
                bytes + max(source.stateRebuildBytes(at: index), source.stateBytesEstimate(at: index) ?? 0)
            }
            if bytes > quickStateBytes {
                viewBuildJob += 1
                show(SelectionView.loading(wanted, bytes: bytes, source: source))
                request(.buildView(wanted, job: viewBuildJob))
            } else {
                show(SelectionView.build(wanted, source: source))
            }
        }
        refreshRows()
        refreshPayloadTree()
    }

    /// The background builder finished job `job`: shown when it is still the one wanted.
    mutating func viewBuilt(job: Int, view built: SelectionView) {
        guard job == viewBuildJob, view.loading?.stopped == false, built.request == view.request else { return }
        show(built)
        refreshRows()
    }

    /// Esc while the states are read in the background: stop waiting. False when none are.
    mutating func stopBuildingView() -> Bool {
        guard let loading = view.loading, !loading.stopped else { return false }
        view.loading?.stopped = true
        request(.stopBuildingView)
        overlays.message = "Stopped reading the state after entry \(label(ofRow: timeline.selection)); Enter reads it"
        return true
    }

    /// Puts the state pane's cursor on `path` (its parents opened) as soon as the selected state is shown.
    mutating func keepCursor(on path: JSONPointer) {
        cursorTarget = (path, reveals: true)
        // The entry on screen already: nothing new will be shown, so now.
        if view.request == viewRequest, view.state != nil { show(view) }
    }

    /// Enter after Esc stopped reading the states: read them again.
    mutating func resumeBuildingView() -> Bool {
        guard view.loading?.stopped == true else { return false }
        invalidateView()
        return true
    }

    /// Puts `next` on screen; a new selection starts with its diff at the top and,
    /// once its state is there, the first changed node in view.
    private mutating func show(_ next: SelectionView) {
        let selectionMoved = view.selection != next.selection
        // Working in the tree, the cursor stays on its node from entry to entry (by path, not by row).
        if selectionMoved, panes.focus == .state, cursorTarget == nil, let path = cursorRow?.path { cursorTarget = (path, reveals: false) }
        view = next
        if selectionMoved {
            panes.diffTop = 0
            panes.diffLeft = 0
            panes.payloadTree.cursor = 0
            panes.payloadTree.top = 0
            panes.diffMatchLine = nil
            revealsChange = true
        }
        guard view.state != nil || view.loading == nil else { return }
        expansion = effectiveExpansion()
        if let target = cursorTarget, let state = view.state {
            cursorTarget = nil
            revealsChange = false
            if target.reveals, state[pointer: target.path] != nil { reveal(target.path); return }
            // The node, or the nearest of its parents on screen.
            var path: JSONPointer? = target.path
            while let candidate = path, !candidate.isRoot, StateTree.rowIndex(of: candidate, in: state, expansion: expansion) == nil { path = candidate.parent }
            if let path, let row = StateTree.rowIndex(of: path, in: state, expansion: expansion) { panes.stateCursor = row }
            return
        }
        // Bring the first changed node into view unless the user is working in the tree.
        if revealsChange, panes.focus != .state, let state = view.state, let changed = view.changedPaths.first {
            var target: JSONPointer? = changed
            while let path = target, !path.isRoot, StateTree.rowIndex(of: path, in: state, expansion: expansion) == nil { target = path.parent }
            if let path = target, let row = StateTree.rowIndex(of: path, in: state, expansion: expansion) { panes.stateCursor = row }
        }
        revealsChange = false
    }

    /// Recomputes the open nodes and the visible window of the state tree.
    mutating func refreshRows() {
        expansion = effectiveExpansion()
        guard let state = view.state else { stateRows = []; stateRowCount = 0; return }
        stateRowCount = StateTree.rowCount(of: state, expansion: expansion)
        panes.stateCursor = min(max(0, panes.stateCursor), max(0, stateRowCount - 1))
        let height = max(1, layout.state.height)
        Self.keepVisible(&panes.stateTop, cursor: panes.stateCursor, height: height, total: stateRowCount)
        stateRows = StateTree.rows(of: state, expansion: expansion, in: panes.stateTop..<(panes.stateTop + height))
    }

    /// The row position of `path` in the state tree, when it is visible (its parents open).
    func stateRowIndex(of path: JSONPointer) -> Int? {
        guard let state = view.state else { return nil }
        return StateTree.rowIndex(of: path, in: state, expansion: expansion)
    }

    /// Scrolls `top` so `cursor` is on screen.
    static func keepVisible(_ top: inout Int, cursor: Int, height: Int, total: Int) {
        let height = max(1, height)
        if cursor < top { top = cursor }
        if cursor >= top + height { top = cursor - height + 1 }
        top = max(0, min(top, max(0, total - height)))
    }
}

/// How far the background export (`e`) got.
struct ExportProgress: Equatable, Sendable {
    /// Where it goes, once the runner chose the name.
    var path: String?
    /// How much of the file is written, 0...1; nil while the report is still being built.
    var written: Double?
    /// Esc was pressed: it stops at the next chunk.
    var cancelling = false
}

extension InspectorModel.Overlay {
    /// Moves the path history out, leaving a placeholder, so the caller holds the only
    /// reference to its arrays (a `switch` over the overlay can keep a second one alive).
    mutating func takePathHistory() -> InspectorModel.PathHistory? {
        guard case .pathHistory(let history) = self else { return nil }
        self = .help(scroll: 0)
        return history
    }

    /// Moves the value viewer out, as ``takePathHistory()`` does: its line caches then grow in place.
    mutating func takeValueViewer() -> ValueViewer? {
        guard case .value(let viewer) = self else { return nil }
        self = .help(scroll: 0)
        return viewer
    }
}
