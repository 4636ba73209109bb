import Recorder

/// Work over the log or the state that goes on between key presses — searches, the
/// match count, `:find`/`:bisect`, an export — and what the last search found: the
/// model's scans scope (the slices themselves are run by `advanceScans`, EntryScans).
struct ScanState {
    /// The last `/` search (an empty `/` repeats it).
    var lastSearch: String?
    /// True while the last search's matches are underlined on screen (Esc turns it off).
    var highlightsSearch = false
    /// Which match the cursor is on, of how many, after a search in the state or diff pane.
    /// The total is nil while the state search still counts them.
    var searchMatch: (index: Int, total: Int?)?
    /// A state-pane search still looking or counting (Model/StateSearch.swift).
    var stateSearch: StateSearch?
    /// Counting the last timeline search's matches for `match i/N` (in slices).
    var timelineMatchCount: TimelineMatchCount?
    /// A timeline search still looking (it runs in slices, see EntryScans).
    var timelineSearch: TimelineSearch?
    /// `:find` or `:bisect` still reading states (Model/QueryCommands.swift).
    var queryScan: QueryScanProgress?
    /// Background searches started so far: the last one's number, so reports of an older one are told apart.
    var queryJobs = 0
    /// What the last `:find` matched; n and N step through it until the next `/` search.
    var queryMatches: QueryMatches?
    /// How many entries one event may examine in scans.
    var scanBudget = ScanBudget.interactive
    /// The export being built and written in the background, if one is.
    var exporting: ExportProgress?
}
