/// The entries a bisect could not check because their states cannot be rebuilt
/// (a damaged record or a gap before them, until the next keyframe), kept as
/// runs so the answer can name them instead of claiming the invariant held there.
///
/// Only entries without a state are added, so an undamaged log costs nothing.
///
/// ```swift
/// var unchecked = UncheckedEntries()
/// for index in [1, 2, 3, 8] { unchecked.add(index) }
/// unchecked.numbers   // "entries 2–4 and 9"
/// ```
struct UncheckedEntries: Equatable, Sendable {
    /// Runs of entry indexes (from 0), in log order.
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

    /// The entries as the inspector numbers them (from 1): `entry 4`, `entries 2–9`, `entries 2–9, 14 and 20–22`.
    var numbers: String { numbers { $0 + 1 } }

    /// The entries by the numbers `source` shows (entries keep their recorded numbers across gaps and damage).
    func numbers(in source: any TimelineSource) -> String { numbers(source.entryNumber(at:)) }

    private func numbers(_ number: (Int) -> Int) -> String {
        let texts = runs.map { $0.count == 1 ? "\(number($0.lowerBound))" : "\(number($0.lowerBound))–\(number($0.upperBound))" }
        let list = texts.count == 1 ? texts[0] : texts.dropLast().joined(separator: ", ") + " and " + texts[texts.count - 1]
        return (count == 1 ? "entry " : "entries ") + list
    }
}
