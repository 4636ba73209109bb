import Recorder

/// The value viewer (`v` on any node, Enter on a leaf): one value shown whole, a long
/// string wrapped at spaces (its own line breaks kept), anything else as pretty JSON
/// (a wrapped line's rows keep its indentation).
///
/// Only the rows on screen are built, from the value itself: the text of the whole
/// value is never written out, so a 30 MB array (1.8 million lines) opens and scrolls
/// as a small one does (less's way with a big file). Opening counts the lines once
/// (``JSONNode/prettyLineCount`` of each child, no text); each key then formats and
/// wraps only the lines it passes over and those on screen, each from the child that
/// holds it.
struct ValueViewer: Equatable, Sendable {
    /// A place in the text: a line, and a row of it once wrapped at the viewer's width.
    struct Position: Comparable, Sendable {
        var line: Int
        var row: Int

        static func < (a: Position, b: Position) -> Bool { (a.line, a.row) < (b.line, b.row) }
    }

    let path: JSONPointer
    /// Says which state the value is from when it is not the selected one's (`after entry 12`).
    var caption: String?
    /// The history the viewer was opened from (`v` on a row): Esc goes back to it.
    var returnsTo: InspectorModel.PathHistory?
    private var document: ViewerDocument
    /// The first row on screen.
    private(set) var top = Position(line: 0, row: 0)
    /// The rows on screen, from `top` (built by ``layout(width:height:)``).
    private(set) var visibleRows: [String] = []
    /// The last line with a row on screen.
    private(set) var bottomLine = 0
    private(set) var width = 0
    private(set) var height = 0
    /// Rows of the lines wrapped lately, by line (the screen and what a key passed over).
    private var wrapped: [Int: WrappedLine] = [:]

    /// The viewer on `node`: a string's text, anything else's pretty JSON (read a line at a
    /// time from the node, so a huge one held as bytes is never parsed whole).
    init(path: JSONPointer, node: JSONNode) {
        self.path = path
        if case .string(let text)? = node.scalarValue {
            document = .text(TextLines(text))
        } else {
            document = .json(PrettyJSONLines(node))
        }
    }

    /// The viewer on a value in memory (an action's payload).
    init(path: JSONPointer, value: JSONValue) {
        self.init(path: path, node: JSONNode(value))
    }

    /// Lines of the value (pretty JSON's lines, or a string's paragraphs), before wrapping.
    var lineCount: Int { document.lineCount }

    static func == (a: ValueViewer, b: ValueViewer) -> Bool {
        a.path == b.path && a.top == b.top && a.width == b.width && a.height == b.height && a.visibleRows == b.visibleRows
    }

    /// Rows of at most `width` columns, `height` of them on screen: builds the rows on screen.
    mutating func layout(width: Int, height: Int) {
        let width = max(2, width), height = max(1, height)
        if width != self.width { wrapped = [:] }
        (self.width, self.height) = (width, height)
        top = min(top, lastTop())
        var rows: [String] = []
        var position = top
        while rows.count < height {
            let line = wrappedLine(position.line)
            while position.row < line.count && rows.count < height {
                rows.append(line[position.row])
                position.row += 1
            }
            bottomLine = position.line
            guard position.line + 1 < lineCount else { break }
            position = Position(line: position.line + 1, row: 0)
        }
        visibleRows = rows
        if wrapped.count > 4 * height + 64 { wrapped = wrapped.filter { $0.key >= top.line && $0.key <= bottomLine } }
    }

    /// Scrolls `delta` rows down (up when negative), no further than the first row or
    /// than where the last row is at the bottom of the screen.
    mutating func scroll(by delta: Int) {
        top = delta > 0 ? min(moved(top, by: delta), lastTop()) : moved(top, by: delta)
        layout(width: width, height: height)
    }

    /// To the first row (`g`, Home).
    mutating func scrollToStart() {
        top = Position(line: 0, row: 0)
        layout(width: width, height: height)
    }

    /// To where the last row is at the bottom of the screen (`G`, End).
    mutating func scrollToEnd() {
        top = lastTop()
        layout(width: width, height: height)
    }

    /// The whole value's rows at `width` (tests, on small values: this wraps every line).
    func allRows(width: Int) -> [String] {
        var copy = self
        copy.width = max(2, width)
        return (0..<lineCount).flatMap { line in
            let wrapped = copy.wrappedLine(line)
            return (0..<wrapped.count).map { wrapped[$0] }
        }
    }

    // MARK: Moving by rows

    /// Where the top is when the last row is at the bottom of the screen.
    private mutating func lastTop() -> Position {
        guard lineCount > 0 else { return Position(line: 0, row: 0) }
        let last = lineCount - 1
        return moved(Position(line: last, row: wrappedLine(last).count - 1), by: -(height - 1))
    }

    /// `position` moved `delta` rows, stopping at the first and the last row.
    private mutating func moved(_ position: Position, by delta: Int) -> Position {
        var position = position
        var remaining = delta == .min ? .max : abs(delta)
        if delta > 0 {
            while remaining > 0 {
                let rows = wrappedLine(position.line).count
                if remaining < rows - position.row { position.row += remaining; break }
                guard position.line + 1 < lineCount else { position.row = rows - 1; break }
                remaining -= rows - position.row
                position = Position(line: position.line + 1, row: 0)
            }
        } else {
            while remaining > 0 {
                if position.row >= remaining { position.row -= remaining; break }
                guard position.line > 0 else { position.row = 0; break }
                remaining -= position.row + 1
                position.line -= 1
                position.row = wrappedLine(position.line).count - 1
            }
        }
        return position
    }

    private mutating func wrappedLine(_ line: Int) -> WrappedLine {
        if let known = wrapped[line] { return known }
        let rows = WrappedLine(document.line(line), width: width)
        wrapped[line] = rows
        return rows
    }
}

/// What the viewer shows, a line at a time.
private enum ViewerDocument: Sendable {
    case json(PrettyJSONLines)
    case text(TextLines)

    var lineCount: Int {
        switch self {
        case .json(let lines): lines.count
        case .text(let lines): lines.count
        }
    }

    mutating func line(_ index: Int) -> String {
        switch self {
        case .json(var lines):
            self = .text(TextLines.empty)   // `lines` the only reference while its caches grow
            defer { self = .json(lines) }
            return lines.line(index)
        case .text(let lines):
            return lines.line(index)
        }
    }
}

/// One line broken into rows of at most `width` columns, at spaces where it can be;
/// its leading spaces (pretty JSON's indentation) start each of its rows.
struct WrappedLine: Sendable {
    /// Past this many bytes an ASCII line is cut every `width` characters instead (a
    /// base64 blob, a minified document in a string): its rows are then found without
    /// wrapping what comes before them.
    static let wordWrapLimit = 64 << 10

    private enum Rows: Sendable {
        case words([String])
        case fixed(String, width: Int)
    }

    private let rows: Rows
    let count: Int

    init(_ line: String, width: Int) {
        let width = max(1, width)
        if line.utf8.count > Self.wordWrapLimit, line.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            rows = .fixed(line, width: width)
            count = (line.utf8.count + width - 1) / width
        } else {
            let words = Self.wrap(line, width: width)
            rows = .words(words)
            count = words.count
        }
    }

    subscript(row: Int) -> String {
        switch rows {
        case .words(let words):
            return words[row]
        case .fixed(let line, let width):
            let utf8 = line.utf8
            let start = utf8.index(utf8.startIndex, offsetBy: row * width)
            let end = utf8.index(start, offsetBy: width, limitedBy: utf8.endIndex) ?? utf8.endIndex
            return String(line[start..<end])
        }
    }

    static func wrap(_ paragraph: String, width: Int) -> [String] {
        var lines: [String] = []
        let leading = paragraph.prefix { $0 == " " }
        // At most a row less one column, so every row has room for text.
        let indent = String(leading.prefix(width - 1))
        var line = indent
        for word in paragraph.dropFirst(leading.count).split(separator: " ", omittingEmptySubsequences: false) {
            let candidate = line == indent ? indent + word : line + " " + word
            if TerminalWidth.of(candidate) <= width { line = candidate; continue }
            if line != indent { lines.append(line); line = indent }
            // A word longer than a row is cut where the row ends.
            for character in word {
                if line != indent, TerminalWidth.of(line) + TerminalWidth.of(character) > width { lines.append(line); line = indent }
                line.append(character)
            }
        }
        lines.append(line)
        return lines
    }
}

/// A string's paragraphs (its own line breaks), found once.
struct TextLines: Sendable {
    private let text: String
    /// Where each paragraph starts; a paragraph ends at the next one's start, less its line break.
    private let starts: [String.Index]

    init(_ text: String) {
        self.text = text
        var starts = [text.startIndex]
        var index = text.utf8.startIndex
        while let newline = text.utf8[index...].firstIndex(of: UInt8(ascii: "\n")) {
            index = text.utf8.index(after: newline)
            starts.append(index)
        }
        self.starts = starts
    }

    static let empty = TextLines("")

    var count: Int { starts.count }

    func line(_ index: Int) -> String {
        let end = index + 1 < starts.count ? text.utf8.index(before: starts[index + 1]) : text.endIndex
        return String(text[starts[index]..<end])
    }
}

/// A value's pretty JSON (``JSONWriter/prettyString(_:)``'s text) a line at a time,
/// without writing the rest: line N is found by walking down the nodes with the
/// line counts of the containers on the way, counted once and kept.
///
/// It reads the value through ``JSONNode``: a node held as bytes is counted without
/// being parsed, and only the small containers a shown line is in are parsed (a while).
struct PrettyJSONLines: Sendable {
    private let root: JSONNode
    let count: Int
    /// For containers looked into: where each child's lines start among the container's
    /// inner lines (and their total last), by path. Those of big containers are kept for
    /// good, the small ones on the way to the lines shown only for a while.
    private var bigStarts: [JSONPointer: [Int]] = [:]
    private var smallStarts: [JSONPointer: [Int]] = [:]
    /// The node read for each container looked into, by path: a small one held as bytes
    /// is parsed once (the lines of a screen then parse it once, not once a line), and
    /// what a node holds is sized once. Big containers' are kept for good, small ones' a while.
    private var bigNodes: [JSONPointer: JSONNode] = [:]
    private var smallNodes: [JSONPointer: JSONNode] = [:]

    /// Containers with at least this many children keep their line starts for good.
    static let bigContainer = 256
    /// A container with at most this many bytes still to parse is parsed whole on the way
    /// to a line inside it.
    static let parseAtOnceBytes = NodeWalk.parseAtOnceBytes

    init(_ root: JSONNode) {
        self.root = root
        var starts: [JSONPointer: [Int]] = [:]
        count = root.opens ? Self.childStarts(of: root, at: JSONPointer(), keepingBig: &starts).last! + 2 : 1
        bigStarts = starts
    }

    init(_ root: JSONValue) {
        self.init(JSONNode(root))
    }

    /// Line `index` of the pretty JSON, from 0.
    mutating func line(_ index: Int) -> String {
        var node = root
        var path = JSONPointer()
        var level = 0
        var label = ""
        var isLast = true
        var remaining = index
        while true {
            // The comma after a member goes on its last line: a scalar's, or a container's closing one.
            let comma = isLast ? "" : ","
            node = readable(node, at: path)
            if !node.opens { return String(repeating: " ", count: 2 * level) + label + JSONWriter.compactString(node.value) + comma }
            let isArray = node.kind == .array
            if remaining == 0 { return String(repeating: " ", count: 2 * level) + label + (isArray ? "[" : "{") }
            let starts = self.starts(of: node, at: path)
            let inner = remaining - 1
            if inner >= starts[starts.count - 1] {
                return String(repeating: " ", count: 2 * level) + (isArray ? "]" : "}") + comma
            }
            let child = starts.partitioningIndex { $0 > inner } - 1
            remaining = inner - starts[child]
            level += 1
            isLast = child == node.count - 1
            if isArray {
                label = ""
                path = path.appending(child)
            } else {
                let key = node.keys[child]
                label = JSONWriter.compactString(.string(key)) + ": "
                path = path.appending(key)
            }
            guard let next = node.child(at: child) else { return "" }
            node = next
        }
    }

    /// The container `node` at `path` as its lines are read from: in memory when it is small
    /// and still held as bytes.
    private mutating func readable(_ node: JSONNode, at path: JSONPointer) -> JSONNode {
        guard node.isContainer else { return node }
        if let known = bigNodes[path] ?? smallNodes[path] { return known }
        let unparsed = node.unparsedBytes
        let readable = unparsed > 0 && unparsed <= Self.parseAtOnceBytes ? JSONNode(node.value) : node
        if readable.count >= Self.bigContainer {
            bigNodes[path] = readable
        } else {
            if smallNodes.count >= 64 { smallNodes = [:] }
            smallNodes[path] = readable
        }
        return readable
    }

    private mutating func starts(of container: JSONNode, at path: JSONPointer) -> [Int] {
        if let known = bigStarts[path] ?? smallStarts[path] { return known }
        let starts = Self.childStarts(of: container, at: path, keepingBig: &bigStarts)
        if smallStarts.count > 4096 { smallStarts = [:] }
        if starts.count <= Self.bigContainer { smallStarts[path] = starts }
        return starts
    }

    /// Where each child's lines start inside `container` (from 0), and their total last;
    /// containers below it with many children keep theirs in `big`.
    private static func childStarts(of container: JSONNode, at path: JSONPointer, keepingBig big: inout [JSONPointer: [Int]]) -> [Int] {
        var starts = [0]
        starts.reserveCapacity(container.count + 1)
        var offset = 0
        container.forEachChild { key, child in
            let lines: Int
            // A small child held as bytes is counted from them, unparsed: its starts are
            // found if a line inside it is shown.
            let unparsed = child.unparsedBytes
            if unparsed == 0 || unparsed > parseAtOnceBytes, child.count >= bigContainer {
                let inner = childStarts(of: child, at: key.map { path.appending($0) } ?? path.appending(offset), keepingBig: &big)
                lines = inner[inner.count - 1] + 2
            } else {
                lines = child.prettyLineCount
            }
            starts.append(starts[starts.count - 1] + lines)
            offset += 1
            return true
        }
        if starts.count > bigContainer { big[path] = starts }
        return starts
    }
}
