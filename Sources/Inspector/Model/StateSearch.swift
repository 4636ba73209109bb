import Recorder

/// `/` in the state pane, on its way through every node of the state (closed ones too)
/// in display order, in slices as the scans over entries run (EntryScans): a 30 MB
/// state has over a million nodes, so one key press examines what a slice allows,
/// the status bar says how far it got, and Esc stops it. Searching forward, the
/// cursor goes to the first match after it as soon as that is found; the matches
/// are counted on for `match i/N`. Only counts and a few paths are kept, never a
/// list of every match.
struct StateSearch {
    let query: String
    let forward: Bool
    /// The view searched: a new selection ends the search.
    let request: ViewRequest?
    /// The cursor's path when the search started (nil: no cursor, everything is after it).
    private let cursor: [String]?
    private var walk: NodeWalk
    private let needle: SearchNeedle
    private var scratch: [UInt8] = []
    /// True once the walk went past the cursor's node.
    private var passedCursor: Bool
    private(set) var total = 0
    /// Matches before the cursor's node, and whether the cursor's node is one.
    private var before = 0
    private var cursorMatches = false
    private var firstMatch: JSONPointer?
    private var lastMatch: JSONPointer?
    private var lastBeforeCursor: JSONPointer?
    private var firstAfterCursor: JSONPointer?
    /// Where the cursor went, and which match that is (from 1), once known.
    private(set) var landed: (path: JSONPointer, index: Int)?

    init(query: String, forward: Bool, state: JSONNode, cursor: JSONPointer?, request: ViewRequest?) {
        self.query = query
        self.forward = forward
        self.request = request
        self.cursor = cursor?.tokens
        passedCursor = cursor == nil
        needle = SearchNeedle(query.lowercased())
        walk = NodeWalk(state)
    }

    var isDone: Bool { walk.isDone }
    /// How far the walk is through the state, 0...1.
    var fraction: Double { walk.fraction }

    /// Examines nodes while `allowance` lasts; sets `landed` as soon as the target is known.
    mutating func advance(allowance: inout ScanAllowance) {
        while allowance.take(), let node = walk.next() {
            let isCursor = !passedCursor && node.tokens == cursor
            let matches = Self.node(key: node.key, node.node, matches: needle, scratch: &scratch)
            if isCursor { passedCursor = true; cursorMatches = matches }
            guard matches else { continue }
            total += 1
            // Paths only where a target may be: a match costs no allocation otherwise.
            if firstMatch == nil { firstMatch = JSONPointer(tokens: node.tokens) }
            if !passedCursor {
                before += 1
                if !forward { lastBeforeCursor = JSONPointer(tokens: node.tokens) }
            } else if !isCursor {
                if firstAfterCursor == nil { firstAfterCursor = JSONPointer(tokens: node.tokens) }
                if !forward && lastBeforeCursor == nil { lastMatch = JSONPointer(tokens: node.tokens) }
            } else if !forward && lastBeforeCursor == nil {
                lastMatch = JSONPointer(tokens: node.tokens)
            }
        }
        if landed == nil { landed = target() }
        if isDone, landed == nil { landed = finalTarget() }
    }

    /// The target while the walk goes on: forward, the first match after the cursor; backward,
    /// the last one before it once the walk is past the cursor.
    private func target() -> (path: JSONPointer, index: Int)? {
        if forward, let after = firstAfterCursor { return (after, before + (cursorMatches ? 1 : 0) + 1) }
        if !forward, passedCursor, let last = lastBeforeCursor { return (last, before) }
        return nil
    }

    /// Once every node is seen: around the end (forward: the first match; backward: the last).
    private func finalTarget() -> (path: JSONPointer, index: Int)? {
        guard total > 0 else { return nil }
        if forward { return firstMatch.map { ($0, 1) } }
        return lastMatch.map { ($0, total) }
    }

    /// True when the target came from around the end of the state.
    var wrapped: Bool {
        forward ? firstAfterCursor == nil : lastBeforeCursor == nil
    }

    /// `needle` is lowercased: a key, or a scalar's text, that contains it, ignoring case.
    static func node(key: String?, _ node: JSONNode, matches needle: SearchNeedle, scratch: inout [UInt8]) -> Bool {
        if let key, contains(key, needle, &scratch) { return true }
        guard !node.isContainer, let value = node.scalarValue else { return false }
        if case .string(let text) = value { return contains(text, needle, &scratch) }
        return contains(value.description, needle, &scratch)
    }

    private static func contains(_ text: String, _ needle: SearchNeedle, _ scratch: inout [UInt8]) -> Bool {
        guard needle.isASCII else { return text.lowercased().contains(needle.text) }
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: text.utf8)
        return InspectorModel.containsIgnoringASCIICase(scratch, needle.bytes)
    }
}

/// Every node of a value but its root, depth first in display order, one at a time,
/// with its path's tokens: a walk that can stop between any two nodes and go on later.
///
/// It reads the value through ``JSONNode``, so a huge state held as bytes is walked
/// without ever being a tree: a container small enough to parse at once
/// (``parseAtOnceBytes``) is walked as its tree, which is dropped once the walk leaves
/// it; a bigger one a child at a time.
struct NodeWalk {
    /// A node the walk hands out: its key (an object's member; nil for an array's
    /// element), the node, and its path's tokens.
    struct Step {
        let key: String?
        let node: JSONNode
        let tokens: [String]
    }

    /// A container with at most this many bytes still to parse is parsed whole when the
    /// walk enters it: one parse, rather than one per child.
    static let parseAtOnceBytes = 64 << 10

    private struct Frame {
        let container: JSONNode
        let keys: [String]?
        let count: Int
        var next = 0
    }

    private var stack: [Frame] = []
    /// The path of the node last handed out.
    private(set) var tokens: [String] = []

    init(_ root: JSONNode) {
        push(root)
    }

    init(_ root: JSONValue) {
        self.init(JSONNode(root))
    }

    var isDone: Bool { stack.isEmpty }

    /// How far the walk is, 0...1: each level's position, as a share of its parent's.
    var fraction: Double {
        var fraction = 0.0, share = 1.0
        for frame in stack {
            share /= Double(max(1, frame.count))
            fraction += Double(max(0, frame.next - 1)) * share
        }
        return min(1, fraction)
    }

    private mutating func push(_ node: JSONNode) {
        guard node.isContainer else { return }
        let unparsed = node.unparsedBytes
        let container = unparsed > 0 && unparsed <= Self.parseAtOnceBytes ? JSONNode(node.value) : node
        guard container.opens else { return }
        stack.append(Frame(container: container, keys: container.kind == .object ? container.keys : nil, count: container.count))
    }

    /// The next node, with its key and its path's tokens.
    mutating func next() -> Step? {
        // `tokens[i]` is the token of the child frame `i` is at.
        while let top = stack.last, top.next >= top.count {
            stack.removeLast()
            if tokens.count > stack.count { tokens.removeLast() }
        }
        guard var frame = stack.popLast() else { return nil }
        let index = frame.next
        frame.next += 1
        let key = frame.keys?[index]
        guard let node = frame.container.child(at: index) else { return nil }
        let level = stack.count
        stack.append(frame)
        let token = key ?? String(index)
        if tokens.count > level { tokens[level] = token } else { tokens.append(token) }
        let step = Step(key: key, node: node, tokens: tokens)
        push(node)
        return step
    }
}
