import Recorder

/// Where the user is in the log — the selected entry, the rows on screen, the mark, the
/// filter and hide-lists, follow mode, a jump waiting for indexing, the way back from `c`
/// — and the title's sparkline: the model's timeline scope. The entries themselves stay
/// behind the model's `source`.
struct TimelineState {
    /// Entries known (a snapshot of `source.count`, updated on ticks).
    var count: Int
    /// Index of the selected entry; 0 when the log is empty.
    var selection = 0
    /// First timeline row on screen (a position in `visibleEntryCount`).
    var timelineTop = 0
    /// The action types shown (`f`) and hidden; nil shows every entry.
    var filter: InspectorModel.ActionFilter?
    /// The entry marked with `m`, the other end of `d`'s diff.
    var mark: Int?
    /// True while the diff pane compares the mark with the selection (`d`).
    var comparingWithMark = false
    /// `:0`: the panes show the state before the first entry (the header's initial state).
    var showingInitialState = false
    /// Following the end of a growing log (`F`).
    var follow = false
    /// Following, but the user moved off the newest entry to look back (as `less +F`
    /// and lnav do): new entries are still read, the selection stays; F or G resumes.
    var followPaused = false
    /// `G` or `:N` waiting for background indexing to find the entry (Model/IndexingJumps.swift).
    var pendingJump: PendingJump?
    /// Where `c` jumped from, so `b` can go back.
    var causeTrail: [Int] = []
    /// Action types hidden everywhere (the persisted hide-list, `.rewind/hidden-actions`).
    var hiddenActionTypes: Set<String> = []
    /// Action types hidden in this log only (`.rewind/hidden-actions-by-log`, Shift-Tab in the picker).
    var logHiddenActionTypes: Set<String> = []
    /// What this log's own hide-list is saved under (its absolute path); nil: a log without a file, no list.
    var hideListLog: String?
    /// The timeline title's picture of state sizes and slow reducers.
    var sparkline = Sparkline()
}
