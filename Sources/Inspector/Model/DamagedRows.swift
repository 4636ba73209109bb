/// Where the damaged records of a log sit among its entries, so the timeline keeps
/// a placeholder row for each and the entries after it keep the numbers they have
/// in the file (the reader skips a damaged line: it is not an entry it can read).
///
/// Rows are the timeline's positions (entry numbers − 1); reader indexes are the
/// reader's entries. With damaged records before reader entry 4 and 4 again:
/// rows 0–3 are entries 0–3, rows 4 and 5 the placeholders, row 6 entry 4.
struct DamagedRows: Sendable {
    /// The damaged records, in file order, with the row each takes.
    private(set) var records: [DamagedRecord] = []
    private(set) var rows: [Int] = []

    /// `entriesBefore[i]`: how many readable entries come before `records[i]` in the file.
    init(records: [DamagedRecord], entriesBefore: [Int]) {
        self.records = records
        rows = entriesBefore.enumerated().map { $0.element + $0.offset }
    }

    init() {}

    var isEmpty: Bool { rows.isEmpty }

    /// The damaged record shown at `row`, if that row is a placeholder.
    func record(atRow row: Int) -> DamagedRecord? {
        let position = Self.lowerBound(rows, row)
        return position < rows.count && rows[position] == row ? records[position] : nil
    }

    /// The reader's entry at `row`; nil for a placeholder.
    func readerIndex(ofRow row: Int) -> Int? {
        let position = Self.lowerBound(rows, row)
        if position < rows.count && rows[position] == row { return nil }
        return row - position
    }

    /// The row of the reader's entry `index`.
    func row(ofReaderIndex index: Int) -> Int {
        // Placeholders before it: those whose row is at most index + (placeholders so far).
        var low = 0, high = rows.count
        while low < high {
            let middle = (low + high) / 2
            if rows[middle] - middle <= index { low = middle + 1 } else { high = middle }
        }
        return index + low
    }

    /// Rows in all, for `entries` readable entries.
    func rowCount(entries: Int) -> Int { entries + rows.count }

    private static func lowerBound(_ values: [Int], _ value: Int) -> Int {
        var low = 0, high = values.count
        while low < high {
            let middle = (low + high) / 2
            if values[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
