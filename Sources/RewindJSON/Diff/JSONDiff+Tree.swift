/// One line of a tree diff, for a view that colours and indents it itself
/// (the inspector). `package`: apps get the text from ``JSONDiff/treeText(from:to:options:)``.
package struct TreeDiffLine: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        /// An unchanged member shown for context (not produced by the default collapsing).
        case unchanged
        /// Only in the old document.
        case removed
        /// Only in the new document.
        case added
        /// `… (N unchanged)`: a run of unchanged siblings.
        case collapsed
        /// An opening or closing bracket of a container whose contents changed.
        case header
    }

    package var kind: Kind
    /// Nesting level; the text is indented by two spaces per level.
    package var depth: Int
    /// The line without marker or indentation: `"count": 2`, `"todos": [`, `]`, `… (3 unchanged)`.
    package var text: String
    /// Where the line points: the old document's location for removed lines,
    /// the new document's for the rest (the container, for collapsed runs).
    package var path: JSONPointer

    package init(kind: Kind, depth: Int, text: String, path: JSONPointer) {
        self.kind = kind
        self.depth = depth
        self.text = text
        self.path = path
    }

    /// The line as printed: a `-`, `+` or space marker, a space, then the indented text.
    package var rendered: String {
        let marker: Character = switch kind {
        case .removed: "-"
        case .added: "+"
        default: " "
        }
        return String(marker) + " " + String(repeating: "  ", count: depth) + text
    }
}

extension JSONDiff {
    /// A readable diff in the style of swift-custom-dump, or `nil` when the
    /// documents are equal:
    ///
    /// ```text
    ///   {
    /// -   "count": 1
    /// +   "count": 2
    ///     … (3 unchanged)
    ///   }
    /// ```
    public static func treeText(from old: JSONValue, to new: JSONValue, options: JSONDiffOptions = JSONDiffOptions()) -> String? {
        let lines = treeLines(from: old, to: new, options: options)
        if lines.isEmpty { return nil }
        return lines.map(\.rendered).joined(separator: "\n")
    }

    /// The tree diff as structured lines (empty when the documents are equal). With a
    /// `lineLimit`, it stops once it has written that many lines and ends with a
    /// collapsed line saying so: a screen's diff of a 30 MB list added whole costs
    /// a screenful, not the list.
    package static func treeLines(from old: JSONValue, to new: JSONValue, options: JSONDiffOptions = JSONDiffOptions(),
                                  lineLimit: Int? = nil) -> [TreeDiffLine] {
        if old == new { return [] }
        var printer = _TreePrinter(options: options)
        printer.lineLimit = lineLimit ?? .max
        printer.diff(old, new, label: "", depth: 0, oldPath: JSONPointer(), newPath: JSONPointer())
        if printer.isFull {
            printer.lines.append(TreeDiffLine(kind: .collapsed, depth: 0, text: "… (the diff goes on: cut at \(printer.lineLimit) lines)", path: JSONPointer()))
        }
        return printer.lines
    }

    /// The tree diff's lines (``treeLines(from:to:options:lineLimit:)``) handed to `body` one
    /// by one as they are made, each with how far through the documents the diff is
    /// (``NestedProgress``), until `body` returns false; the result says whether the diff went
    /// to the end. Nothing for equal documents. For a diff whose text is too big to hold (the
    /// inspector's `e` writes the diff of a 30 MB state to a file).
    package static func forEachTreeLine(from old: JSONValue, to new: JSONValue, options: JSONDiffOptions = JSONDiffOptions(),
                                        _ body: (TreeDiffLine, _ fraction: Double) -> Bool) -> Bool {
        if old == new { return true }
        return withoutActuallyEscaping(body) { body in
            var printer = _TreePrinter(options: options)
            printer.sink = body
            printer.diff(old, new, label: "", depth: 0, oldPath: JSONPointer(), newPath: JSONPointer())
            return !printer.isFull
        }
    }
}

struct _TreePrinter {
    let options: JSONDiffOptions
    var lines: [TreeDiffLine] = []
    /// Lines written at most: the printer stops at this many.
    var lineLimit = Int.max
    /// Where the lines go as they are made, with the diff's progress; nil keeps them in `lines`.
    /// Returning false stops the diff.
    var sink: ((TreeDiffLine, Double) -> Bool)?
    private var written = 0
    private var stopped = false
    private var progress = NestedProgress()

    init(options: JSONDiffOptions) { self.options = options }

    var isFull: Bool { stopped || written >= lineLimit }

    private mutating func emit(_ line: TreeDiffLine) {
        written += 1
        guard let sink else { return lines.append(line) }
        if !sink(line, progress.fraction) { stopped = true }
    }

    /// Lines for one member whose value changed; `label` is `"key": ` or empty.
    mutating func diff(_ old: JSONValue, _ new: JSONValue, label: String, depth: Int, oldPath: JSONPointer, newPath: JSONPointer) {
        guard !isFull else { return }
        switch (old, new) {
        case (.object(let a), .object(let b)):
            emit(TreeDiffLine(kind: .header, depth: depth, text: label + "{", path: newPath))
            var unchanged = 0
            // The new object's members, then the old one's (for those removed).
            progress.enter(count: b.count + a.count)
            for (key, value) in b.members {
                if isFull { return }
                defer { progress.advance() }
                let memberLabel = JSONWriter.compactString(.string(key)) + ": "
                guard let previous = a[key] else {
                    flush(&unchanged, depth: depth + 1, path: newPath)
                    emit(TreeDiffLine(kind: .added, depth: depth + 1, text: memberLabel + value.description, path: newPath.appending(key)))
                    continue
                }
                if previous == value {
                    unchanged += 1
                } else {
                    flush(&unchanged, depth: depth + 1, path: newPath)
                    diff(previous, value, label: memberLabel, depth: depth + 1, oldPath: oldPath.appending(key), newPath: newPath.appending(key))
                }
            }
            for (key, value) in a.members {
                if isFull { return }
                defer { progress.advance() }
                guard b[key] == nil else { continue }
                flush(&unchanged, depth: depth + 1, path: newPath)
                let memberLabel = JSONWriter.compactString(.string(key)) + ": "
                emit(TreeDiffLine(kind: .removed, depth: depth + 1, text: memberLabel + value.description, path: oldPath.appending(key)))
            }
            flush(&unchanged, depth: depth + 1, path: newPath)
            emit(TreeDiffLine(kind: .header, depth: depth, text: "}", path: newPath))
            progress.leave()
        case (.array(let a), .array(let b)):
            emit(TreeDiffLine(kind: .header, depth: depth, text: label + "[", path: newPath))
            let arrays = _ArrayDiff(old: a, new: b, options: options)
            var unchanged = 0
            // The new array's index after the last unchanged element, so the collapsed line can name the run.
            var next = 0
            progress.enter(count: arrays.steps.count)
            for step in arrays.steps {
                if isFull { return }
                defer { progress.advance() }
                switch step {
                case .match(let i, let j):
                    if a[i] == b[j] {
                        unchanged += 1
                        next = j + 1
                    } else {
                        flush(&unchanged, depth: depth + 1, path: newPath, endingBefore: next)
                        diff(a[i], b[j], label: "", depth: depth + 1, oldPath: oldPath.appending(i), newPath: newPath.appending(j))
                    }
                case .delete(let i):
                    flush(&unchanged, depth: depth + 1, path: newPath, endingBefore: next)
                    emit(TreeDiffLine(kind: .removed, depth: depth + 1, text: a[i].description, path: oldPath.appending(i)))
                case .insert(let j):
                    flush(&unchanged, depth: depth + 1, path: newPath, endingBefore: next)
                    emit(TreeDiffLine(kind: .added, depth: depth + 1, text: b[j].description, path: newPath.appending(j)))
                }
            }
            flush(&unchanged, depth: depth + 1, path: newPath, endingBefore: next)
            emit(TreeDiffLine(kind: .header, depth: depth, text: "]", path: newPath))
            progress.leave()
        default:
            emit(TreeDiffLine(kind: .removed, depth: depth, text: label + old.description, path: oldPath))
            emit(TreeDiffLine(kind: .added, depth: depth, text: label + new.description, path: newPath))
        }
    }

    /// Writes `… (N unchanged)` for a run of unchanged members; in an array, with the (new) indexes
    /// it stands for, `… (4 unchanged: 2–5)`, so a reader knows which elements were left out.
    private mutating func flush(_ unchanged: inout Int, depth: Int, path: JSONPointer, endingBefore end: Int? = nil) {
        guard unchanged > 0 else { return }
        var text = "… (\(unchanged) unchanged"
        if let end { text += unchanged == 1 ? ": \(end - 1)" : ": \(end - unchanged)–\(end - 1)" }
        emit(TreeDiffLine(kind: .collapsed, depth: depth, text: text + ")", path: path))
        unchanged = 0
    }
}
