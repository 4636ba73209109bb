import Recorder

/// A colour named by what it means on screen; the terminal maps roles to
/// real colours, or to nothing when colours are off (`NO_COLOR`, monochrome).
enum ColorRole: Equatable, Sendable {
    case standard
    case accent
    case added
    case removed
    case changed
    case muted
    case warning
}

/// How one cell is drawn.
struct CellStyle: Equatable, Sendable {
    var foreground: ColorRole = .standard
    var background: ColorRole = .standard
    var bold = false
    var reverse = false
    var dim = false
    /// Search matches.
    var underline = false

    static let plain = CellStyle()
    static let bold = CellStyle(bold: true)
    static let reverse = CellStyle(reverse: true)
    static let dim = CellStyle(dim: true)
    /// A key that does nothing here (the replay keys without a linked reducer): greyed in help and hints.
    static let unavailable = CellStyle(foreground: .muted, dim: true)
    static func colored(_ role: ColorRole, bold: Bool = false) -> CellStyle { CellStyle(foreground: role, bold: bold) }
}

/// One screen position. A wide character occupies its cell and the next one,
/// which is marked as a continuation and carries no text of its own.
struct ScreenCell: Equatable, Sendable {
    var text: Character = " "
    var style = CellStyle.plain
    var isContinuation = false
}

/// Terminal dimensions in cells.
struct ScreenSize: Equatable, Sendable {
    var columns: Int
    var rows: Int
}

/// The whole screen as a grid of cells: what `render` produces and the
/// terminal draws. Tests read it back with `plainText`.
struct ScreenBuffer: Equatable, Sendable {
    let size: ScreenSize
    private(set) var cells: [ScreenCell]

    init(size: ScreenSize) {
        self.size = ScreenSize(columns: max(0, size.columns), rows: max(0, size.rows))
        cells = Array(repeating: ScreenCell(), count: self.size.columns * self.size.rows)
    }

    subscript(row: Int, column: Int) -> ScreenCell {
        cells[row * size.columns + column]
    }

    /// Writes `text` from (`row`, `column`), clipped at `limit` columns (default:
    /// the screen edge). A wide character that would straddle the limit becomes
    /// a space. Returns the column after the last cell written.
    @discardableResult
    mutating func write(_ text: some StringProtocol, row: Int, column: Int, style: CellStyle = .plain, limit: Int? = nil) -> Int {
        guard row >= 0, row < size.rows else { return column }
        let end = min(limit ?? size.columns, size.columns)
        var x = column
        for character in text {
            let width = TerminalWidth.of(character)
            if width == 0 { continue }
            if x + width > end {
                if x < end { set(row, x, ScreenCell(text: " ", style: style)); x += 1 }
                break
            }
            if x >= 0 {
                let shown: Character = character.isControlCharacter ? "?" : character
                set(row, x, ScreenCell(text: shown, style: style))
                for extra in 1..<max(1, width) { set(row, x + extra, ScreenCell(text: " ", style: style, isContinuation: true)) }
            }
            x += width
        }
        return x
    }

    /// Paints `style` over a run of cells, keeping their text (selection bars).
    mutating func applyStyle(_ style: CellStyle, row: Int, columns: Range<Int>) {
        guard row >= 0, row < size.rows else { return }
        for x in columns.clamped(to: 0..<size.columns) { cells[row * size.columns + x].style = style }
    }

    /// Underlines (bold, in the "changed" colour) every case-insensitive occurrence of
    /// `needle` in the text of `row` within `columns`: search matches on screen.
    mutating func highlight(_ needle: String, row: Int, columns: Range<Int>) {
        guard row >= 0, row < size.rows, !needle.isEmpty else { return }
        let span = columns.clamped(to: 0..<size.columns)
        var characters: [(text: String, column: Int)] = []
        for x in span where !cells[row * size.columns + x].isContinuation {
            characters.append((String(cells[row * size.columns + x].text).lowercased(), x))
        }
        let pattern = Array(needle.lowercased()).map { String($0) }
        guard pattern.count <= characters.count else { return }
        var start = 0
        while start + pattern.count <= characters.count {
            if (0..<pattern.count).allSatisfy({ characters[start + $0].text == pattern[$0] }) {
                let from = characters[start].column
                let to = start + pattern.count < characters.count ? characters[start + pattern.count].column : span.upperBound
                for x in from..<to {
                    var style = cells[row * size.columns + x].style
                    style.underline = true
                    style.bold = true
                    style.foreground = .changed
                    cells[row * size.columns + x].style = style
                }
                start += pattern.count
            } else {
                start += 1
            }
        }
    }

    /// Fills a rectangle with spaces in `style`.
    mutating func fill(rows: Range<Int>, columns: Range<Int>, style: CellStyle = .plain) {
        for y in rows.clamped(to: 0..<size.rows) {
            for x in columns.clamped(to: 0..<size.columns) { cells[y * size.columns + x] = ScreenCell(text: " ", style: style) }
        }
    }

    private mutating func set(_ row: Int, _ column: Int, _ cell: ScreenCell) {
        guard column >= 0, column < size.columns else { return }
        let index = row * size.columns + column
        // Overwriting part of a wide character blanks the rest of it.
        if cells[index].isContinuation {
            var lead = column - 1
            while lead > 0, cells[row * size.columns + lead].isContinuation { lead -= 1 }
            for position in (row * size.columns + max(0, lead))..<index {
                cells[position] = ScreenCell(text: " ", style: cells[position].style)
            }
        }
        if !cell.isContinuation {
            var next = column + 1
            while next < size.columns, cells[row * size.columns + next].isContinuation {
                cells[row * size.columns + next] = ScreenCell(text: " ", style: cells[row * size.columns + next].style)
                next += 1
            }
        }
        cells[index] = cell
    }

    /// The screen as text lines with trailing spaces removed: what a user
    /// would read, and what tests compare.
    var plainText: String {
        (0..<size.rows).map { row in
            var line = ""
            for column in 0..<size.columns where !self[row, column].isContinuation { line.append(self[row, column].text) }
            while line.last == " " { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }

    /// The text of one row, trailing spaces removed.
    func line(_ row: Int) -> String {
        plainText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)[row]
    }
}

extension Character {
    var isControlCharacter: Bool {
        unicodeScalars.first.map { $0.value < 0x20 || ($0.value >= 0x7F && $0.value < 0xA0) } ?? false
    }
}
