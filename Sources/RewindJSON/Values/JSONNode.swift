/// A JSON value as the inspector holds a state: navigated a node at a time, so a
/// huge state need not be in memory as a ``JSONValue`` tree (2.8× its JSON) to be
/// shown, searched or diffed.
///
/// Every reader of the selected state (the tree, search, the value viewer, the diff,
/// `y`) goes through this API and never asks which form a node is in; ``value``
/// gives the node whole, as a tree, when a reader needs one (a small node, or the
/// subtree at a changed path). ``unparsedBytes`` says what that costs.
///
/// ```swift
/// let node = JSONNode(["count": 1, "todos": ["buy milk"]])
/// node.child("todos")?.count            // 1
/// node[pointer: JSONPointer(tokens: ["todos", "0"])]?.value   // .string("buy milk")
/// ```
///
/// A huge state read from a log is held lazily (``reading(_:_:containersOver:)``): the
/// JSON it was read from stays as bytes, its big containers are their children's nodes,
/// and everything else is a range of those bytes parsed when read.
package struct JSONNode: Sendable {
    /// How the node is held. Readers never switch on it: the API below is the same for every form.
    enum Storage: Sendable {
        /// In memory, whole.
        case tree(JSONValue)
        /// A value's JSON in `document`, parsed when read.
        case bytes(JSONDocumentBytes, JSONSpan)
        /// A big array, as its elements' nodes.
        case array([JSONNode])
        /// A big object, as its members' nodes.
        case object(NodeMembers)
    }

    /// A big object's keys (shared copy-on-write, as ``JSONObject``'s are) and its members' nodes, in the keys' order.
    struct NodeMembers: Sendable {
        var shape: JSONObject.Shape
        var nodes: [JSONNode]

        /// The shape, copied first if another object shares it.
        mutating func uniqueShape() -> JSONObject.Shape {
            if !isKnownUniquelyReferenced(&shape) { shape = JSONObject.Shape(uniqueKeys: shape.keys) }
            return shape
        }
    }

    var storage: Storage

    /// A value in memory.
    package init(_ value: JSONValue) { storage = .tree(value) }

    init(storage: Storage) { self.storage = storage }

    /// What kind of value the node is.
    package enum Kind: Sendable, Equatable {
        case null, bool, number, string, array, object
    }

    package var kind: Kind {
        switch storage {
        case .tree(let value):
            switch value {
            case .null: .null
            case .bool: .bool
            case .integer, .double, .number: .number
            case .string: .string
            case .array: .array
            case .object: .object
            }
        case .bytes(let document, let span):
            switch document.bytes[span.start] {
            case UInt8(ascii: "{"): .object
            case UInt8(ascii: "["): .array
            case UInt8(ascii: "\""): .string
            case UInt8(ascii: "t"), UInt8(ascii: "f"): .bool
            case UInt8(ascii: "n"): .null
            default: .number
            }
        case .array: .array
        case .object: .object
        }
    }

    /// True for an object or an array, empty or not.
    package var isContainer: Bool { kind == .object || kind == .array }

    /// True for a non-empty object or array: what opens in the state tree.
    package var opens: Bool { isContainer && count > 0 }

    /// An object's members or an array's elements; 0 for anything else.
    package var count: Int {
        switch storage {
        case .tree(.object(let object)): object.count
        case .tree(.array(let elements)): elements.count
        case .tree: 0
        case .bytes: isContainer ? JSONNode(parsedValue).count : 0
        case .array(let nodes): nodes.count
        case .object(let members): members.nodes.count
        }
    }

    /// An object's keys, in document order; empty for anything else.
    package var keys: [String] {
        switch storage {
        case .tree(.object(let object)): object.keys
        case .bytes where kind == .object: JSONNode(parsedValue).keys
        case .object(let members): members.shape.keys
        case .tree, .bytes, .array: []
        }
    }

    /// The `offset`th member of an object (document order) or element of an array;
    /// nil when out of range or not a container.
    package func child(at offset: Int) -> JSONNode? {
        switch storage {
        case .tree(.object(let object)):
            return object.values.indices.contains(offset) ? JSONNode(object.values[offset]) : nil
        case .tree(.array(let elements)):
            return elements.indices.contains(offset) ? JSONNode(elements[offset]) : nil
        case .tree:
            return nil
        case .bytes:
            return isContainer ? JSONNode(parsedValue).child(at: offset) : nil
        case .array(let nodes):
            return nodes.indices.contains(offset) ? nodes[offset] : nil
        case .object(let members):
            return members.nodes.indices.contains(offset) ? members.nodes[offset] : nil
        }
    }

    /// The position of an object's member `key` (its last, when repeated, as a look-up finds it).
    package func offset(ofKey key: String) -> Int? {
        switch storage {
        case .tree(.object(let object)): object.index(of: key)
        case .bytes where kind == .object: JSONNode(parsedValue).offset(ofKey: key)
        case .object(let members): members.shape.index(of: key)
        case .tree, .bytes, .array: nil
        }
    }

    /// The member `token` of an object, or the element at the index `token` of an
    /// array (as a JSON Pointer reads it: digits, no leading zero); nil when there is none.
    package func child(_ token: String) -> JSONNode? {
        if case .bytes = storage, isContainer { return JSONNode(parsedValue).child(token) }
        switch kind {
        case .object: return offset(ofKey: token).flatMap { child(at: $0) }
        case .array: return JSONPointer.arrayIndex(token).flatMap { child(at: $0) }
        default: return nil
        }
    }

    /// The node at `pointer`, or nil when the path does not exist.
    package subscript(pointer pointer: JSONPointer) -> JSONNode? {
        var node = self
        for token in pointer.tokens {
            guard let next = node.child(token) else { return nil }
            node = next
        }
        return node
    }

    /// Calls `body` with each member's key (nil for an array's elements) and node,
    /// in document order, until it returns false.
    package func forEachChild(_ body: (_ key: String?, _ child: JSONNode) -> Bool) {
        switch storage {
        case .tree(.object(let object)):
            for (key, value) in object.members where !body(key, JSONNode(value)) { return }
        case .tree(.array(let elements)):
            for element in elements where !body(nil, JSONNode(element)) { return }
        case .tree:
            return
        case .bytes:
            if isContainer { JSONNode(parsedValue).forEachChild(body) }
        case .array(let nodes):
            for node in nodes where !body(nil, node) { return }
        case .object(let members):
            for (key, node) in zip(members.shape.keys, members.nodes) where !body(key, node) { return }
        }
    }

    /// The value whole, as a tree. A node still held as bytes is parsed, all of it:
    /// see ``unparsedBytes`` first when the node may be huge.
    package var value: JSONValue {
        switch storage {
        case .tree(let value): value
        case .bytes: parsedValue
        // Never nil: nothing cancels it.
        case .array, .object: JSONDocumentBytes.tree(of: self)!
        }
    }

    /// ``value``, unless `isCancelled` says so first: a huge node held as its children's nodes
    /// looks at it every 64 children as it is parsed (the inspector's `e`, which Esc stops).
    package func value(unlessCancelled isCancelled: () -> Bool) -> JSONValue? {
        switch storage {
        case .tree(let value): value
        case .bytes: parsedValue
        case .array, .object: JSONDocumentBytes.tree(of: self, unlessCancelled: isCancelled)
        }
    }

    /// A scalar's value (cheap); nil for an object or array.
    package var scalarValue: JSONValue? {
        // Not `isContainer ? nil : value`: there `nil` is read as JSON's null (`JSONValue` is nil-literal expressible).
        if isContainer { return nil }
        return value
    }

    /// The lines ``JSONWriter/prettyString(_:)`` writes for the node: 1 for a scalar or an
    /// empty container, else its opening and closing lines and its children's lines.
    /// What the value viewer scrolls through, counted without parsing a node held as bytes.
    package var prettyLineCount: Int {
        switch storage {
        case .tree(let value): Self.prettyLineCount(of: value)
        case .bytes(let document, let span):
            document.prettyLineCount(span) ?? Self.prettyLineCount(of: parsedValue)
        case .array(let nodes): nodes.isEmpty ? 1 : nodes.reduce(2) { $0 + $1.prettyLineCount }
        case .object(let members): members.nodes.isEmpty ? 1 : members.nodes.reduce(2) { $0 + $1.prettyLineCount }
        }
    }

    private static func prettyLineCount(of value: JSONValue) -> Int {
        switch value {
        case .array(let elements) where !elements.isEmpty: elements.reduce(2) { $0 + prettyLineCount(of: $1) }
        case .object(let object) where !object.isEmpty: object.values.reduce(2) { $0 + prettyLineCount(of: $1) }
        default: 1
        }
    }

    /// The length of the node's compact JSON (``JSONWriter/compact(_:)``): the state's size
    /// the sparkline draws. A node held as bytes is measured by them, without parsing.
    package var compactByteCount: Int {
        switch storage {
        case .tree(let value): JSONWriter.compact(value).count
        case .bytes(_, let span): span.isCompact ? span.count : JSONWriter.compact(parsedValue).count
        case .array(let nodes):
            // `[`, the elements with a comma between each two, `]`.
            nodes.reduce(1 + max(1, nodes.count)) { $0 + $1.compactByteCount }
        case .object(let members):
            // `{`, the members (`"key":value`) with a comma between each two, `}`.
            zip(members.shape.keys, members.nodes).reduce(1 + max(1, members.nodes.count)) { total, member in
                total + JSONWriter.compact(.string(member.0)).count + 1 + member.1.compactByteCount
            }
        }
    }

    /// About how many bytes of JSON reading ``value`` parses: 0 when the node is in memory.
    package var unparsedBytes: Int {
        switch storage {
        case .tree: 0
        case .bytes(_, let span): span.count
        case .array(let nodes): nodes.reduce(0) { $0 + $1.unparsedBytes }
        case .object(let members): members.nodes.reduce(0) { $0 + $1.unparsedBytes }
        }
    }

    /// A node held as bytes, parsed. The checked skim vouched for them when the node was
    /// made, so the parser accepts them; `null` stands in should it ever not.
    private var parsedValue: JSONValue {
        guard case .bytes(let document, let span) = storage else { return value }
        return document.parse(span)
    }
}

extension JSONNode: Equatable {
    /// JSON equality, as ``JSONValue``'s. Two nodes over the same bytes are equal without parsing them.
    package static func == (lhs: JSONNode, rhs: JSONNode) -> Bool {
        switch (lhs.storage, rhs.storage) {
        case (.tree(let left), .tree(let right)):
            return left == right
        case (.bytes(let leftDocument, let leftSpan), .bytes(let rightDocument, let rightSpan))
            where leftDocument === rightDocument && leftSpan.start == rightSpan.start && leftSpan.count == rightSpan.count:
            return true
        default:
            break
        }
        // A big container on either side: compared child by child, so neither is parsed whole.
        guard lhs.isBigContainer || rhs.isBigContainer else { return lhs.value == rhs.value }
        guard lhs.kind == rhs.kind, lhs.count == rhs.count else { return false }
        if lhs.kind == .array {
            for offset in 0..<lhs.count where lhs.child(at: offset)! != rhs.child(at: offset)! { return false }
            return true
        }
        var equal = true
        lhs.forEachChild { key, child in
            guard let other = rhs.child(key!), other == child else {
                equal = false
                return false
            }
            return true
        }
        return equal
    }
}
