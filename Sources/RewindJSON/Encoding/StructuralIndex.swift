/// Where one value of a compact JSON document lies. A document's index is its
/// values in document order (pre-order), the root first: what the recorder
/// diffs by, skipping unchanged members and elements by comparing their bytes
/// (docs/JSON.md, "Diffing bytes").
package struct _IndexNode: Equatable {
    /// Offset of the member's key (its opening quote); -1 for array elements and the root.
    var keyStart: Int32
    /// Offset of the value's first byte.
    var start: Int32
    /// Offset just past the value's last byte.
    var end: Int32
    /// Index of the first node after this value's subtree: its next sibling, or
    /// the next sibling of an ancestor. A leaf's is its own index plus one.
    var next: Int32
}

/// A compact JSON document and its structural index, borrowed from their owner.
package struct _IndexedDocument {
    let bytes: UnsafeBufferPointer<UInt8>
    let nodes: UnsafeBufferPointer<_IndexNode>

    /// The bytes of the value at `node`.
    @inline(__always) func value(_ node: Int) -> UnsafeBufferPointer<UInt8> {
        let item = nodes[node]
        return UnsafeBufferPointer(rebasing: bytes[Int(item.start)..<Int(item.end)])
    }

    /// The bytes of the key of member `node`, quotes included.
    @inline(__always) func key(_ node: Int) -> UnsafeBufferPointer<UInt8> {
        let item = nodes[node]
        // The key ends with its closing quote, just before the ':' before the value.
        return UnsafeBufferPointer(rebasing: bytes[Int(item.keyStart)..<Int(item.start) - 1])
    }

    /// The indexes of the direct children of container `node`.
    func children(_ node: Int) -> [Int] {
        var result: [Int] = []
        var child = node + 1
        let end = Int(nodes[node].next)
        while child < end {
            result.append(child)
            child = Int(nodes[child].next)
        }
        return result
    }
}

/// Builds the structural index of compact JSON that Rewind itself wrote
/// (``JSONWriter`` output: no insignificant whitespace), for the documents
/// the streaming encoder does not index as it writes them: reflection dumps,
/// redacted states, and types that need the tree encoder.
package enum _StructuralScanner {
    /// Appends the index of `bytes` to the empty `nodes`; returns the deepest container nesting.
    package static func index(_ bytes: UnsafeBufferPointer<UInt8>, into nodes: inout _UnsafeStack<_IndexNode>) -> Int {
        var open = _UnsafeStack<Int32>()
        var deepest = 0
        var position = 0
        let count = bytes.count
        var keyStart: Int32 = -1
        value: while position < count {
            // A value starts at `position`.
            let node = Int32(nodes.count)
            nodes.push(_IndexNode(keyStart: keyStart, start: Int32(position), end: -1, next: node + 1))
            let first = bytes[position]
            if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
                open.push(node)
                deepest = max(deepest, open.count)
                position += 1
                if position < count, bytes[position] == UInt8(ascii: "}") || bytes[position] == UInt8(ascii: "]") {
                    // An empty container closes at once (handled below).
                } else if first == UInt8(ascii: "{") {
                    keyStart = Int32(position)
                    position = skipString(bytes, from: position) + 1  // past the ':'
                    continue value
                } else {
                    keyStart = -1
                    continue value
                }
            } else if first == UInt8(ascii: "\"") {
                position = skipString(bytes, from: position)
                nodes.address(Int(node)).pointee.end = Int32(position)
            } else {
                while position < count, !isDelimiter(bytes[position]) { position += 1 }
                nodes.address(Int(node)).pointee.end = Int32(position)
            }
            // After a value: the next member or element, or closing brackets.
            while !open.isEmpty, position < count {
                let byte = bytes[position]
                if byte == UInt8(ascii: ",") {
                    position += 1
                    let container = Int(open.unsafeTop.pointee)
                    if bytes[Int(nodes.address(container).pointee.start)] == UInt8(ascii: "{") {
                        keyStart = Int32(position)
                        position = skipString(bytes, from: position) + 1
                    } else {
                        keyStart = -1
                    }
                    continue value
                }
                // A closing bracket.
                let container = Int(open.pop())
                position += 1
                nodes.address(container).pointee.end = Int32(position)
                nodes.address(container).pointee.next = Int32(nodes.count)
            }
            break
        }
        return deepest
    }

    /// The deepest container nesting of compact JSON, without building an index.
    package static func deepestNesting(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var depth = 0, deepest = 0, position = 0
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "\""):
                position = skipString(bytes, from: position)
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                deepest = max(deepest, depth)
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
            default:
                break
            }
            position += 1
        }
        return deepest
    }

    /// The offset just past the string whose opening quote is at `start`.
    private static func skipString(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var position = start + 1
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") { return position + 1 }
            position += byte == UInt8(ascii: "\\") ? 2 : 1
        }
        return bytes.count
    }

    @inline(__always) private static func isDelimiter(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")
    }
}
