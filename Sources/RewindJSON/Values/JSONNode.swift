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
package struct JSONNode: Sendable {
    /// How the node is held. Readers never switch on it: the API below is the same for every form.
    enum Storage: Sendable {
        /// In memory, whole.
        case tree(JSONValue)
    }

    var storage: Storage

    /// A value in memory.
    package init(_ value: JSONValue) { storage = .tree(value) }

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
        }
    }

    /// An object's keys, in document order; empty for anything else.
    package var keys: [String] {
        if case .tree(.object(let object)) = storage { return object.keys }
        return []
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
        }
    }

    /// The position of an object's member `key` (its last, when repeated, as a look-up finds it).
    package func offset(ofKey key: String) -> Int? {
        if case .tree(.object(let object)) = storage { return object.index(of: key) }
        return nil
    }

    /// The member `token` of an object, or the element at the index `token` of an
    /// array (as a JSON Pointer reads it: digits, no leading zero); nil when there is none.
    package func child(_ token: String) -> JSONNode? {
        switch kind {
        case .object: offset(ofKey: token).flatMap { child(at: $0) }
        case .array: JSONPointer.arrayIndex(token).flatMap { child(at: $0) }
        default: nil
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
        }
    }

    /// The value whole, as a tree. A node still held as bytes is parsed, all of it:
    /// see ``unparsedBytes`` first when the node may be huge.
    package var value: JSONValue {
        switch storage {
        case .tree(let value): value
        }
    }

    /// A scalar's value (cheap); nil for an object or array.
    package var scalarValue: JSONValue? { isContainer ? nil : value }

    /// The lines ``JSONWriter/prettyString(_:)`` writes for the node: 1 for a scalar or an
    /// empty container, else its opening and closing lines and its children's lines.
    /// What the value viewer scrolls through, counted without parsing a node held as bytes.
    package var prettyLineCount: Int {
        switch storage {
        case .tree(let value): Self.prettyLineCount(of: value)
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
        }
    }

    /// About how many bytes of JSON reading ``value`` parses: 0 when the node is in memory.
    package var unparsedBytes: Int {
        switch storage {
        case .tree: 0
        }
    }
}

extension JSONNode: Equatable {
    /// JSON equality, as ``JSONValue``'s.
    package static func == (lhs: JSONNode, rhs: JSONNode) -> Bool { lhs.value == rhs.value }
}
