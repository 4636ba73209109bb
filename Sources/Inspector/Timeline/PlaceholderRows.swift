import Recorder

/// Where the records that are not entries sit among a log's entries, so the
/// timeline keeps a row for each and every entry keeps the number it was
/// recorded with:
///
/// - a damaged record takes one row and one number (the reader skips the line:
///   it is not an entry it can read);
/// - a gap (entries the recorder could not write: a state over the record limit,
///   a full `.drop` queue, a live stream that was cut) takes one row and as many
///   numbers as entries it stands for, so that the entries after it keep theirs;
/// - a new recording session (the log was opened again) takes a row and no number,
///   so the timeline shows where it starts, as `rewind log` does.
///
/// Rows are the timeline's positions; reader indexes are the reader's entries;
/// numbers are what `rewind log`, the inspector and every command show, from 1.
/// With damage before reader entry 4 and a gap of 3 before reader entry 6:
/// rows 0–3 are entries 1–4, row 4 the damaged record (number 5), rows 5–6
/// entries 6–7, row 7 the gap (numbers 8–10) and row 8 entry 11.
///
/// Commands read logs without placeholder rows (``rowsForPlaceholders`` false):
/// rows are then the reader's entries, and the numbers still count what gaps and
/// (when known) damaged records stand for.
struct PlaceholderRows: Sendable {
    enum Kind: Equatable, Sendable {
        case damaged(DamagedRecord)
        case gap(LogGap)
        case session(SessionStart)
    }

    struct Placeholder: Equatable, Sendable {
        var kind: Kind
        /// Readable entries before it in the file.
        var entriesBefore: Int
        /// How many entry numbers it stands for (1 for damage, the dropped count for a gap, none for a session).
        var numbers: Int {
            switch kind {
            case .damaged: 1
            case .gap(let gap): max(1, gap.droppedCount)
            case .session: 0
            }
        }
    }

    /// In file order.
    private(set) var placeholders: [Placeholder] = []
    /// Whether each placeholder takes a row of its own (the inspector) or only numbers (commands).
    let rowsForPlaceholders: Bool
    /// `rows[i]`: the row of placeholder i (when it takes rows).
    private var rows: [Int] = []
    /// `numbersBefore[i]`: entry numbers taken by the placeholders before i.
    private var numbersBefore: [Int] = []

    init(_ placeholders: [Placeholder], rowsForPlaceholders: Bool) {
        // A gap and damage before the same entry keep file order (their line numbers).
        self.placeholders = placeholders.sorted { ($0.entriesBefore, $0.line) < ($1.entriesBefore, $1.line) }
        self.rowsForPlaceholders = rowsForPlaceholders
        var taken = 0
        for (offset, placeholder) in self.placeholders.enumerated() {
            rows.append(placeholder.entriesBefore + offset)
            numbersBefore.append(taken)
            taken = Self.total(taken, placeholder.numbers)
        }
    }

    init() { rowsForPlaceholders = false }

    var isEmpty: Bool { placeholders.isEmpty }

    /// The rows the placeholders take, in order (none when they take no rows).
    var placeholderRows: [Int] { rowsForPlaceholders ? rows : [] }

    /// Every placeholder with the first number it takes, in file order.
    var numbered: [(placeholder: Placeholder, firstNumber: Int)] {
        placeholders.enumerated().map { ($0.element, $0.element.entriesBefore + numbersBefore[$0.offset] + 1) }
    }

    /// The placeholder shown at `row`, when that row is one.
    func placeholder(atRow row: Int) -> Placeholder? {
        guard rowsForPlaceholders else { return nil }
        let position = Self.lowerBound(rows, row)
        return position < rows.count && rows[position] == row ? placeholders[position] : nil
    }

    /// The damaged record shown at `row`, if that row is its placeholder.
    func record(atRow row: Int) -> DamagedRecord? {
        if case .damaged(let record) = placeholder(atRow: row)?.kind { record } else { nil }
    }

    /// The gap shown at `row`, if that row is its placeholder.
    func gap(atRow row: Int) -> LogGap? {
        if case .gap(let gap) = placeholder(atRow: row)?.kind { gap } else { nil }
    }

    /// The new recording session whose placeholder is at `row`.
    func session(atRow row: Int) -> SessionStart? {
        if case .session(let session) = placeholder(atRow: row)?.kind { session } else { nil }
    }

    /// The reader's entry at `row`; nil for a placeholder.
    func readerIndex(ofRow row: Int) -> Int? {
        guard rowsForPlaceholders else { return row }
        let position = Self.lowerBound(rows, row)
        if position < rows.count && rows[position] == row { return nil }
        return row - position
    }

    /// The row of the reader's entry `index`.
    func row(ofReaderIndex index: Int) -> Int {
        rowsForPlaceholders ? index + placeholdersBefore(readerIndex: index) : index
    }

    /// Rows in all, for `entries` readable entries.
    func rowCount(entries: Int) -> Int { rowsForPlaceholders ? entries + rows.count : entries }

    /// The number shown for `row` (a gap's row shows the first of its numbers).
    func number(ofRow row: Int) -> Int {
        if rowsForPlaceholders {
            let position = Self.lowerBound(rows, row)
            if position < rows.count && rows[position] == row { return row - position + numbersBefore[position] + 1 }
            return row - position + (position < numbersBefore.count ? numbersBefore[position] : numbersTaken) + 1
        }
        let before = placeholdersBefore(readerIndex: row)
        return row + (before < numbersBefore.count ? numbersBefore[before] : numbersTaken) + 1
    }

    /// What a number the user typed (`:N`, `--at N`) stands for.
    enum Lookup: Equatable {
        /// The row holding that entry (or the placeholder for a damaged record numbered so).
        case row(Int)
        /// A gap stands for it: the entry was not recorded.
        case notRecorded(LogGap, row: Int?)
        /// A damaged record holds it, and the timeline has no row for it (commands).
        case damaged(DamagedRecord)
        /// Past the last entry of `rowCount` rows.
        case pastTheEnd
    }

    /// The row numbered `number`, for a timeline of `entries` readable entries.
    func lookUp(number: Int, entries: Int) -> Lookup {
        guard number >= 1 else { return .pastTheEnd }
        // Walk the placeholders: few, and in order.
        var readerIndex = number - 1
        for (position, placeholder) in placeholders.enumerated() {
            let first = placeholder.entriesBefore + numbersBefore[position] + 1
            if number < first { break }
            if number < first + placeholder.numbers {
                let row = rowsForPlaceholders ? rows[position] : nil
                switch placeholder.kind {
                case .gap(let gap): return .notRecorded(gap, row: row)
                case .damaged(let record): return row.map { .row($0) } ?? .damaged(record)
                case .session: break   // takes no number
                }
            }
            readerIndex = number - 1 - numbersBefore[position] - placeholder.numbers
        }
        guard readerIndex >= 0, readerIndex < entries else { return .pastTheEnd }
        return .row(row(ofReaderIndex: readerIndex))
    }

    private var numbersTaken: Int { (numbersBefore.last ?? 0) + (placeholders.last?.numbers ?? 0) }

    /// Placeholders before the reader's entry `index`.
    private func placeholdersBefore(readerIndex index: Int) -> Int {
        var low = 0, high = placeholders.count
        while low < high {
            let middle = (low + high) / 2
            if placeholders[middle].entriesBefore <= index { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The most numbers placeholders may take in all: a reader bounds each gap
    /// (`LogLimits.maximumGapEntries`), and this bounds millions of them, so that entry
    /// numbers never overflow.
    static let maximumNumbersTaken = 1 << 62

    /// `taken + more`, at most ``maximumNumbersTaken``.
    static func total(_ taken: Int, _ more: Int) -> Int {
        min(maximumNumbersTaken, taken + min(more, maximumNumbersTaken))
    }

    private static func lowerBound(_ values: [Int], _ value: Int) -> Int {
        var low = 0, high = values.count
        while low < high {
            let middle = (low + high) / 2
            if values[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

private extension PlaceholderRows.Placeholder {
    var line: Int {
        switch kind {
        case .damaged(let record): record.line
        case .gap(let gap): gap.lineNumber
        case .session(let session): session.line
        }
    }
}

/// Where a new recording session starts in a log (it was opened again), as the
/// inspector's timeline shows it.
struct SessionStart: Equatable, Sendable {
    /// The session header's line in the file, from 1.
    var line: Int
    /// `new recording session 2026-12-05T14:02:11Z, MyApp` (escaped for the terminal).
    var description: String
    /// The state the session started from, when its header has one.
    var initialState: JSONValue?
}
