/// The entries a bisect could not check because their states cannot be rebuilt
/// (a damaged record or a gap before them, until the next keyframe), kept as
/// runs so the answer can name them instead of claiming the invariant held there.
///
/// Only entries without a state are added, so an undamaged log costs nothing.
///
/// ```swift
/// var unchecked = UncheckedEntries()
/// for index in [1, 2, 3, 8] { unchecked.add(index) }
/// unchecked.numbers(in: source)   // "entries 2–4 and 9" (or "entries 2–6 and 11" after a gap of 2 at row 2)
/// ```
struct UncheckedEntries: Equatable, Sendable {
    /// Runs of timeline rows, in log order.
    private(set) var runs: [ClosedRange<Int>] = []
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// Adds entry `index`; entries come in log order, as scans hand them over.
    mutating func add(_ index: Int) {
        count += 1
        if let last = runs.last, last.upperBound + 1 == index {
            runs[runs.count - 1] = last.lowerBound...index
        } else {
            runs.append(index...index)
        }
    }

    /// The entries by the numbers `source` shows (entries keep their recorded numbers across gaps
    /// and damage; a gap's row stands for all of its numbers): `entry 4`, `entries 2–9, 14 and 20–22`.
    func numbers(in source: any TimelineSource) -> String {
        let ranges = runs.map { run in
            (first: source.entryNumber(at: run.lowerBound),
             last: source.entryNumber(at: run.upperBound) + (source.gap(at: run.upperBound).map { max(1, $0.droppedCount) - 1 } ?? 0))
        }
        let texts = ranges.map { $0.first == $0.last ? "\($0.first)" : "\($0.first)–\($0.last)" }
        let list = texts.count == 1 ? texts[0] : texts.dropLast().joined(separator: ", ") + " and " + texts[texts.count - 1]
        return (ranges.count == 1 && ranges[0].first == ranges[0].last ? "entry " : "entries ") + list
    }
}
