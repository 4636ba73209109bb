internal import CJSONScan

extension JSONNode {
    /// The document of the first node held as bytes in this one (depth first), if any.
    var firstDocument: JSONDocumentBytes? {
        switch storage {
        case .tree: nil
        case .bytes(let document, _): document
        case .array(let nodes): Self.firstDocument(in: nodes)
        case .object(let members): Self.firstDocument(in: members.nodes)
        }
    }

    /// A loop, not `lazy.compactMap(…).first`, which finds the first and then reads it again:
    /// twice a level, 2⁵⁰⁰ times down 500 nested arrays.
    private static func firstDocument(in nodes: [JSONNode]) -> JSONDocumentBytes? {
        for node in nodes { if let document = node.firstDocument { return document } }
        return nil
    }

    /// Containers whose JSON is longer than this are held as their children's nodes by
    /// ``reading(_:_:containersOver:)``; shorter values stay bytes, parsed when read.
    /// 64 kB: a few hundred microseconds to parse when a reader opens one, while the
    /// nodes of a 30 MB state stay its big containers' children (100,000 on the huge-state log).
    package static let lazyContainerBytes = 64 << 10

    /// The JSON value in `bytes[range]` (space around it allowed), held lazily: `bytes` is
    /// kept as it is (shared, not copied); a container longer than `containersOver` bytes
    /// is held as its children's nodes (an object's keys read, repeated keys resolved as
    /// ``JSONObject`` resolves them), recursively; any other value is a range of the bytes,
    /// parsed when read. The bytes are checked once, by the checked skim; a small value it
    /// leaves undecided (a very long number) is parsed into a tree on its own, and a document
    /// it refuses (invalid JSON, deep nesting) is parsed whole by ``JSONParser`` into a tree,
    /// which throws the parser's error for invalid JSON.
    ///
    /// ```swift
    /// let state = try JSONNode.reading(line, stateRange)
    /// state.child("items")?.count      // without parsing the items
    /// ```
    package static func reading(_ bytes: [UInt8], _ range: Range<Int>, containersOver threshold: Int = lazyContainerBytes) throws(JSONParseError) -> JSONNode {
        let document = JSONDocumentBytes(bytes)
        if let node = document.lazyNode(range, containersOver: threshold) { return node }
        let parsed = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONParseError) in try JSONParser.parse(buffer: UnsafeBufferPointer(rebasing: buffer[range])) }
        }
        return JSONNode(try parsed.get())
    }
}

/// Where a value held as bytes is in its document, and whether those bytes are exactly
/// what ``JSONWriter/compact(_:)`` writes for it (so its size and lines are read from
/// them): 8 bytes, as 100,000 of them sit beside a huge state's bytes.
struct JSONSpan: Sendable {
    private let start32: UInt32
    /// The count, shifted left once, with `isCompact` in the lowest bit.
    private let countAndCompact: UInt32

    /// Spans start below this and are shorter than it (the reader's lines are 64 MB at most).
    static let limit = Int(UInt32.max >> 1)

    init(start: Int, end: Int, isCompact: Bool) {
        start32 = UInt32(start)
        countAndCompact = UInt32(end - start) << 1 | (isCompact ? 1 : 0)
    }

    var start: Int { Int(start32) }
    var count: Int { Int(countAndCompact >> 1) }
    var end: Int { start + count }
    var isCompact: Bool { countAndCompact & 1 == 1 }
}

/// The JSON a lazily held state was read from, kept as read: the nodes held as bytes point into it.
final class JSONDocumentBytes: Sendable {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The value at `span`, parsed.
    func parse(_ span: JSONSpan) -> JSONValue {
        bytes.withUnsafeBufferPointer { buffer in
            let value = UnsafeBufferPointer(rebasing: buffer[span.start..<span.end])
            if let scalar = JSONSkimmer.checkedScalar(value) { return scalar }
            // The checked skim accepted these bytes when the node was made: the parser does too.
            return (try? JSONParser.parse(buffer: value)) ?? .null
        }
    }

    /// The tree of a container held as its children's nodes. The values held as bytes of one
    /// document are parsed by one parser, which learns their objects' shapes and repeated strings
    /// once: a parser each made the 30 MB state's 100,000 items take 1.1 s against 0.19 s parsed whole.
    /// With `isCancelled`, looked at every 64 children of a container: nil once it says so
    /// (the inspector's `e` on a 30 MB state stops within a few milliseconds of Esc).
    static func tree(of container: JSONNode, unlessCancelled isCancelled: () -> Bool = { false }) -> JSONValue? {
        guard let document = container.firstDocument else { return build(container, nil, isCancelled) }
        return document.bytes.withUnsafeBufferPointer { buffer in
            var parser = _Parser(bytes: buffer)
            defer { parser.releaseStorage() }
            return withUnsafeMutablePointer(to: &parser) { build(container, (document, $0), isCancelled) }
        }
    }

    private static func build(_ node: JSONNode, _ parser: (document: JSONDocumentBytes, parser: UnsafeMutablePointer<_Parser>)?,
                              _ isCancelled: () -> Bool) -> JSONValue? {
        switch node.storage {
        case .tree(let value):
            return value
        case .bytes(let document, let span):
            guard let parser, parser.document === document else { return document.parse(span) }
            parser.parser.pointee.position = span.start
            // The checked skim accepted these bytes when the node was made: the parser does too.
            return (try? parser.parser.pointee.parseValue(depth: 0)) ?? .null
        case .array(let nodes):
            var elements: [JSONValue] = []
            elements.reserveCapacity(nodes.count)
            for (index, element) in nodes.enumerated() {
                guard index & 63 != 0 || !isCancelled(), let built = build(element, parser, isCancelled) else { return nil }
                elements.append(built)
            }
            return .array(elements)
        case .object(let members):
            var values: [JSONValue] = []
            values.reserveCapacity(members.nodes.count)
            for (index, member) in members.nodes.enumerated() {
                guard index & 63 != 0 || !isCancelled(), let built = build(member, parser, isCancelled) else { return nil }
                values.append(built)
            }
            return .object(JSONObject(shape: members.shape, values: values))
        }
    }

    /// The lines ``JSONWriter/prettyString(_:)`` writes for the JSON at `span` (checked when it
    /// was read): one per value, and one more per non-empty container (its closing line). Every
    /// value but the first follows a comma or opens a non-empty container, so that is
    /// 1 + commas + 2 × non-empty containers, outside strings. Space between tokens, escapes in
    /// values and how a number is written do not change it, so nothing is parsed: `v` on a 30 MB
    /// list counts its 1.6 million lines in one pass over its bytes. Nil when an object repeats a
    /// key (its tree has one member where the bytes have two) or has a key with an escape (which
    /// may spell another key): the caller parses that value.
    func prettyLineCount(_ span: JSONSpan) -> Int? {
        bytes.withUnsafeBufferPointer { buffer -> Int? in
            guard let base = buffer.baseAddress else { return 1 }
            /// A container being read: where its keys start in `keys` (nil for an array), whether a
            /// key comes next, and a set of them once an object has many.
            struct Open {
                var firstKey: Int?
                var expectsKey = true
                var seen: Set<[UInt8]>?
            }
            var open: [Open] = []
            // The keys of every object being read, innermost last: one buffer, no allocation per object.
            var keys: [(start: Int, count: Int)] = []
            var lines = 1
            var position = span.start
            let end = span.end
            while position < end {
                switch base[position] {
                case UInt8(ascii: "\""):
                    // To the closing quote: a backslash and the byte it escapes are passed together.
                    let start = position + 1
                    var escaped = false
                    position = start
                    while position < end {
                        position += rewind_json_plain_run(base + position, end - position).plain
                        guard position < end, base[position] == UInt8(ascii: "\\") else { break }
                        escaped = true
                        position += 2
                    }
                    guard let top = open.indices.last, let firstKey = open[top].firstKey, open[top].expectsKey else { break }
                    guard !escaped else { return nil }
                    let key = (start: start, count: position - start)
                    if keys.count - firstKey < 32 {
                        for earlier in keys[firstKey...] where earlier.count == key.count
                            && memcmp(base + earlier.start, base + key.start, key.count) == 0 { return nil }
                    } else {
                        if open[top].seen == nil {
                            open[top].seen = Set(keys[firstKey...].map { Array(UnsafeBufferPointer(start: base + $0.start, count: $0.count)) })
                        }
                        guard open[top].seen!.insert(Array(UnsafeBufferPointer(start: base + key.start, count: key.count))).inserted else { return nil }
                    }
                    keys.append(key)
                    open[top].expectsKey = false
                case UInt8(ascii: ","):
                    lines += 1
                    if let top = open.indices.last, open[top].firstKey != nil { open[top].expectsKey = true }
                case UInt8(ascii: "["), UInt8(ascii: "{"):
                    open.append(Open(firstKey: base[position] == UInt8(ascii: "{") ? keys.count : nil))
                    var next = position + 1
                    while next < end, [0x20, 0x09, 0x0A, 0x0D].contains(base[next]) { next += 1 }
                    if next < end, base[next] != UInt8(ascii: "]") && base[next] != UInt8(ascii: "}") { lines += 2 }
                case UInt8(ascii: "]"), UInt8(ascii: "}"):
                    if let firstKey = open.removeLast().firstKey { keys.removeSubrange(firstKey...) }
                default:
                    break
                }
                position += 1
            }
            return lines
        }
    }

    /// The value in `range`, held lazily; nil when the checked skim does not accept it
    /// (the caller parses it) or the bytes are too long for a ``JSONSpan``.
    func lazyNode(_ range: Range<Int>, containersOver threshold: Int) -> JSONNode? {
        guard range.lowerBound >= 0, range.upperBound <= bytes.count, range.upperBound <= JSONSpan.limit else { return nil }
        return bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return nil }
            var reader = LazyNodeReader(document: self, base: base, end: range.upperBound, threshold: threshold)
            reader.position = range.lowerBound
            reader.skipSpace()
            guard let node = reader.node(depth: 0) else { return nil }
            reader.skipSpace()
            return reader.position == range.upperBound ? node : nil
        }
    }
}

/// Reads a document into lazily held nodes (``JSONDocumentBytes/lazyNode(_:containersOver:)``):
/// each value is delimited and checked by the checked skim, and a container over `threshold`
/// bytes is then walked member by member.
private struct LazyNodeReader {
    let document: JSONDocumentBytes
    let base: UnsafePointer<UInt8>
    let end: Int
    let threshold: Int
    var position = 0

    init(document: JSONDocumentBytes, base: UnsafePointer<UInt8>, end: Int, threshold: Int) {
        self.document = document
        self.base = base
        self.end = end
        self.threshold = threshold
    }

    mutating func skipSpace() {
        while position < end, base[position] == 0x20 || base[position] == 0x0A || base[position] == 0x0D || base[position] == 0x09 {
            position += 1
        }
    }

    /// Moves past `byte` when it is next.
    mutating func expect(_ byte: UInt8) -> Bool {
        guard position < end, base[position] == byte else { return false }
        position += 1
        return true
    }

    /// The value at `position` (no space before it), `depth` containers around it; nil when the skim does not accept it.
    ///
    /// A container is first only delimited (its brackets matched, its strings skipped), which
    /// is all it takes to tell a big one: that is walked member by member, each checked by the
    /// skim as it is read, so a huge state's bytes are checked once, where they end up as bytes.
    mutating func node(depth: Int) -> JSONNode? {
        let start = position
        if base[start] == UInt8(ascii: "[") || base[start] == UInt8(ascii: "{") {
            let extent = rewind_json_skip_unchecked(base, end, start)
            if extent >= 0 && extent - start > threshold {
                guard depth < Int(REWIND_JSON_SKIM_MAX_DEPTH) else { return nil }
                position = start + 1
                let container = base[start] == UInt8(ascii: "[") ? array(depth: depth) : object(depth: depth)
                // Invalid JSON may be delimited elsewhere than it is read: the parser says what is wrong.
                return position == extent ? container : nil
            }
        }
        var compact = false
        let valueEnd = rewind_json_skip_checked(base, end, start, Int32(depth), &compact)
        guard valueEnd >= 0 else { return parsedAlone(depth: depth) }
        position = valueEnd
        return JSONNode(storage: .bytes(document, JSONSpan(start: start, end: valueEnd, isCompact: compact)))
    }

    /// A small value the skim leaves to the parser (an integer of 19 digits or more, a long
    /// decimal), parsed here into a tree, so that one such number does not make a whole huge
    /// state a tree. Nil when it does not parse, or nests so deep that the parser reading the
    /// whole document might refuse it: the caller then parses the document, which says what is wrong.
    private mutating func parsedAlone(depth: Int) -> JSONNode? {
        let start = position
        let extent = rewind_json_skip_unchecked(base, end, start)
        guard extent > start, let value = try? JSONParser.parse(buffer: UnsafeBufferPointer(start: base + start, count: extent - start)),
              depth + value.nesting(atMost: Int(REWIND_JSON_SKIM_MAX_DEPTH)) <= Int(REWIND_JSON_SKIM_MAX_DEPTH) else { return nil }
        position = extent
        return JSONNode(value)
    }

    /// After an array's `[`: its elements' nodes.
    private mutating func array(depth: Int) -> JSONNode? {
        var nodes: [JSONNode] = []
        skipSpace()
        if expect(UInt8(ascii: "]")) { return JSONNode(storage: .array(nodes)) }
        while true {
            skipSpace()
            guard let element = node(depth: depth + 1) else { return nil }
            nodes.append(element)
            skipSpace()
            if expect(UInt8(ascii: "]")) { return JSONNode(storage: .array(nodes)) }
            guard expect(UInt8(ascii: ",")) else { return nil }
        }
    }

    /// After an object's `{`: its keys and its members' nodes, a repeated key at its first
    /// position with its last value (as the parser builds a ``JSONObject``).
    private mutating func object(depth: Int) -> JSONNode? {
        var keys: [String] = []
        var nodes: [JSONNode] = []
        skipSpace()
        if !expect(UInt8(ascii: "}")) {
            while true {
                skipSpace()
                guard let key = key(depth: depth) else { return nil }
                skipSpace()
                guard expect(UInt8(ascii: ":")) else { return nil }
                skipSpace()
                guard let member = node(depth: depth + 1) else { return nil }
                keys.append(key)
                nodes.append(member)
                skipSpace()
                if expect(UInt8(ascii: "}")) { break }
                guard expect(UInt8(ascii: ",")) else { return nil }
            }
        }
        if JSONObject.hasRepeatedKeys(keys) { (keys, nodes) = Self.lastValueAtFirstPosition(keys, nodes) }
        return JSONNode(storage: .object(JSONNode.NodeMembers(shape: JSONObject.Shape(uniqueKeys: keys), nodes: nodes)))
    }

    /// A member's key at `position` (its opening quote), as the parser reads it.
    private mutating func key(depth: Int) -> String? {
        let start = position
        guard start < end, base[start] == UInt8(ascii: "\"") else { return nil }
        let keyEnd = rewind_json_skip_checked(base, end, start, Int32(depth + 1), nil)
        guard keyEnd >= 0 else { return nil }
        position = keyEnd
        let quoted = UnsafeBufferPointer(start: base + start, count: keyEnd - start)
        if let plain = JSONSkimmer.plainText(quoted) { return String(decoding: plain, as: UTF8.self) }
        return (try? JSONParser.parse(buffer: quoted))?.stringValue
    }

    private static func lastValueAtFirstPosition(_ keys: [String], _ nodes: [JSONNode]) -> ([String], [JSONNode]) {
        var positions: [_ScalarKey: Int] = [:]
        var uniqueKeys: [String] = []
        var lastNodes: [JSONNode] = []
        for (key, node) in zip(keys, nodes) {
            if let position = positions[_ScalarKey(key)] {
                lastNodes[position] = node
            } else {
                positions[_ScalarKey(key)] = uniqueKeys.count
                uniqueKeys.append(key)
                lastNodes.append(node)
            }
        }
        return (uniqueKeys, lastNodes)
    }
}
