import Recorder

/// What the state and diff panes need to show an entry: which entry, against what.
/// The model asks for one whenever the selection or comparison changes; it is built
/// at once when its states are at hand, else in the background (``ViewBuilder``).
struct ViewRequest: Equatable, Sendable {
    var selection: Int
    /// `:0`: the initial state, before the first entry.
    var initial: Bool
    /// The mark the selection is compared with (`d`), if any.
    var comparedWith: Int?
    /// After `r`: the entry's recorded state against the one the reducer computed.
    var divergence: ReplayDivergence?
    /// The entry whose state the selection's diff starts from (-1: the initial state).
    var diffBase: Int
    /// The log has entries (known to the model).
    var hasEntries: Bool

    /// The entries whose states building the view reads.
    var stateIndexes: [Int] {
        var indexes: [Int] = []
        if !initial && hasEntries { indexes.append(selection) }
        if let comparedWith { indexes.append(comparedWith) } else if !initial && hasEntries && divergence == nil && diffBase >= 0 {
            indexes.append(diffBase)
        }
        return indexes
    }
}

/// What the panes show for the current selection: its entry, state and diff, rebuilt
/// only when the selection or comparison changes.
struct SelectionView: Equatable, Sendable {
    var request: ViewRequest?
    var entry: TimelineEntry?
    /// The selected state, read a node at a time: a huge one is shown without being parsed whole.
    var state: JSONNode?
    /// Why `state` is missing (a damaged record it depends on).
    var stateError: String?
    var changedPaths: [JSONPointer] = []
    var diffLines: [DiffLine] = []
    /// The widest diff line, in columns (how far → scrolls the diff pane).
    var widestDiffLine = 0
    /// Why there is no diff to show (a damaged record on the way), instead of "(no changes)".
    var diffError: String?
    /// The view is being built in the background: about how many bytes of states it
    /// reads, and whether Esc stopped waiting for it.
    var loading: Loading?

    struct Loading: Equatable, Sendable {
        var bytes: Int
        var stopped = false
    }

    var selection: Int { request?.selection ?? -1 }

    /// The view of `request` before its states are read: the entry's row (cheap), the states to come.
    static func loading(_ request: ViewRequest, bytes: Int, source: any TimelineSource) -> SelectionView {
        var view = SelectionView(request: request, loading: Loading(bytes: bytes))
        view.entry = request.initial ? source.entry(at: 0) : source.entry(at: request.selection)
        return view
    }

    /// Builds the view of `request` from `source`: reads the states, works out the
    /// changed paths and the diff lines. On the model's thread when the states are at
    /// hand, else on the view builder's (`source` is read from either).
    static func build(_ request: ViewRequest, source: any TimelineSource) -> SelectionView {
        var next = SelectionView(request: request)
        let selection = request.selection
        // Entries keep the numbers they were recorded with (EntryNumbers).
        func number(_ index: Int) -> Int { source.entryNumber(at: index) }
        if request.initial {
            next.entry = source.entry(at: 0)
            next.state = source.initialState.map(JSONNode.init)
            if next.state == nil { next.stateError = "this log has no initial state: it was recorded without one" }
            // `d` at `:0`: the mark against the initial state, as against any entry.
            if let compared = request.comparedWith { next.compare(withMark: compared, in: source) }
        } else if request.hasEntries, let entry = source.entry(at: selection) {
            next.entry = entry
            var stateUnavailable: (any Error)?
            do {
                next.state = try source.stateNode(at: selection)
            } catch {
                next.stateError = "\(error)"
                stateUnavailable = error
            }
            if let compared = request.comparedWith, compared == selection {
                // The mark against itself: nothing differs (not the action's own diff).
                next.changedPaths = []
            } else if let compared = request.comparedWith {
                next.compare(withMark: compared, in: source)
            } else {
                next.changedPaths = ChangedPaths.resolvingAppends(entry.changedPaths, in: next.state)
                if let divergence = request.divergence {
                    // After `r`: the recorded state against the recomputed one.
                    next.diffLines = DiffLines.treeLines(from: divergence.recorded, to: divergence.recomputed)
                } else if let stateUnavailable {
                    next.diffError = "The diff cannot be shown: the state after entry \(number(selection)) cannot be rebuilt: "
                        + StateUnavailable.reason(of: stateUnavailable)
                } else {
                    let before = source.stateNodeBefore(selection)
                    let base = request.diffBase
                    if before == nil, base >= 0, let session = source.session(at: base) {
                        next.diffError = "The diff cannot be shown: entry \(number(selection)) starts a new recording session whose header holds no state before it (\(session.description))"
                    } else if before == nil, base >= 0 {
                        // An unknown state is not an empty one: a diff against nothing would invent additions.
                        next.diffError = "The diff cannot be shown: " + diffStartUnavailable(base: base, source: source)
                    } else {
                        next.diffLines = DiffLines.lines(from: before, to: next.state, changedPaths: next.changedPaths)
                    }
                }
            }
            if let stateError = next.stateError, next.diffError == nil { next.diffError = "The diff cannot be rebuilt: " + stateError }
        } else if request.hasEntries, let record = source.damagedRecord(at: selection) {
            // A damaged record keeps its row: say what is wrong with it rather than skip it.
            next.stateError = "entry \(number(selection))'s record is damaged (line \(record.line): \(record.reason)); "
                + "the states after it are back from the next keyframe"
            next.diffError = "Entry \(number(selection)) cannot be read: its record (line \(record.line)) is damaged"
        } else if request.hasEntries, let gap = source.gap(at: selection) {
            // A gap keeps a row where its entries would be, saying why they are missing.
            next.stateError = GapDescription.sentence(numbered: number(selection), gap: gap)
            next.diffError = "Nothing to diff: " + GapDescription.notRecorded(numbered: number(selection), gap: gap)
                + "; the next entry's diff starts from the last state recorded before"
        } else if request.hasEntries, let session = source.session(at: selection) {
            // A new session's row: the state it started from, when its header holds one.
            next.state = session.initialState.map(JSONNode.init)
            if next.state == nil { next.stateError = "the new session's header holds no state before its first entry" }
            next.diffError = "A " + session.description + " starts here: the log was opened again"
        }
        next.widestDiffLine = next.diffLines.lazy.map { TerminalWidth.of(DiffFormatting.plainText($0)) }.max() ?? 0
        return next
    }

    /// Why the state entry `base`'s diff starts from cannot be rebuilt, worded to follow "The diff cannot be shown: ".
    private static func diffStartUnavailable(base: Int, source: any TimelineSource) -> String {
        var reason = "it cannot be read"
        do { _ = try source.stateNode(at: base) } catch { reason = StateUnavailable.reason(of: error) }
        let label = source.gap(at: base).map { GapDescription.range(numbered: source.entryNumber(at: base), gap: $0) } ?? String(source.entryNumber(at: base))
        return "the state before it, after entry \(label), cannot be rebuilt: " + reason
    }

    /// The state after `mark` (`-`) against this view's state (`+`), in the style of an
    /// action's diff: a `@ path` per changed path, then its old and new value.
    /// The patch between the two is worked out on their trees: a mark diff of two huge states parses both whole.
    private mutating func compare(withMark mark: Int, in source: any TimelineSource) {
        var base: JSONNode?
        do { base = try source.stateNode(at: mark) } catch { diffError = "The diff cannot be rebuilt: \(error)" }
        var paths = [JSONPointer()]
        if let base, let state { paths = ChangedPaths.of(JSONDiff.patch(from: base.value, to: state.value)) }
        changedPaths = ChangedPaths.resolvingAppends(paths, in: state)
        if let base, let state { diffLines = DiffLines.lines(from: base, to: state, changedPaths: changedPaths) }
        if let stateError { diffError = "The diff cannot be rebuilt: " + stateError }
    }
}
