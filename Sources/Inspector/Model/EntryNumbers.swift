import Recorder

/// How the inspector names its rows: entries keep the numbers they were recorded
/// with (a gap's row stands for the entries that were not recorded, a new session's
/// row for none), so the numbers on screen are those `rewind log` prints.
extension InspectorModel {
    /// The number of the entry at row `index`.
    func number(_ index: Int) -> Int { source.entryNumber(at: index) }

    /// The highest entry number: the last entry's, or the last of a gap at the end.
    var lastNumber: Int {
        guard timeline.count > 0 else { return 0 }
        let last = number(timeline.count - 1)
        return source.gap(at: timeline.count - 1).map { last + max(1, $0.droppedCount) - 1 } ?? last
    }

    /// `6`; `3–5` for a gap's row.
    func label(ofRow index: Int) -> String {
        if let gap = source.gap(at: index) { return GapDescription.range(numbered: number(index), gap: gap) }
        return String(number(index))
    }

    /// The status bar's `entry 6/9`; `entries 3–5/9 (not recorded)` on a gap's row.
    var selectionStatus: String {
        guard timeline.count > 0 else { return "no entries" }
        // `:0` shows the state before the first entry: no entry is selected.
        if timeline.showingInitialState { return "initial state (0/\(lastNumber))" }
        if source.session(at: timeline.selection) != nil {
            return timeline.selection + 1 < timeline.count ? "new session (before entry \(number(timeline.selection + 1))/\(lastNumber))" : "new session"
        }
        if let gap = source.gap(at: timeline.selection), gap.droppedCount > 1 {
            return "entries \(label(ofRow: timeline.selection))/\(lastNumber) (not recorded)"
        }
        return "entry \(label(ofRow: timeline.selection))/\(lastNumber)" + (source.gap(at: timeline.selection) != nil ? " (not recorded)" : "")
    }

    /// The gaps between the entry at `index` and the state its diff starts from
    /// (``diffBase(of:)``), with the first number each takes: `entries 3–5 not recorded`.
    func gapsSpanned(before index: Int) -> [String] {
        var spanned: [String] = []
        var row = index - 1
        while row > diffBase(of: index), let gap = source.gap(at: row) {
            spanned.insert(GapDescription.entries(numbered: number(row), gap: gap) + " not recorded", at: 0)
            row -= 1
        }
        return spanned
    }
}
