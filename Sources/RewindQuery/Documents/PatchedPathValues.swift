import RewindJSON

/// The values at a few paths of a document that JSON Patch operations keep
/// changing, kept exact without rebuilding the whole document: what a query
/// over every state of a recording reads (`rewind find '/cart/total < 0'`).
///
/// It holds a whole document (the `base`: a keyframe's state), the operations
/// applied since, and the values at the watched paths and at the other paths
/// the operations needed (cached). An operation is applied to those values
/// alone when its effect on each of them, and whether it applies at all, can be
/// told from them; otherwise (an array insert or removal at or before a watched
/// element, `move`, `copy`, a path the operations since the base make unknown)
/// the whole document is rebuilt from the base, as ``JSONPatch/apply(_:to:)``
/// would, and becomes the new base. Either way an operation succeeds exactly
/// when it does on the whole document, and every value read is the one there.
///
/// ```swift
/// var values = PatchedPathValues(watching: [JSONPointer(tokens: ["n"])], in: ["n": 1, "items": []])
/// _ = values.apply(.replace(path: JSONPointer(tokens: ["n"]), value: 2))   // true
/// values.value(at: 0)                                                       // 2
/// ```
package struct PatchedPathValues {
    /// The paths asked for: always kept, in the first slots (a path asked for twice has one).
    package let watched: [JSONPointer]
    /// Per watched path, its slot.
    private var watchedSlots: [Int] = []
    /// Slots for the watched paths (the first ones; never forgotten).
    private var watchedSlotCount = 0
    /// The document the pending operations apply to.
    private var base: Base
    /// The operations applied since `base` (replayed on it when rebuilding).
    private var pending: [JSONPatchOperation] = []
    /// Every path seen, as a small number: ancestry and "changed since the base" are integer look-ups.
    private var table = PathTable()
    /// Per slot, a path (its id) whose value is known: the watched ones, then those operations looked up.
    private var slotPaths: [Int] = []
    /// Per slot, the value there in the current document (nil: absent).
    private var values: [JSONValue?] = []
    /// Whole-document rebuilds so far (for tests: proof that both ways are taken).
    package private(set) var rebuilds = 0
    /// Paths met so far (ancestors included), and the tokens they hold (for tests: how the table grows).
    package var knownPaths: (count: Int, tokens: Int) { (table.count, table.tokensHeld) }
    /// What the operations since the last whole state may build (nil: anything).
    private var limits: PatchLimits?

    /// Paths looked up beyond the watched ones that are kept at most (then forgotten).
    static let cachedPathLimit = 64
    /// Operations since the base that are kept at most (then the document is rebuilt).
    static let pendingLimit = 4096

    /// A keyframe's state: parsed, or kept as bytes (values parsed when looked up).
    private enum Base {
        case value(JSONValue)
        case lazy(LazyJSONDocument)

        subscript(pointer pointer: JSONPointer) -> JSONValue? { self[tokens: pointer.tokens[...]] }

        subscript(tokens tokens: ArraySlice<String>) -> JSONValue? {
            switch self {
            case .value(let document): document.value(atTokens: tokens)
            case .lazy(let document): document.value(atTokens: tokens)
            }
        }

        var whole: JSONValue? {
            switch self {
            case .value(let document): document
            case .lazy(let document): document.whole
            }
        }
    }

    /// Watches `watched` in `document`; operations are charged to `limits` (see ``PatchLimits``),
    /// which start again with each ``reset(to:)``.
    package init(watching watched: [JSONPointer], in document: JSONValue, limits: PatchLimits? = nil) {
        self.watched = watched
        self.limits = limits
        base = .value(document)
        reset(to: document)
    }

    /// The value at `watched[position]` (nil: absent).
    package func value(at position: Int) -> JSONValue? { values[watchedSlots[position]] }

    /// The values at the watched paths, in order.
    package var watchedValues: [JSONValue?] { watchedSlots.map { values[$0] } }

    /// The same, written over `array` (in place when nothing else holds it).
    package func readWatchedValues(into array: inout [JSONValue?]) {
        // Written over in place when the sizes agree (every step but the first):
        // `removeAll(keepingCapacity:)` and appends cost ten times the copies.
        if array.count == watchedSlots.count {
            for (position, slot) in watchedSlots.enumerated() { array[position] = values[slot] }
            return
        }
        array.removeAll(keepingCapacity: true)
        for slot in watchedSlots { array.append(values[slot]) }
    }

    /// Starts again from `document` (a keyframe's state).
    package mutating func reset(to document: JSONValue) {
        limits?.restart()
        reset(to: .value(document))
    }

    /// Starts again from `document` (a keyframe's state kept as bytes): only
    /// the values the watched paths and later operations need are parsed.
    package mutating func reset(to document: LazyJSONDocument) {
        limits?.restart()
        reset(to: .lazy(document))
    }

    private mutating func reset(to document: Base) {
        base = document
        pending.removeAll(keepingCapacity: true)
        table.forgetMarks()
        if table.count > PathTable.limit { table = PathTable() }
        slotPaths.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        watchedSlots.removeAll(keepingCapacity: true)
        for path in watched {
            let id = table.id(path)
            if table.slot(of: id) < 0 {
                slotPaths.append(id)
                values.append(document[pointer: path])
                table.setSlot(of: id, slotPaths.count - 1)
            }
            watchedSlots.append(table.slot(of: id))
        }
        watchedSlotCount = slotPaths.count
    }

    /// Applies `operation`; false when it fails on the document (which is then unknown: start again with ``reset(to:)``).
    package mutating func apply(_ operation: consuming JSONPatchOperation) -> Bool {
        guard chargeWithoutTheDocument(operation) else { return false }
        switch operation {
        case .replace(let path, let value):
            if path.isRoot {
                reset(to: .value(value))
                return true
            }
            let id = table.id(path)
            guard let current = lookUp(id) else { return rebuild(then: operation) }
            guard current != nil else { return false }
            guard setValues(at: id, to: value, operation) else { return rebuild(then: operation) }
            changed(id, operation)
            return true
        case .test(let path, let value):
            guard let current = lookUp(table.id(path)) else { return rebuild(then: operation) }
            return current == value
        case .add(let path, let value):
            guard let token = path.lastToken else {
                reset(to: .value(value))
                return true
            }
            let id = table.id(path), parentID = table.parent(of: id)
            guard let parent = lookUp(parentID) else { return rebuild(then: operation) }
            switch parent {
            case .object?:
                guard setValues(at: id, to: value, operation) else { return rebuild(then: operation) }
                changed(id, operation)
                return true
            case .array(let elements)?:
                let index = token == "-" ? elements.count : JSONPointer.arrayIndex(token)
                guard let index, index <= elements.count else { return false }
                return shiftArray(parentID, from: index, operation)
            default:
                return false
            }
        case .remove(let path):
            guard let token = path.lastToken else { return false }
            let id = table.id(path), parentID = table.parent(of: id)
            guard let parent = lookUp(parentID) else { return rebuild(then: operation) }
            switch parent {
            case .object(let object)?:
                guard object[token] != nil else { return false }
                guard setValues(at: id, to: nil, operation) else { return rebuild(then: operation) }
                changed(id, operation)
                return true
            case .array(let elements)?:
                guard let index = JSONPointer.arrayIndex(token), index < elements.count else { return false }
                return shiftArray(parentID, from: index, operation)
            default:
                return false
            }
        case .move, .copy:
            return rebuild(then: operation)
        }
    }

    /// False when an add or a replace would build past the limits: what they build is known
    /// from the operation alone. A move's or a copy's needs the document, and is charged
    /// when it is rebuilt (``rebuild(then:)``).
    private mutating func chargeWithoutTheDocument(_ operation: JSONPatchOperation) -> Bool {
        guard limits != nil else { return true }
        switch operation {
        case .add, .replace:
            do { try limits!.charge(operation, in: .null) } catch { return false }
            return true
        default:
            return true
        }
    }

    /// After the value at `id` became `value` (nil: removed) without moving its
    /// siblings: the known values at or under it are read from `value`, those
    /// above it get `operation` applied. False when one of those fails (a rebuild settles it).
    private mutating func setValues(at id: Int, to value: JSONValue?, _ operation: JSONPatchOperation) -> Bool {
        let own = table.slot(of: id)
        if own >= 0 { values[own] = value }
        if table.hasSlotBelow(id) {
            let depth = table.depth(of: id)
            for slot in slotPaths.indices {
                let known = slotPaths[slot]
                if table.depth(of: known) > depth, table.isAncestorOrSelf(id, of: known) {
                    values[slot] = value.flatMap { Self.value(in: $0, at: table.tokens(of: known)[depth...]) }
                }
            }
        }
        // Each known value above it: the operation applied inside it.
        var above = table.parent(of: id)
        while above >= 0 {
            let slot = table.slot(of: above)
            if slot >= 0, !applyInside(slot, operation) { return false }
            above = table.parent(of: above)
        }
        return true
    }

    /// An insert or removal at `index` of the array at `array` (known to succeed):
    /// values inside the array at that index or after it move, so knowing one
    /// of those takes a rebuild; those before it and the array itself (and what
    /// holds it) are edited in place.
    private mutating func shiftArray(_ array: Int, from index: Int, _ operation: JSONPatchOperation) -> Bool {
        let depth = table.depth(of: array)
        for slot in slotPaths.indices {
            let known = slotPaths[slot]
            guard table.depth(of: known) > depth, table.isAncestorOrSelf(array, of: known) else { continue }
            // An element: one before the change keeps its place; a token that is not an index stays absent.
            guard let element = JSONPointer.arrayIndex(table.tokens(of: known)[depth]) else { continue }
            if element >= index { return rebuild(then: operation) }
        }
        for slot in slotPaths.indices where table.isAncestorOrSelf(slotPaths[slot], of: array) {
            guard applyInside(slot, operation) else { return rebuild(then: operation) }
        }
        // Every element from the change on is another value now: the whole array counts as changed.
        changed(array, operation)
        return true
    }

    /// Applies `operation` (whose path lies inside the path of `slot`) to that value alone.
    private mutating func applyInside(_ slot: Int, _ operation: JSONPatchOperation) -> Bool {
        guard values[slot] != nil else { return false }
        let depth = table.depth(of: slotPaths[slot])
        let inner: JSONPatchOperation
        switch operation {
        case .add(let path, let value): inner = .add(path: JSONPointer(tokens: Array(path.tokens[depth...])), value: value)
        case .remove(let path): inner = .remove(path: JSONPointer(tokens: Array(path.tokens[depth...])))
        case .replace(let path, let value): inner = .replace(path: JSONPointer(tokens: Array(path.tokens[depth...])), value: value)
        default: return false
        }
        do {
            try JSONPatch.apply(inner, to: &values[slot]!)
            return true
        } catch {
            return false
        }
    }

    /// Records an applied operation and where it changed the document.
    private mutating func changed(_ place: Int, _ operation: consuming JSONPatchOperation) {
        pending.append(operation)
        table.markChanged(place)
        // A long run without keyframes: fold what is pending into the base (it applies: each operation did).
        if pending.count >= Self.pendingLimit { _ = rebuild(then: nil) }
    }

    /// The value at the path `id` now: `.some(nil)` when absent, nil when the
    /// known values cannot tell (a rebuild can). Found values are kept for next time.
    private mutating func lookUp(_ id: Int) -> JSONValue?? {
        let known = table.slot(of: id)
        if known >= 0 { return values[known] }
        let found: JSONValue?
        if let (slot, depth) = knownAncestor(of: id) {
            found = values[slot].flatMap { Self.value(in: $0, at: table.tokens(of: id)[depth...]) }
        } else {
            // The base's value, unless something changed at, above or under it since.
            guard !table.isChanged(around: id) else { return nil }
            found = base[tokens: table.tokens(of: id)]
        }
        if slotPaths.count >= watchedSlotCount + Self.cachedPathLimit {
            for id in slotPaths[watchedSlotCount...] { table.setSlot(of: id, -1) }
            slotPaths.removeSubrange(watchedSlotCount...)
            values.removeSubrange(watchedSlotCount...)
        }
        slotPaths.append(id)
        values.append(found)
        table.setSlot(of: id, slotPaths.count - 1)
        return .some(found)
    }

    /// The nearest path above `id` whose value is known: its slot and depth.
    private func knownAncestor(of id: Int) -> (slot: Int, depth: Int)? {
        var current = table.parent(of: id)
        while current >= 0 {
            let slot = table.slot(of: current)
            if slot >= 0 { return (slot, table.depth(of: current)) }
            current = table.parent(of: current)
        }
        return nil
    }

    /// Rebuilds the whole document from the base and applies `operation` to it;
    /// false when that fails. The rebuilt document is the new base.
    private mutating func rebuild(then operation: JSONPatchOperation?) -> Bool {
        rebuilds += 1
        guard var document = base.whole else { return false }
        do {
            for earlier in pending { try JSONPatch.apply(earlier, to: &document) }
            if let operation {
                // Each operation reaches here once (a move or copy always does): charged once.
                if case .move = operation { try limits?.charge(operation, in: document) }
                if case .copy = operation { try limits?.charge(operation, in: document) }
                try JSONPatch.apply(operation, to: &document)
            }
        } catch {
            return false
        }
        reset(to: document)
        return true
    }

    /// `value[pointer:]` for the tokens of a pointer's tail.
    private static func value(in value: JSONValue, at tokens: ArraySlice<String>) -> JSONValue? {
        value.value(atTokens: tokens)
    }
}

/// The paths a ``PatchedPathValues`` has met, each as a number with its
/// parent's number (every ancestor is in the table too), so asking whether one
/// lies under another, or whether anything changed around one, compares
/// integers instead of tokens: that is done for every operation of every patch.
///
/// Linear in a path's length: a path is found one token at a time, each level
/// by its parent's number and its own token, and keeps its tokens as a slice of
/// the pointer that first named it (a path of n tokens costs n entries, not the
/// n²/2 tokens of a pointer per ancestor).
private struct PathTable {
    private struct Info {
        var parent: Int
        var depth: Int
        /// The path's tokens: a slice (from index 0) of the first pointer that named it or a path under it.
        var tokens: ArraySlice<String>
        /// The slot holding the path's value, or -1.
        var slot = -1
        /// Changed since the base: the value here, or somewhere under it.
        var changedHere = false
        var changedBelow = false
        /// A slot was given to a path under this one since the marks were last forgotten (it may be gone).
        var slotBelow = false
    }

    /// A level of a path: its parent's number and its token, compared by Unicode scalars as pointers are
    /// (their UTF-8 bytes, compared and hashed whole: byte by byte, a look-up missed by `recent` cost
    /// as much as the rest of applying an operation).
    private struct Child: Hashable {
        var parent: Int
        var token: String

        static func == (left: Child, right: Child) -> Bool {
            guard left.parent == right.parent, left.token.utf8.count == right.token.utf8.count else { return false }
            let same = left.token.utf8.withContiguousStorageIfAvailable { leftBytes in
                right.token.utf8.withContiguousStorageIfAvailable { rightBytes in
                    leftBytes.elementsEqual(rightBytes)
                }
            }
            return (same ?? nil) ?? left.token.utf8.elementsEqual(right.token.utf8)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(parent)
            // The same bytes hash the same whether or not the string holds them contiguously.
            if token.utf8.withContiguousStorageIfAvailable({ hasher.combine(bytes: UnsafeRawBufferPointer($0)) }) == nil {
                Array(token.utf8).withUnsafeBytes { hasher.combine(bytes: $0) }
            }
        }
    }

    private var children: [Child: Int] = [:]
    private var infos: [Info] = []
    /// Ids whose change marks are set, and ids with a slot or a slot-below mark (cleared by ``forgetMarks()``).
    private var marked: [Int] = []
    private var slotted: [Int] = []
    /// The last pointers looked up, by the address of their tokens' storage, in
    /// two-way sets: a log's patches share one pointer per path (``PathPointerCache``),
    /// so most look-ups hash nothing, and two hot paths whose addresses meet in one
    /// place (one table in several, by where the allocator put them) take turns
    /// instead of missing every time. Holding the pointer keeps that storage, so an
    /// address seen here belongs to no other array.
    private var recent = [(pointer: JSONPointer, id: Int)?](repeating: nil, count: 256)

    /// Paths kept at most across keyframes (then the table starts over).
    static let limit = 4096
    /// The whole document: the root of every path, number 0.
    private static let root = 0

    init() {
        infos.append(Info(parent: -1, depth: 0, tokens: []))
    }

    var count: Int { infos.count }

    /// The tokens the table holds, each array counted once however many paths share it (for tests: linear in a path's length).
    var tokensHeld: Int {
        var buffers: [UInt: Int] = [:]
        for info in infos where !info.tokens.isEmpty {
            // Slices from index 0: one array's slices share its first token's address.
            info.tokens.withUnsafeBufferPointer { buffers[UInt(bitPattern: $0.baseAddress), default: 0] = max(buffers[UInt(bitPattern: $0.baseAddress)] ?? 0, $0.count) }
        }
        return buffers.values.reduce(0, +)
    }

    mutating func id(_ pointer: JSONPointer) -> Int {
        let address = Self.address(of: pointer)
        let set = Int(truncatingIfNeeded: (address >> 4) ^ (address >> 12)) & (recent.count - 2)
        for way in set..<(set + 2) {
            if let seen = recent[way], Self.address(of: seen.pointer) == address { return seen.id }
        }
        var id = Self.root
        for (depth, token) in pointer.tokens.enumerated() {
            let child = Child(parent: id, token: token)
            if let known = children[child] {
                id = known
            } else {
                infos.append(Info(parent: id, depth: depth + 1, tokens: pointer.tokens[..<(depth + 1)]))
                id = infos.count - 1
                children[child] = id
            }
        }
        // The newer pointer first; the one it displaces moves to the second way.
        recent[set + 1] = recent[set]
        recent[set] = (pointer, id)
        return id
    }

    private static func address(of pointer: JSONPointer) -> UInt {
        pointer.tokens.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    }

    /// The path's tokens (indexed from 0, so `tokens(of: id)[depth...]` is the part below `depth`).
    func tokens(of id: Int) -> ArraySlice<String> { infos[id].tokens }
    func parent(of id: Int) -> Int { infos[id].parent }
    func depth(of id: Int) -> Int { infos[id].depth }
    func slot(of id: Int) -> Int { infos[id].slot }
    func hasSlotBelow(_ id: Int) -> Bool { infos[id].slotBelow }

    /// Gives `id` the slot `slot` (-1: none); the paths above it learn that one lies below.
    mutating func setSlot(of id: Int, _ slot: Int) {
        infos[id].slot = slot
        guard slot >= 0 else { return }
        slotted.append(id)
        var current = infos[id].parent
        while current >= 0, !infos[current].slotBelow {
            infos[current].slotBelow = true
            slotted.append(current)
            current = infos[current].parent
        }
    }

    /// True when `ancestor` is `id` or one of its ancestors.
    func isAncestorOrSelf(_ ancestor: Int, of id: Int) -> Bool {
        let depth = infos[ancestor].depth
        var current = id
        while infos[current].depth > depth { current = infos[current].parent }
        return current == ancestor
    }

    mutating func markChanged(_ id: Int) {
        if !infos[id].changedHere {
            infos[id].changedHere = true
            marked.append(id)
        }
        var current = infos[id].parent
        while current >= 0, !infos[current].changedBelow {
            infos[current].changedBelow = true
            marked.append(current)
            current = infos[current].parent
        }
    }

    /// True when something changed at `id`, above it or under it since the marks were last forgotten.
    func isChanged(around id: Int) -> Bool {
        if infos[id].changedBelow { return true }
        var current = id
        while current >= 0 {
            if infos[current].changedHere { return true }
            current = infos[current].parent
        }
        return false
    }

    /// Forgets every change mark and every slot.
    mutating func forgetMarks() {
        for id in marked {
            infos[id].changedHere = false
            infos[id].changedBelow = false
        }
        marked.removeAll(keepingCapacity: true)
        for id in slotted {
            infos[id].slot = -1
            infos[id].slotBelow = false
        }
        slotted.removeAll(keepingCapacity: true)
    }
}
