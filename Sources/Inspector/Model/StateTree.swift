import Recorder

/// One visible line of the state tree (or of the action's payload).
struct TreeRow: Equatable, Sendable {
    var path: JSONPointer
    var depth: Int
    /// Object key or array index; `nil` for a scalar root.
    var key: String?
    /// The row's value, read through ``JSONNode``: a row of a huge state is not parsed to be shown.
    var node: JSONNode
    var isExpanded: Bool

    /// True for a non-empty object or array: something that opens.
    var isContainer: Bool { node.opens }
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
    static func rowCount(of state: JSONNode, expansion: TreeExpansion) -> Int {
        guard state.opens else { return 1 }
        return descendantRows(of: state, at: JSONPointer(), expansion: expansion)
    }

    /// Rows inside `node` (not counting its own row): its children's, and inside the open ones theirs.
    private static func descendantRows(of node: JSONNode, at path: JSONPointer, expansion: TreeExpansion) -> Int {
        guard node.isContainer else { return 0 }
        var total = node.count
        for key in expansion.openChildren[path] ?? [] {
            if let child = node.child(key), child.opens { total += descendantRows(of: child, at: path.appending(key), expansion: expansion) }
        }
        return total
    }

    /// The rows at positions `range` of the flattened tree.
    static func rows(of state: JSONNode, expansion: TreeExpansion, in range: Range<Int>) -> [TreeRow] {
        guard state.opens else {
            return range.contains(0) ? [TreeRow(path: JSONPointer(), depth: 0, key: nil, node: state, isExpanded: false)] : []
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

        mutating func visitChildren(of node: JSONNode, at path: JSONPointer, depth: Int) {
            let open = expansion.openChildren[path] ?? []
            switch node.kind {
            case .object:
                let keys = node.keys
                var offset = 0
                while offset < keys.count, !isDone {
                    // Skip closed members above the window without reading them.
                    if position < range.lowerBound, !open.contains(keys[offset]) { offset += 1; position += 1; continue }
                    if let child = node.child(at: offset) {
                        visit(key: keys[offset], child: child, parent: path, depth: depth, isOpen: open.contains(keys[offset]))
                    }
                    offset += 1
                }
            case .array:
                let count = node.count
                let openIndexes = open.compactMap { JSONPointer.arrayIndex($0) }.filter { $0 < count }.sorted()
                var index = 0
                while index < count, !isDone {
                    // Skip a run of closed elements above the window in one step.
                    let nextOpen = openIndexes.first { $0 >= index } ?? count
                    if position < range.lowerBound {
                        let skip = min(nextOpen - index, range.lowerBound - position)
                        if skip > 0 { index += skip; position += skip; continue }
                    }
                    if let child = node.child(at: index) {
                        visit(key: String(index), child: child, parent: path, depth: depth, isOpen: index == nextOpen)
                    }
                    index += 1
                }
            default:
                break
            }
        }

        private mutating func visit(key: String, child: JSONNode, parent: JSONPointer, depth: Int, isOpen: Bool) {
            let expanded = isOpen && child.opens
            let path = parent.appending(key)
            if range.contains(position) {
                rows.append(TreeRow(path: path, depth: depth, key: key, node: child, isExpanded: expanded))
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
    static func rowIndex(of target: JSONPointer, in state: JSONNode, expansion: TreeExpansion) -> Int? {
        if target.isRoot { return state.opens ? nil : 0 }
        var position = 0
        var container = state
        var path = JSONPointer()
        for (level, token) in target.tokens.enumerated() {
            let open = expansion.openChildren[path] ?? []
            let index: Int
            switch container.kind {
            case .object:
                guard let offset = container.offset(ofKey: token) else { return nil }
                index = offset
                // The open members before it add what they show.
                for (earlier, key) in container.keys[..<offset].enumerated() where open.contains(key) {
                    if let child = container.child(at: earlier), child.opens {
                        position += descendantRows(of: child, at: path.appending(key), expansion: expansion)
                    }
                }
            case .array:
                guard let element = JSONPointer.arrayIndex(token), element < container.count else { return nil }
                index = element
                for key in open {
                    if let earlier = JSONPointer.arrayIndex(key), earlier < element, let child = container.child(at: earlier), child.opens {
                        position += descendantRows(of: child, at: path.appending(key), expansion: expansion)
                    }
                }
            default:
                return nil
            }
            position += index
            guard let next = container.child(at: index) else { return nil }
            if level < target.tokens.count - 1 {
                guard open.contains(token) else { return nil }
                position += 1
            }
            container = next
            path = path.appending(token)
        }
        return position
    }
}
