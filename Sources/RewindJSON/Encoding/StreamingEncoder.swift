import Foundation

/// Thrown inside ``_StreamingEncoder`` when a type uses containers in an order
/// a single forward pass cannot write (writing to a container after a sibling
/// was started, `superEncoder`, two kinds of container for one value). The
/// caller then encodes through ``_ValueEncoder``, which handles every pattern.
package struct _NeedsValueEncoder: Error {}

/// Encodes straight to UTF-8 bytes in one forward pass: no intermediate tree,
/// one growing buffer. Synthesized `Codable` conformances (and almost every
/// hand-written one) write each container front to back, which is exactly what
/// this supports; anything else throws ``_NeedsValueEncoder``.
///
/// The encoder is its own output buffer (a ``_ByteBuffer`` subclass), so a
/// container writes through the single reference it holds.
package final class _StreamingEncoder: _ByteBuffer, Encoder {
    // Unchecked: the encoder is confined to one call on one thread, and dynamic
    // exclusivity checks on every member written cost a measurable share of the time.
    package var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// An open object or array, innermost last.
    struct Frame {
        var id: Int
        var isObject: Bool
        var isEmpty = true
        /// When indexing: the node of the value this container belongs to, and
        /// of its latest member or element (-1: none yet).
        var owner: Int32 = -1
        var lastChild: Int32 = -1
        /// When reusing unchanged values: the node of this container's value in
        /// the previous document, and of the member or element matched last (-1: none).
        var previousOwner: Int32 = -1
        var previousChild: Int32 = -1
    }
    @exclusivity(unchecked) var frames = _UnsafeStack<Frame>()
    /// The innermost frame's id and emptiness, kept out of `frames` so writing
    /// a member touches no array.
    @exclusivity(unchecked) private var topID = -1
    @exclusivity(unchecked) private var topIsEmpty = true
    @exclusivity(unchecked) private var nextFrameID = 0
    /// Frames below this index belong to values that enclose the current one.
    @exclusivity(unchecked) private var valueBase = 0
    /// The container the current value opened (-1: none yet).
    @exclusivity(unchecked) private var valueContainer = -1
    @exclusivity(unchecked) private var valueContainerIsObject = false
    @exclusivity(unchecked) private var valueWroteSingle = false
    @exclusivity(unchecked) private var depth = 0
    /// Set by non-throwing requirements (`container(keyedBy:)`, `superEncoder`)
    /// that hit an unsupported pattern; checked as each value finishes.
    @exclusivity(unchecked) var needsValueEncoder = false {
        // No frame has id -2, so the next member written stops the pass at once,
        // without a separate check of this flag on every member.
        didSet { if needsValueEncoder { topID = -2 } }
    }

    /// The keys of the values being encoded, outermost first: `codingPath`
    /// kept as a stack that is only turned into an array when someone asks.
    @exclusivity(unchecked) private var pathKeys = _UnsafeStack<PathKey>()

    /// A coding path entry. A member's key is not copied into an existential
    /// for every value that might never be asked for its path: the entry
    /// points at the key, which its caller holds until the value is encoded.
    enum PathKey {
        case key(UnsafeRawPointer, any CodingKey.Type)
        /// A key of at most one byte (a `CodingKeys` enum), kept by value.
        case smallKey(UInt8, any CodingKey.Type)
        case index(Int)

        var codingKey: any CodingKey {
            switch self {
            case .key(let key, let type): Self.load(type, from: key)
            case .smallKey(let byte, let type): withUnsafeBytes(of: byte) { Self.load(type, from: $0.baseAddress!) }
            case .index(let index): _IndexKey(index)
            }
        }

        private static func load<Key: CodingKey>(_ type: Key.Type, from key: UnsafeRawPointer) -> any CodingKey {
            key.load(as: Key.self)
        }
    }

    package var codingPath: [any CodingKey] { pathKeys.elements.map(\.codingKey) }

    // MARK: Where dates are

    /// Whether to note where `Date`s are written (``datePaths``): the recorder asks once
    /// per session, for its header, so the inspector can show those numbers as dates.
    @exclusivity(unchecked) package var collectsDatePaths = false
    /// JSON Pointer patterns of the `Date`s written while `collectsDatePaths`, `*` for
    /// any array index or dictionary key: `/todos/*/created`.
    @exclusivity(unchecked) package var datePaths = Set<String>()

    private func noteDatePath(last: String) {
        func token(_ key: PathKey) -> String {
            switch key {
            case .index: return "*"
            case .key(_, let type), .smallKey(_, let type): return type == _CanonicalKey.self ? "*" : key.codingKey.stringValue
            }
        }
        var tokens: [String]
        // Inside a nested container (an enum case's values, `{"tick":{"_0":…}}`) the value path
        // lacks the container's key: the innermost one's own path, then the keys pushed since.
        if !nestedFramePaths.isEmpty, let nested = frames.elements.reversed().lazy.compactMap({ self.nestedFramePaths[$0.id] }).first {
            tokens = nested.path.map { key in type(of: key) == _CanonicalKey.self || key.intValue.map(String.init) == key.stringValue ? "*" : key.stringValue }
            tokens += pathKeys.elements.dropFirst(nested.valueKeys).map(token)
        } else {
            tokens = pathKeys.elements.map(token)
        }
        tokens.append(last)
        datePaths.insert(tokens.map { "/" + $0.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1") }.joined())
    }

    // MARK: Structural index

    /// Whether this document's structural index is recorded as it is written
    /// (``_IndexNode``): the recorder diffs states by it.
    @exclusivity(unchecked) package var indexing = false
    /// The index of the document written so far (when `indexing`).
    @exclusivity(unchecked) package var nodes = _UnsafeStack<_IndexNode>()
    /// The deepest container nesting written (when `indexing`).
    @exclusivity(unchecked) package var deepestNesting = 0

    /// The document written and its index, valid until the encoder is used again.
    package var indexedDocument: _IndexedDocument {
        _IndexedDocument(bytes: UnsafeBufferPointer(start: base, count: count), nodes: nodes.unsafeElements)
    }

    /// A member (after its key) or element (after its comma) starts at `count`.
    @inline(__always)
    func indexChild(keyStart: Int) {
        guard indexing else { return }
        let frame = frames.unsafeTop
        let start = Int32(truncatingIfNeeded: count)
        if frame.pointee.lastChild >= 0 {
            // The one before ends at the comma, just before this key or element.
            nodes.address(Int(frame.pointee.lastChild)).pointee.end = (keyStart >= 0 ? Int32(truncatingIfNeeded: keyStart) : start) - 1
        }
        let node = Int32(truncatingIfNeeded: nodes.count)
        frame.pointee.lastChild = node
        nodes.push(_IndexNode(keyStart: Int32(truncatingIfNeeded: keyStart), start: start, end: -1, next: node + 1))
        pendingNode = node
        pendingPrevious = frame.pointee.previousOwner >= 0 ? matchPrevious(in: frame, keyStart: keyStart) : -1
    }

    // MARK: Reusing unchanged values

    /// Whether this encoder keeps a copy of each composite value it encodes
    /// (``_ValueSnapshots``), so the next document, written by another encoder
    /// with ``reusingUnchangedValues(from:)``, can copy the bytes of values
    /// that have not changed instead of encoding them. Needs `indexing`.
    @exclusivity(unchecked) package var keepsValueCopies = false
    private let snapshots = _ValueSnapshots()

    /// The previous document and its copies, for the document being written.
    /// Borrowed, not retained (a retain per value encoded showed in profiles):
    /// the caller keeps the encoder that holds them unchanged until this document is done.
    struct ReuseSource {
        let nodes: UnsafeBufferPointer<_IndexNode>
        let bytes: UnsafePointer<UInt8>
        let deepestNesting: Int
        let snapshots: Unmanaged<_ValueSnapshots>
    }
    @exclusivity(unchecked) private var reuseSource: ReuseSource?
    /// The node the next composite value encodes to, and the node of the
    /// previous document's value in the same place (-1: none).
    @exclusivity(unchecked) private var pendingNode: Int32 = -1
    @exclusivity(unchecked) private var pendingPrevious: Int32 = -1
    /// The previous document's node of the value being encoded (its containers align with it).
    @exclusivity(unchecked) private var valuePrevious: Int32 = -1
    /// Class instances encoded so far: a value whose encoding reached one is never reused.
    @exclusivity(unchecked) private var classInstancesEncoded = 0
    @exclusivity(unchecked) private var valueTypes = _TypeSet()
    /// Values whose bytes were copied from the previous document, over this encoder's life (for tests).
    @exclusivity(unchecked) package private(set) var reusedValueCount = 0

    /// Makes the next document (from ``encodeTopLevel(_:)``) copy the bytes of
    /// each composite value whose type and bits are those of the value in the
    /// same place of `previous`'s document, rather than encoding it again.
    /// Both encoders must keep value copies. docs/JSON.md, "Reusing unchanged values".
    package func reusingUnchangedValues(from previous: _StreamingEncoder?) {
        guard let previous, previous !== self, !previous.snapshots.isEmpty else {
            reuseSource = nil
            return
        }
        reuseSource = ReuseSource(nodes: previous.nodes.unsafeElements, bytes: UnsafePointer(previous.base),
                                  deepestNesting: previous.deepestNesting, snapshots: .passUnretained(previous.snapshots))
    }

    /// The previous document's member or element in the place of the one just
    /// begun in `frame`: the next element, or the next member with the same key
    /// (looking a couple of members ahead, for keys a value left out).
    private func matchPrevious(in frame: UnsafeMutablePointer<Frame>, keyStart: Int) -> Int32 {
        guard let source = reuseSource else { return -1 }
        let previous = source.nodes
        let owner = Int(frame.pointee.previousOwner)
        let limit = Int(previous[owner].next)
        var candidate = frame.pointee.previousChild < 0 ? owner + 1 : Int(previous[Int(frame.pointee.previousChild)].next)
        if keyStart < 0 {
            guard candidate < limit else { return -1 }
            frame.pointee.previousChild = Int32(truncatingIfNeeded: candidate)
            return Int32(truncatingIfNeeded: candidate)
        }
        // The key, quotes included, ends just before the ':' before the value.
        let keyLength = count - 1 - keyStart
        for _ in 0..<3 {
            guard candidate < limit else { return -1 }
            let node = previous[candidate]
            if node.keyStart >= 0, Int(node.start) - 1 - Int(node.keyStart) == keyLength,
                memcmp(base + keyStart, source.bytes + Int(node.keyStart), keyLength) == 0
            {
                frame.pointee.previousChild = Int32(truncatingIfNeeded: candidate)
                return Int32(truncatingIfNeeded: candidate)
            }
            candidate = Int(node.next)
        }
        return -1
    }

    /// Copies the previous document's value at `previousNode` (bytes and index)
    /// as the value of `node`, the last node pushed.
    private func reuse(_ previousNode: Int, as node: Int) {
        guard let source = reuseSource else { return }
        let previous = source.nodes
        let old = previous[previousNode]
        let delta = Int32(truncatingIfNeeded: count) - old.start
        append(UnsafeBufferPointer(start: source.bytes + Int(old.start), count: Int(old.end - old.start)))
        let shift = Int32(truncatingIfNeeded: node - previousNode)
        nodes.address(node).pointee.end = Int32(truncatingIfNeeded: count)
        nodes.address(node).pointee.next = old.next + shift
        let first = nodes.count
        nodes.append(bitwise: UnsafeBufferPointer(rebasing: previous[(previousNode + 1)..<Int(old.next)]))
        for inner in first..<nodes.count {
            let copy = nodes.address(inner)
            if copy.pointee.keyStart >= 0 { copy.pointee.keyStart += delta }
            copy.pointee.start += delta
            copy.pointee.end += delta
            copy.pointee.next += shift
        }
        reusedValueCount += 1
        // The value sits as deep as it did there, so this bounds the nesting from above.
        deepestNesting = max(deepestNesting, source.deepestNesting)
    }

    @inline(__always)
    private func isValueType<T>(_ type: T.Type) -> Bool {
        let id = ObjectIdentifier(T.self)
        if valueTypes.contains(id) { return true }
        if T.self is AnyObject.Type { return false }
        valueTypes.insert(id)
        return true
    }

    /// Forgets this encoder's value copies (its document is being replaced).
    private func dropValueCopies() {
        if !snapshots.isEmpty { snapshots.removeAll() }
        reuseSource = nil
        (pendingNode, pendingPrevious, valuePrevious) = (-1, -1, -1)
    }

    // MARK: Values

    /// Writes one value: primitives and the types `JSONEncoder` treats specially
    /// inline, everything else through its `encode(to:)`.
    @inline(__always)
    func encodeValue<T: Encodable>(_ value: T) throws {
        if writeDirectly(value) { return }
        try encodeComposite(value)
    }

    /// A member or element: `key` joins the coding path while the value
    /// encodes. Taking the key's own type (not `(any CodingKey)?`) means no
    /// existential is made or copied for the primitives that need no path.
    @inline(__always)
    func encodeValue<T: Encodable, Key: CodingKey>(_ value: T, forKey key: Key) throws {
        if collectsDatePaths, T.self == Date.self { noteDatePath(last: Key.self == _CanonicalKey.self ? "*" : key.stringValue) }
        if writeDirectly(value) { return }
        if MemoryLayout<Key>.size <= 1 {
            let byte = MemoryLayout<Key>.size == 1 ? unsafeBitCast(key, to: UInt8.self) : 0
            pathKeys.push(.smallKey(byte, Key.self))
            try encodeComposite(value)
            pathKeys.pop()
            return
        }
        try withUnsafePointer(to: key) { key in
            pathKeys.push(.key(UnsafeRawPointer(key), Key.self))
            try encodeComposite(value)
            pathKeys.pop()
        }
    }

    /// An array element: its index joins the coding path while it encodes.
    @inline(__always)
    func encodeElement<T: Encodable>(_ value: T, index: Int) throws {
        try withUnsafePointer(to: value) { try encodeElement(inPlace: $0, index: index) }
    }

    /// Writes primitives and the types `JSONEncoder` treats specially; false for anything else.
    @inline(__always)
    private func writeDirectly<T: Encodable>(_ value: T) -> Bool {
        if T.self == String.self { JSONWriter.writeString(unsafeBitCast(value, to: String.self), to: self); return true }
        if T.self == Int.self { JSONWriter.writeInt64(Int64(unsafeBitCast(value, to: Int.self)), to: self); return true }
        if T.self == Double.self { JSONWriter.writeDouble(unsafeBitCast(value, to: Double.self), to: self); return true }
        if T.self == Bool.self { JSONWriter.writeBool(unsafeBitCast(value, to: Bool.self), to: self); return true }
        // The checks below cost a dozen metadata fetches: a type that passed them all once goes straight on.
        let type = ObjectIdentifier(T.self)
        if encodedThroughCodable.contains(type) { return false }
        if let special = _SpecialEncodable.value(of: value) {
            JSONWriter.write(special, to: self)
            return true
        }
        // Arrays of primitives, written as `Array.encode(to:)` would through an
        // unkeyed container, without a container and a generic call per element.
        if T.self == [String].self { writeArray(unsafeBitCast(value, to: [String].self), JSONWriter.writeString); return true }
        if T.self == [Int].self { writeArray(unsafeBitCast(value, to: [Int].self)) { JSONWriter.writeInt64(Int64($0), to: $1) }; return true }
        if T.self == [Double].self { writeArray(unsafeBitCast(value, to: [Double].self), JSONWriter.writeDouble); return true }
        if T.self == [Bool].self { writeArray(unsafeBitCast(value, to: [Bool].self), JSONWriter.writeBool); return true }
        if value is any _CanonicallyOrdered, !canonicallyOrdered.contains(type) { canonicallyOrdered.append(type) }
        encodedThroughCodable.insert(type)
        return false
    }

    /// Dictionary and set types met so far: written in canonical order, not their own hash order.
    /// Exact (not a lossy cache like `encodedThroughCodable`) and short: a state has a few such types.
    @exclusivity(unchecked) private var canonicallyOrdered: [ObjectIdentifier] = []

    /// Types `writeDirectly` found it does not write itself.
    @exclusivity(unchecked) private var encodedThroughCodable = _TypeSet()

    @inline(__always)
    private func writeArray<Element>(_ elements: [Element], _ write: (Element, _ByteBuffer) -> Void) {
        let owner = nodes.count - 1
        append(UInt8(ascii: "["))
        var first = true
        for element in elements {
            if !first { append(UInt8(ascii: ",")) }
            first = false
            let start = Int32(truncatingIfNeeded: count)
            write(element, self)
            if indexing {
                let node = Int32(truncatingIfNeeded: nodes.count)
                nodes.push(_IndexNode(keyStart: -1, start: start, end: Int32(truncatingIfNeeded: count), next: node + 1))
            }
        }
        append(UInt8(ascii: "]"))
        if indexing {
            deepestNesting = max(deepestNesting, frames.count + 1)
            nodes.address(owner).pointee.end = Int32(truncatingIfNeeded: count)
            nodes.address(owner).pointee.next = Int32(truncatingIfNeeded: nodes.count)
        }
    }

    private func encodeComposite<T: Encodable>(_ value: T) throws {
        try withUnsafePointer(to: value) { try encodeComposite(at: $0) }
    }

    /// An array element read where it lies in the array's buffer (``_ElementsInPlace``):
    /// an unchanged one is found without copying it out.
    @inline(__always)
    func encodeElement<T: Encodable>(inPlace element: UnsafePointer<T>, index: Int) throws {
        if collectsDatePaths, T.self == Date.self { noteDatePath(last: "*") }
        if writeDirectly(element.pointee) { return }
        pathKeys.push(.index(index))
        try encodeComposite(at: element)
        pathKeys.pop()
    }

    /// Array types met so far whose elements are read in place, and other types.
    @exclusivity(unchecked) private var arraysInPlace = _TypeSet()
    @exclusivity(unchecked) private var notArrays = _TypeSet()

    @inline(__always)
    private func readsElementsInPlace<T>(_ type: T.Type) -> Bool {
        let id = ObjectIdentifier(T.self)
        if notArrays.contains(id) { return false }
        if arraysInPlace.contains(id) { return true }
        if T.self is any _ElementsInPlace.Type {
            arraysInPlace.insert(id)
            return true
        }
        notArrays.insert(id)
        return false
    }

    private func encodeComposite<T: Encodable>(at address: UnsafePointer<T>) throws {
        // The node this value encodes to, when it is a member, an element or the root (not a
        // value another one wraps), and its counterpart in the previous document.
        let (node, previousNode) = (pendingNode, pendingPrevious)
        (pendingNode, pendingPrevious) = (-1, -1)
        var copy = -1
        let classesBefore = classInstancesEncoded
        if keepsValueCopies {
            if !isValueType(T.self) {
                classInstancesEncoded += 1
            } else if node >= 0 {
                let kept = snapshots.keep(address, node: node, comparingWith: reuseSource?.snapshots, at: previousNode)
                if kept.unchanged {
                    reuse(Int(previousNode), as: Int(node))
                    return
                }
                copy = kept.index
            }
        }
        let saved = (valueBase, valueContainer, valueContainerIsObject, valueWroteSingle, valuePrevious)
        if node >= 0 { valuePrevious = previousNode }
        depth += 1
        guard depth <= JSONEncoding.maximumDepth else { throw JSONEncoding.tooDeep(address.pointee, codingPath) }
        valueBase = frames.count
        valueContainer = -1
        valueWroteSingle = false
        if !canonicallyOrdered.isEmpty, canonicallyOrdered.contains(ObjectIdentifier(T.self)), let ordered = address.pointee as? any _CanonicallyOrdered {
            try ordered.encodeCanonically(to: self)
        } else if keepsValueCopies, readsElementsInPlace(T.self), let array = address.pointee as? any _ElementsInPlace {
            // What `Array.encode(to:)` does, element by element, without copying each out.
            try array.encodeElementsInPlace(to: self)
        } else {
            try address.pointee.encode(to: self)
        }
        if needsValueEncoder { throw _NeedsValueEncoder() }
        closeFrames(downTo: valueBase)
        // A type that encodes nothing becomes an empty object, as with JSONEncoder.
        if valueContainer < 0 && !valueWroteSingle { append("{}") }
        depth -= 1
        (valueBase, valueContainer, valueContainerIsObject, valueWroteSingle, valuePrevious) = saved
        if copy >= 0, classInstancesEncoded != classesBefore { snapshots.markNotReusable(copy) }
    }

    /// Encodes a whole document into the (empty) buffer.
    package func encodeTopLevel<T: Encodable>(_ value: T) throws {
        if indexing {
            nodes.removeAll()
            deepestNesting = 0
            nodes.push(_IndexNode(keyStart: -1, start: 0, end: -1, next: 1))
        }
        let keepsCopies = keepsValueCopies && indexing && !collectsDatePaths
        if keepsCopies {
            snapshots.removeAll()
            reuseSource?.snapshots._withUnsafeGuaranteedRef { $0.rewind() }
            (pendingNode, pendingPrevious) = (0, reuseSource == nil ? -1 : 0)
        }
        defer { reuseSource = nil }
        let wasKeeping = keepsValueCopies
        keepsValueCopies = keepsCopies
        defer { keepsValueCopies = wasKeeping }
        try encodeValue(value)
        if needsValueEncoder { throw _NeedsValueEncoder() }
        if indexing { nodes.address(0).pointee.end = Int32(truncatingIfNeeded: count) }
    }

    /// Makes the encoder as new after a document that failed part-way (it may
    /// have left containers open), keeping its cached containers and buffer.
    package func resetAfterFailure() {
        while !frames.isEmpty { frames.pop() }
        while !pathKeys.isEmpty { pathKeys.pop() }
        nodes.removeAll()
        (topID, topIsEmpty, nextFrameID, valueBase, valueContainer, valueContainerIsObject, valueWroteSingle, depth) =
            (-1, true, 0, 0, -1, false, false, 0)
        needsValueEncoder = false
        nestedFramePaths.removeAll(keepingCapacity: true)
        dropValueCopies()
        removeAll(keepingCapacityUpTo: capacity)
    }

    /// Empties an encoder that finished a document without error (a failed
    /// one may have frames left open) for the next one, keeping the cached
    /// containers and up to `capacity` bytes of buffer.
    package func prepareForNextDocument(keepingCapacityUpTo capacity: Int) {
        assert(frames.isEmpty && pathKeys.isEmpty && depth == 0 && !needsValueEncoder, "reusing an encoder mid-document")
        removeAll(keepingCapacityUpTo: capacity)
        if !nestedFramePaths.isEmpty { nestedFramePaths.removeAll(keepingCapacity: true) }
        dropValueCopies()
    }

    /// Drops the cached containers. They refer back to the encoder, which is
    /// never freed while they are cached.
    func retire() {
        keyedContainers.removeAll()
    }

    // MARK: Containers

    private func openFrame(isObject: Bool, previousOwner: Int32) -> Int {
        append(isObject ? UInt8(ascii: "{") : UInt8(ascii: "["))
        nextFrameID += 1
        if !frames.isEmpty { frames.unsafeTop.pointee.isEmpty = topIsEmpty }
        var frame = Frame(id: nextFrameID, isObject: isObject, previousOwner: previousOwner)
        if indexing {
            // The container belongs to the value whose node was made last (its member, element or the root).
            frame.owner = Int32(truncatingIfNeeded: nodes.count - 1)
            deepestNesting = max(deepestNesting, frames.count + 1)
        }
        frames.push(frame)
        topID = nextFrameID
        topIsEmpty = true
        return nextFrameID
    }

    private func closeFrames(downTo count: Int) {
        guard frames.count > count else { return }
        while frames.count > count {
            let frame = frames.pop()
            if indexing {
                if frame.lastChild >= 0 { nodes.address(Int(frame.lastChild)).pointee.end = Int32(truncatingIfNeeded: self.count) }
                append(frame.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
                let owner = nodes.address(Int(frame.owner))
                owner.pointee.end = Int32(truncatingIfNeeded: self.count)
                owner.pointee.next = Int32(truncatingIfNeeded: nodes.count)
            } else {
                append(frame.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
            }
        }
        if frames.isEmpty {
            topID = -1
            topIsEmpty = true
        } else {
            let top = frames.unsafeTop.pointee
            topID = top.id
            topIsEmpty = top.isEmpty
        }
    }

    /// Prepares to write a member of container `id`: closes finished nested
    /// containers. Returns whether a comma must separate it from the one before
    /// (the caller writes it, for keys together with the key).
    @inline(__always)
    func beginElement(of id: Int) throws -> Bool {
        if topID != id { try resume(id) }
        if topIsEmpty {
            topIsEmpty = false
            return false
        }
        return true
    }

    private func resume(_ id: Int) throws {
        guard !needsValueEncoder, let index = frames.lastIndex(where: { $0.id == id }), index >= valueBase else { throw _NeedsValueEncoder() }
        closeFrames(downTo: index + 1)
    }

    func valueContainer(isObject: Bool) -> Int {
        if valueContainer >= 0 {
            // Asking twice (e.g. a subclass after `super.encode(to:)`) shares the container.
            if valueContainerIsObject != isObject || frames.lastIndex(where: { $0.id == valueContainer }) == nil { needsValueEncoder = true }
            return valueContainer
        }
        if valueWroteSingle { needsValueEncoder = true }
        valueContainer = openFrame(isObject: isObject, previousOwner: valuePrevious)
        valueContainerIsObject = isObject
        return valueContainer
    }

    /// Coding paths of nested containers (`nestedContainer(keyedBy:forKey:)`),
    /// which are one key deeper than the value that opened them; rare, so kept aside.
    /// Each open nested container's coding path, and how many value keys (`pathKeys`) there were when it opened.
    @exclusivity(unchecked) private var nestedFramePaths: [Int: (path: [any CodingKey], valueKeys: Int)] = [:]

    func nestedFrame(isObject: Bool, codingPath: [any CodingKey]) -> Int {
        // The nested container is the value of the member or element just begun.
        let id = openFrame(isObject: isObject, previousOwner: pendingPrevious)
        (pendingNode, pendingPrevious) = (-1, -1)
        nestedFramePaths[id] = (codingPath, pathKeys.count)
        return id
    }

    /// A container's coding path: a value's own container shares the path of
    /// the value, which stays current while the value encodes.
    func codingPath(ofFrame id: Int) -> [any CodingKey] { nestedFramePaths[id]?.path ?? codingPath }

    func beginSingleValue() throws {
        if valueContainer >= 0 || valueWroteSingle { throw _NeedsValueEncoder() }
        valueWroteSingle = true
    }

    @exclusivity(unchecked) private var keyedContainers = _KeyedContainerCache()

    package func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        _ = valueContainer(isObject: true)
        return keyedContainers.container(for: Key.self, depth: depth) {
            KeyedEncodingContainer(_StreamingKeyedContainer<Key>(encoder: self, valueDepth: depth))
        }
    }

    /// The frame the value at `valueDepth` writes its members to; -1 (no
    /// frame, which stops the pass) when the encoder is at another depth. A
    /// container kept past its value's `encode(to:)` and used at the same
    /// depth writes into the value there (docs/JSON.md lists this difference).
    @inline(__always)
    func valueContainerID(atDepth valueDepth: Int) -> Int {
        valueDepth == depth ? valueContainer : -1
    }

    package func unkeyedContainer() -> any UnkeyedEncodingContainer {
        _StreamingUnkeyedContainer(encoder: self, id: valueContainer(isObject: false))
    }

    package func singleValueContainer() -> any SingleValueEncodingContainer {
        _StreamingSingleValueContainer(encoder: self)
    }

    func superEncoder(marking codingPath: [any CodingKey]) -> any Encoder {
        needsValueEncoder = true
        return self
    }
}

extension _StreamingEncoder {
    /// Marks the pass as unusable from a non-throwing requirement; returns an id no frame has.
    func fail() -> Int {
        needsValueEncoder = true
        return -1
    }
}
