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
    var isContainer: Bool {
        switch value {
        case .array(let elements): !elements.isEmpty
        case .object(let object): !object.isEmpty
        default: false
        }
    }
}

/// Flattens a state into the rows the state pane shows, descending only into
/// expanded nodes, so a 1 MB state with few nodes open costs a few rows.
enum StateTree {
    static func rows(of state: JSONValue, isExpanded: (JSONPointer) -> Bool) -> [TreeRow] {
        var rows: [TreeRow] = []
        switch state {
        case .object, .array:
            appendChildren(of: state, at: JSONPointer(), depth: 0, isExpanded: isExpanded, into: &rows)
        default:
            rows.append(TreeRow(path: JSONPointer(), depth: 0, key: nil, value: state, isExpanded: false))
        }
        return rows
    }

    private static func appendChildren(of value: JSONValue, at path: JSONPointer, depth: Int,
                                       isExpanded: (JSONPointer) -> Bool, into rows: inout [TreeRow]) {
        func append(_ key: String, _ child: JSONValue) {
            let childPath = path.appending(key)
            var row = TreeRow(path: childPath, depth: depth, key: key, value: child, isExpanded: false)
            if row.isContainer, isExpanded(childPath) {
                row.isExpanded = true
                rows.append(row)
                appendChildren(of: child, at: childPath, depth: depth + 1, isExpanded: isExpanded, into: &rows)
            } else {
                rows.append(row)
            }
        }
        switch value {
        case .object(let object):
            for (key, child) in object.members { append(key, child) }
        case .array(let elements):
            for (index, child) in elements.enumerated() { append(String(index), child) }
        default:
            break
        }
    }

    /// Every path in `state` in display order (expanded or not), for search.
    static func forEachNode(in state: JSONValue, at path: JSONPointer = JSONPointer(), _ body: (JSONPointer, String?, JSONValue) -> Bool) {
        _ = visit(state, key: nil, path: path, body)
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
