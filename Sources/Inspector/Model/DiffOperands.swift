import Recorder

/// The values the diff pane's lines are written from, read from the states' nodes: a
/// changed path's values whole when they are small, and of a huge one (a list of 100,000
/// items added whole) only as much as the pane's first lines show, so the lines are
/// exactly those of the whole values, cut line included, without a tree of the huge side.
///
/// "Huge" is a node with at least `budget` bytes still to parse (``JSONNode/unparsedBytes``):
/// a node in memory costs nothing to read whole, and with a budget of 0 every node is
/// read a prefix at a time (how the tests hold this to the whole values' diff).
enum DiffOperands {
    /// True when reading `node` whole would parse at least `budget` bytes.
    static func isHuge(_ node: JSONNode, budget: Int) -> Bool { node.unparsedBytes >= budget }

    /// A value whose first `lines` lines of pretty JSON (``PrettyJSONLines``) are `node`'s:
    /// the node whole when it is small or they cover it, else its first children (the one
    /// the last line falls in cut the same way, the next one there for the comma before it).
    /// `lineCount`: the node's ``JSONNode/prettyLineCount`` when the caller has it (a huge node's is a scan of its bytes).
    static func prettyPrefix(of node: JSONNode, lines: Int, budget: Int, lineCount: Int? = nil) -> JSONValue {
        guard node.opens, isHuge(node, budget: budget), lines < lineCount ?? node.prettyLineCount else { return node.value }
        var children: [(key: String?, value: JSONValue)] = []
        // Where the next child's first line is, counting the container's opening line as 0.
        var start = 1
        node.forEachChild { key, child in
            // A child starting right after the lines wanted is there only for the comma that
            // ends the line before it: what it holds is never shown.
            let wanted = lines - start
            let childLines = child.prettyLineCount
            children.append((key, wanted > 0 ? prettyPrefix(of: child, lines: wanted, budget: budget, lineCount: childLines) : .null))
            start += childLines
            return start <= lines
        }
        return container(like: node, children)
    }

    /// The two values whose tree diff (``DiffLines/treeLines(from:to:)``, cut at `lineLimit`
    /// lines) is `old`'s against `new`'s, both containers. Read whole when both are small;
    /// else a list filled from empty (or emptied) keeps its first `lineLimit` elements, the
    /// members of two objects are paired up the same way and equal ones stand in as nulls
    /// (the diff counts them, never shows them); anything else is read whole.
    static func treeDiff(from old: JSONNode, to new: JSONNode, lineLimit: Int, budget: Int) -> (old: JSONValue, new: JSONValue) {
        guard isHuge(old, budget: budget) || isHuge(new, budget: budget) else { return (old.value, new.value) }
        switch (old.kind, new.kind) {
        case (.array, .array) where old.count == 0 || new.count == 0:
            // Every element is one added (or removed) line: the diff is cut before the next one.
            return (firstElements(of: old, lineLimit), firstElements(of: new, lineLimit))
        case (.object, .object):
            var oldMembers: [(key: String?, value: JSONValue)] = []
            var newMembers: [(key: String?, value: JSONValue)] = []
            // The old object's members that the new one has too, by position, as they stand in the diff.
            var pairedOld = [JSONValue?](repeating: nil, count: old.count)
            new.forEachChild { key, after in
                guard let key else { return true }
                guard let offset = old.offset(ofKey: key), let before = old.child(at: offset) else {
                    newMembers.append((key, after.value))
                    return true
                }
                let pair = paired(before, after, lineLimit: lineLimit, budget: budget)
                newMembers.append((key, pair.new))
                pairedOld[offset] = pair.old
                return true
            }
            old.forEachChild { key, before in
                guard let key else { return true }
                oldMembers.append((key, pairedOld[oldMembers.count] ?? before.value))
                return true
            }
            return (container(like: old, oldMembers), container(like: new, newMembers))
        default:
            return (old.value, new.value)
        }
    }

    /// The values standing for one member of both objects.
    private static func paired(_ before: JSONNode, _ after: JSONNode, lineLimit: Int, budget: Int) -> (old: JSONValue, new: JSONValue) {
        if before == after { return (.null, .null) }
        guard before.isContainer && after.isContainer else { return (before.value, after.value) }
        return treeDiff(from: before, to: after, lineLimit: lineLimit, budget: budget)
    }

    private static func firstElements(of array: JSONNode, _ limit: Int) -> JSONValue {
        var elements: [JSONValue] = []
        array.forEachChild { _, element in
            elements.append(element.value)
            return elements.count < limit
        }
        return .array(elements)
    }

    private static func container(like node: JSONNode, _ children: [(key: String?, value: JSONValue)]) -> JSONValue {
        guard node.kind == .object else { return .array(children.map(\.value)) }
        var object = JSONObject()
        for child in children { object[child.key ?? ""] = child.value }
        return .object(object)
    }
}
