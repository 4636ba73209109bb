import Foundation

/// The RFC 6902 patch between two indexed encodings of a state, written
/// straight as JSON bytes: what the recorder stores for each entry.
///
/// It compares bytes, not trees. A member or element whose bytes are equal
/// in both versions is skipped with one `memcmp`; only subtrees whose bytes
/// differ are descended into, and a changed value is copied into the patch as
/// the bytes it already has. Objects are matched by key; arrays are aligned as
/// ``JSONDiff`` aligns them (by identity member when every changed element has
/// one, else by whole value; moves, inserts and removes), with elements
/// compared and hashed as byte ranges. Sound because the encoder is canonical:
/// equal values always have equal bytes (docs/JSON.md, "Canonical encoding").
package struct _ByteDiff {
    let old: _IndexedDocument
    let new: _IndexedDocument
    let options: JSONDiffOptions

    /// The patch as JSON text, `[]` when nothing changed.
    package private(set) var patch: [UInt8] = [UInt8(ascii: "[")]
    private(set) var operationCount = 0
    /// Where each operation's `path` is in `patch` (the pointer's JSON string content, without quotes).
    private(set) var pathRanges: [Range<Int>] = []
    /// The current JSON Pointer, as JSON string content.
    private var path: [UInt8] = []

    /// Diffs two whole documents.
    package static func patch(from old: _IndexedDocument, to new: _IndexedDocument, options: JSONDiffOptions = JSONDiffOptions()) -> _ByteDiff {
        var diff = _ByteDiff(old: old, new: new, options: options)
        diff.path.reserveCapacity(128)
        diff.patch.reserveCapacity(256)
        diff.diffValue(0, 0)
        diff.patch.append(UInt8(ascii: "]"))
        return diff
    }

    private init(old: _IndexedDocument, new: _IndexedDocument, options: JSONDiffOptions) {
        self.old = old
        self.new = new
        self.options = options
    }

    /// The operations' paths as JSON string contents, in order.
    package func paths() -> [ArraySlice<UInt8>] { pathRanges.map { patch[$0] } }

    // MARK: Values

    fileprivate mutating func diffValue(_ i: Int, _ j: Int) {
        let a = old.value(i), b = new.value(j)
        if Self.equal(a, b) { return }
        if a[0] == UInt8(ascii: "{") && b[0] == UInt8(ascii: "{") {
            diffObject(i, j)
        } else if a[0] == UInt8(ascii: "[") && b[0] == UInt8(ascii: "[") {
            diffArray(i, j)
        } else {
            operation("replace", value: b)
        }
    }

    private mutating func diffObject(_ i: Int, _ j: Int) {
        // Members almost always come in the same order: walk both while keys agree.
        var (x, y) = (i + 1, j + 1)
        let (oldEnd, newEnd) = (Int(old.nodes[i].next), Int(new.nodes[j].next))
        while x < oldEnd && y < newEnd && Self.equal(old.key(x), new.key(y)) {
            if !Self.equal(old.value(x), new.value(y)) { withMember(new.key(y)) { $0.diffValue(x, y) } }
            (x, y) = (Int(old.nodes[x].next), Int(new.nodes[y].next))
        }
        guard x < oldEnd || y < newEnd else { return }
        let a = old.children(i).drop { $0 < x }, b = new.children(j).drop { $0 < y }
        var oldByKey: [_ByteSliceKey: Int] = [:]
        for child in a { oldByKey[_ByteSliceKey(old.key(child))] = child }
        var newKeys = Set<_ByteSliceKey>()
        for child in b { newKeys.insert(_ByteSliceKey(new.key(child))) }
        for child in a where !newKeys.contains(_ByteSliceKey(old.key(child))) {
            withMember(old.key(child)) { $0.operation("remove", value: nil) }
        }
        for child in b {
            let key = new.key(child)
            if let previous = oldByKey[_ByteSliceKey(key)] {
                withMember(key) { $0.diffValue(previous, child) }
            } else {
                withMember(key) { $0.operation("add", value: $0.new.value(child)) }
            }
        }
    }

    private mutating func diffArray(_ i: Int, _ j: Int) {
        if diffInPlace(i, j) { return }
        let a = old.children(i), b = new.children(j)
        // Equal elements at both ends are skipped by comparing bytes, so the
        // alignment (and any hashing) sees only the changed middle.
        var prefix = 0
        while prefix < a.count && prefix < b.count && Self.equal(old.value(a[prefix]), new.value(b[prefix])) { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix && suffix < b.count - prefix
            && Self.equal(old.value(a[a.count - 1 - suffix]), new.value(b[b.count - 1 - suffix])) { suffix += 1 }
        let oldMiddle = Array(a[prefix..<(a.count - suffix)])
        let newMiddle = Array(b[prefix..<(b.count - suffix)])
        if oldMiddle.isEmpty && newMiddle.isEmpty { return }

        let identity = identityKey(oldMiddle, newMiddle)
        if oldMiddle.count == newMiddle.count, Self.samePositions(oldMiddle, newMiddle, identity: identity, old, new) {
            // Elements changed in place (the common case): diff each pair, no alignment needed.
            for (index, (x, y)) in zip(oldMiddle, newMiddle).enumerated() where !Self.equal(old.value(x), new.value(y)) {
                withIndex(prefix + index) { $0.diffValue(x, y) }
            }
            return
        }
        func key(_ document: _IndexedDocument, _ node: Int) -> _ByteSliceKey {
            if let identity, let member = Self.member(identity, of: node, in: document) { return _ByteSliceKey(document.value(member)) }
            return _ByteSliceKey(document.value(node))
        }
        let (old, new) = (self.old, self.new)
        let alignment = _ArrayAlignment(
            oldCount: oldMiddle.count, newCount: newMiddle.count, byIdentity: identity != nil, options: options,
            equal: { Self.equal(old.value(oldMiddle[$0]), new.value(newMiddle[$1])) },
            oldKey: { key(old, oldMiddle[$0]) }, newKey: { key(new, newMiddle[$0]) })
        var sink = _ByteArraySink(diff: self, oldElements: oldMiddle, newElements: newMiddle, offset: prefix, appendsAtEnd: suffix == 0)
        patch = []  // the sink's copy is then the only one, appended in place
        pathRanges = []
        _ArrayAlignment.emitPatch(steps: alignment.steps, moves: alignment.moves, oldCount: oldMiddle.count, newCount: newMiddle.count, into: &sink)
        self = sink.diff
    }

    /// The common case without building lists of elements: both versions have as many
    /// elements, and the few that differ kept their places (the same identity member, or a
    /// single changed element). Returns false, having written nothing, otherwise.
    private mutating func diffInPlace(_ i: Int, _ j: Int) -> Bool {
        var changed: [(index: Int, old: Int, new: Int)] = []
        var (x, y, index) = (i + 1, j + 1, 0)
        let (oldEnd, newEnd) = (Int(old.nodes[i].next), Int(new.nodes[j].next))
        while x < oldEnd && y < newEnd {
            if !Self.equal(old.value(x), new.value(y)) {
                changed.append((index, x, y))
                if changed.count > 16 { return false }
            }
            (x, y, index) = (Int(old.nodes[x].next), Int(new.nodes[y].next), index + 1)
        }
        guard x == oldEnd && y == newEnd, !changed.isEmpty else { return false }
        if changed.count > 1 {
            guard let identity = identityKey(changed.map(\.old), changed.map(\.new)),
                Self.samePositions(changed.map(\.old), changed.map(\.new), identity: identity, old, new) else { return false }
        }
        for pair in changed { withIndex(pair.index) { $0.diffValue(pair.old, pair.new) } }
        return true
    }

    /// Whether the changed elements keep their places: with an identity member, each pair
    /// has the same identity; without one, the middle is one element on each side (an
    /// alignment would pair it the same way).
    private static func samePositions(_ a: [Int], _ b: [Int], identity: [UInt8]?, _ old: _IndexedDocument, _ new: _IndexedDocument) -> Bool {
        guard let identity else { return a.count == 1 }
        for (x, y) in zip(a, b) {
            guard let i = member(identity, of: x, in: old), let j = member(identity, of: y, in: new),
                equal(old.value(i), new.value(j)) else { return false }
        }
        return true
    }

    /// The identity member (`id`, …) that every changed element of both versions has as a scalar, quoted as a key.
    private func identityKey(_ oldElements: [Int], _ newElements: [Int]) -> [UInt8]? {
        guard !oldElements.isEmpty, !newElements.isEmpty else { return nil }
        for field in options.identityFields {
            var key: [UInt8] = []
            JSONWriter.appendString(field, to: &key)
            func hasScalar(_ node: Int, _ document: _IndexedDocument) -> Bool {
                guard let member = Self.member(key, of: node, in: document) else { return false }
                let first = document.bytes[Int(document.nodes[member].start)]
                return first == UInt8(ascii: "\"") || first == UInt8(ascii: "-") || (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9"))
            }
            if oldElements.allSatisfy({ hasScalar($0, old) }) && newElements.allSatisfy({ hasScalar($0, new) }) { return key }
        }
        return nil
    }

    /// The node of member `key` (quoted, as encoded) of the object at `node`.
    private static func member(_ key: [UInt8], of node: Int, in document: _IndexedDocument) -> Int? {
        guard document.bytes[Int(document.nodes[node].start)] == UInt8(ascii: "{") else { return nil }
        var child = node + 1
        let end = Int(document.nodes[node].next)
        while child < end {
            if key.withUnsafeBufferPointer({ equal(document.key(child), $0) }) { return child }
            child = Int(document.nodes[child].next)
        }
        return nil
    }

    // MARK: Writing

    /// Appends one operation at the current path; `value` for add and replace.
    fileprivate mutating func operation(_ name: StaticString, value: UnsafeBufferPointer<UInt8>?) {
        append(operationCount == 0 ? #"{"op":""# : #",{"op":""#)
        append(name)
        append(#"","path":""#)
        let pathStart = patch.count
        patch.append(contentsOf: path)
        pathRanges.append(pathStart..<patch.count)
        patch.append(UInt8(ascii: "\""))
        if let value {
            append(#","value":"#)
            patch.append(contentsOf: value)
        }
        patch.append(UInt8(ascii: "}"))
        operationCount += 1
    }

    fileprivate mutating func move(from: Int, to: Int) {
        patch.append(contentsOf: operationCount == 0 ? #"{"op":"move","from":""#.utf8 : #",{"op":"move","from":""#.utf8)
        patch.append(contentsOf: path)
        appendIndexToken(from, to: &patch)
        patch.append(contentsOf: #"","path":""#.utf8)
        let pathStart = patch.count
        patch.append(contentsOf: path)
        appendIndexToken(to, to: &patch)
        pathRanges.append(pathStart..<patch.count)
        patch.append(contentsOf: #""}"#.utf8)
        operationCount += 1
    }

    private mutating func append(_ literal: StaticString) {
        patch.append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Runs `body` with the member `key` (quoted, as encoded) appended to the path.
    private mutating func withMember(_ key: UnsafeBufferPointer<UInt8>, _ body: (inout _ByteDiff) -> Void) {
        let saved = path.count
        path.append(UInt8(ascii: "/"))
        let content = UnsafeBufferPointer(rebasing: key[1..<(key.count - 1)])
        if content.contains(where: { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) {
            path.append(contentsOf: Self.escapedToken(key))
        } else {
            // No escapes, `~` or `/`: the encoded key already is the token, as JSON string content.
            path.append(contentsOf: content)
        }
        body(&self)
        path.removeSubrange(saved...)
    }

    /// Runs `body` with array index (or `-`) `index` appended to the path.
    fileprivate mutating func withIndex(_ index: Int?, _ body: (inout _ByteDiff) -> Void) {
        let saved = path.count
        if let index { appendIndexToken(index, to: &path) } else { path.append(contentsOf: "/-".utf8) }
        body(&self)
        path.removeSubrange(saved...)
    }

    private func appendIndexToken(_ index: Int, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "/"))
        JSONWriter.appendInteger(index, to: &output)
    }

    /// A key with escapes, `~` or `/` as a JSON Pointer token (RFC 6901: `~0`, `~1`), as JSON string content.
    private static func escapedToken(_ key: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        let name = (try? JSONParser.parse(Array(key)))?.stringValue ?? ""
        let token = name.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
        var quoted: [UInt8] = []
        JSONWriter.appendString(token, to: &quoted)
        return Array(quoted.dropFirst().dropLast())
    }

    @inline(__always) static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        a.count == b.count && (a.count == 0 || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
    }
}

/// Writes an array's operations into a byte patch; element numbers are
/// positions in the changed middle, `offset` elements after the array's start.
private struct _ByteArraySink: _ArrayPatchSink {
    var diff: _ByteDiff
    let oldElements: [Int]
    let newElements: [Int]
    let offset: Int
    /// False when unchanged elements follow the middle, so an append is an index, not `-`.
    let appendsAtEnd: Bool

    mutating func remove(at index: Int) {
        diff.withIndex(offset + index) { $0.operation("remove", value: nil) }
    }

    mutating func add(element: Int, at index: Int?) {
        let bytes = diff.new.value(newElements[element])
        // `nil` means "at `element`, which is the end of the middle".
        let position: Int? = index.map { offset + $0 } ?? (appendsAtEnd ? nil : offset + element)
        diff.withIndex(position) { $0.operation("add", value: bytes) }
    }

    mutating func move(from: Int, to: Int) {
        diff.move(from: offset + from, to: offset + to)
    }

    mutating func update(old: Int, new: Int, at index: Int) {
        let (i, j) = (oldElements[old], newElements[new])
        guard !_ByteDiff.equal(diff.old.value(i), diff.new.value(j)) else { return }
        diff.withIndex(offset + index) { $0.diffValue(i, j) }
    }
}

/// A byte range compared and hashed by content, for matching keys and elements across two encodings.
struct _ByteSliceKey: Hashable {
    let bytes: UnsafeBufferPointer<UInt8>
    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }
    static func == (a: _ByteSliceKey, b: _ByteSliceKey) -> Bool { _ByteDiff.equal(a.bytes, b.bytes) }
    func hash(into hasher: inout Hasher) { hasher.combine(bytes: UnsafeRawBufferPointer(bytes)) }
}
