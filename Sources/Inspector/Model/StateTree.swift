import Recorder

/// One visible line of the state tree.
struct TreeRow: Equatable, Sendable {
    var path: JSONPointer
    var depth: Int
    /// Object key or array index; `nil` for a scalar root.
    var key: String?
    var value: JSONValue
    var isExpanded: Bool

    /// True for a non-empty object or array: something that opens.
    var isContainer: Bool { StateTree.opens(value) }
}

/// Which nodes are open, as parent path → open child keys, so walking a
/// 17,000-element array asks one set per array, not one path per element.
struct TreeExpansion: Equatable, Sendable {
    private(set) var openChildren: [JSONPointer: Set<String>] = [:]

    init(open paths: some Sequence<JSONPointer>) {
        for path in paths {
            guard let parent = path.parent, let key = path.lastToken else { continue }
            openChildren[parent, default: []].insert(key)
        }
    }

    func isExpanded(_ path: JSONPointer) -> Bool {
        guard let parent = path.parent, let key = path.lastToken else { return true }
        return openChildren[parent]?.contains(key) ?? false
    }

    /// Every open node's path.
    var openPaths: Set<JSONPointer> {
        Set(openChildren.flatMap { parent, keys in keys.map { parent.appending($0) } })
    }
}

/// The state pane's rows, computed a window at a time: rows above and below
/// the screen are counted, not built, so a 1 MB state costs what is visible.
enum StateTree {
    /// Levels of indentation drawn before deeper rows all start at the same column
    /// (the state pane draws them; a click on a row's ▸/▾ is found with it).
    static let indentLevels = 8

    static func opens(_ value: JSONValue) -> Bool {
        switch value {
        case .array(let elements): !elements.isEmpty
        case .object(let object): !object.isEmpty
        default: false
        }
    }

    /// How many rows the whole tree has with `expansion`.
    static func rowCount(of state: JSONValue, expansion: TreeExpansion) -> Int {
        guard opens(state) else { return 1 }
        return descendantRows(of: state, at: JSONPointer(), expansion: expansion)
    }

    /// Rows inside `value` (not counting its own row).
    private static func descendantRows(of value: JSONValue, at path: JSONPointer, expansion: TreeExpansion) -> Int {
        let open = expansion.openChildren[path] ?? []
        switch value {
        case .object(let object):
            var total = object.count
            for key in open { if let child = object[key], opens(child) { total += descendantRows(of: child, at: path.appending(key), expansion: expansion) } }
            return total
        case .array(let elements):
            var total = elements.count
            for key in open {
                if let index = Int(key), elements.indices.contains(index), opens(elements[index]) {
                    total += descendantRows(of: elements[index], at: path.appending(key), expansion: expansion)
                }
            }
            return total
        default:
            return 0
        }
    }

    /// The rows at positions `range` of the flattened tree.
    static func rows(of state: JSONValue, expansion: TreeExpansion, in range: Range<Int>) -> [TreeRow] {
        guard opens(state) else {
            return range.contains(0) ? [TreeRow(path: JSONPointer(), depth: 0, key: nil, value: state, isExpanded: false)] : []
        }
        var collector = RowCollector(range: range, expansion: expansion)
        collector.visitChildren(of: state, at: JSONPointer(), depth: 0)
        return collector.rows
    }

    private struct RowCollector {
        let range: Range<Int>
        let expansion: TreeExpansion
        var position = 0
        var rows: [TreeRow] = []

        var isDone: Bool { position >= range.upperBound }

        mutating func visitChildren(of value: JSONValue, at path: JSONPointer, depth: Int) {
            let open = expansion.openChildren[path] ?? []
            switch value {
            case .object(let object):
                for (key, child) in object.members {
                    if isDone { return }
                    visit(key: key, child: child, parent: path, depth: depth, isOpen: open.contains(key))
                }
            case .array(let elements):
                let openIndexes = open.compactMap { Int($0) }.filter { elements.indices.contains($0) }.sorted()
                var index = 0
                while index < elements.count, !isDone {
                    // Skip a run of closed elements above the window in one step.
                    let nextOpen = openIndexes.first { $0 >= index } ?? elements.count
                    if position < range.lowerBound {
                        let skip = min(nextOpen - index, range.lowerBound - position)
                        if skip > 0 { index += skip; position += skip; continue }
                    }
                    visit(key: String(index), child: elements[index], parent: path, depth: depth, isOpen: index == nextOpen)
                    index += 1
                }
            default:
                break
            }
        }

        private mutating func visit(key: String, child: JSONValue, parent: JSONPointer, depth: Int, isOpen: Bool) {
            let expanded = isOpen && StateTree.opens(child)
            let path = parent.appending(key)
            if range.contains(position) {
                rows.append(TreeRow(path: path, depth: depth, key: key, value: child, isExpanded: expanded))
            }
            position += 1
            guard expanded else { return }
            if position >= range.lowerBound {
                visitChildren(of: child, at: path, depth: depth + 1)
            } else {
                // Entirely above the window? Count it instead of walking it.
                let inside = StateTree.descendantRows(of: child, at: path, expansion: expansion)
                if position + inside <= range.lowerBound { position += inside } else { visitChildren(of: child, at: path, depth: depth + 1) }
            }
        }
    }

    /// The row position of `target`, or nil when it does not exist or a parent is closed.
    static func rowIndex(of target: JSONPointer, in state: JSONValue, expansion: TreeExpansion) -> Int? {
        if target.isRoot { return opens(state) ? nil : 0 }
        var position = 0
        var container = state
        var path = JSONPointer()
        for (level, token) in target.tokens.enumerated() {
            let open = expansion.openChildren[path] ?? []
            let next: JSONValue
            switch container {
            case .object(let object):
                guard let index = object.index(of: token) else { return nil }
                for (offset, key) in object.keys[..<index].enumerated() {
                    position += 1
                    let child = object.values[offset]
                    if open.contains(key), opens(child) { position += descendantRows(of: child, at: path.appending(key), expansion: expansion) }
                }
                next = object.values[index]
            case .array(let elements):
                guard let index = Int(token), String(index) == token, elements.indices.contains(index) else { return nil }
                position += index
                for key in open {
                    if let earlier = Int(key), earlier < index, opens(elements[earlier]) {
                        position += descendantRows(of: elements[earlier], at: path.appending(key), expansion: expansion)
                    }
                }
                next = elements[index]
            default:
                return nil
            }
            if level < target.tokens.count - 1 {
                guard open.contains(token) else { return nil }
                position += 1
            }
            container = next
            path = path.appending(token)
        }
        return position
    }

    /// Every node in `state` in display order (open or not), for search.
    /// `body` returns false to stop.
    static func forEachNode(in state: JSONValue, _ body: (JSONPointer, String?, JSONValue) -> Bool) {
        _ = visit(state, key: nil, path: JSONPointer(), body)
    }

    private static func visit(_ value: JSONValue, key: String?, path: JSONPointer, _ body: (JSONPointer, String?, JSONValue) -> Bool) -> Bool {
        if !path.isRoot, !body(path, key, value) { return false }
        switch value {
        case .object(let object):
            for (childKey, child) in object.members where !visit(child, key: childKey, path: path.appending(childKey), body) { return false }
        case .array(let elements):
            for (index, child) in elements.enumerated() where !visit(child, key: String(index), path: path.appending(index), body) { return false }
        default:
            break
        }
        return true
    }
}
