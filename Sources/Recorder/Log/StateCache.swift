import RewindJSON

/// Recently rebuilt states, so stepping to a neighbour applies one patch: ``LogReader``'s.
///
/// A state rebuilt from a keyframe shares every node its patches did not touch with the keyframe's
/// parsed state; what it holds of its own is the containers on its patches' paths (copied when
/// written) and the values the patches brought. On a 30 MB state that is ~1.6 MB a neighbour
/// (the 100,000-element list it edits) against 82 MB for the keyframe's tree. So the cache:
/// - keeps the state of the keyframe it last parsed (when it is over ``keptKeyframeBytes``),
///   whatever else comes and goes: evicting it made
///   the next state before the cached ones parse the keyframe again into a second, unshared tree
///   (16 of them, 1.4 GB, stepping `k` back through a 37-entry log);
/// - never evicts an older keyframe's state while a state rebuilt from it is cached;
/// - bounds the rest by count and by an estimate of what each holds beyond its keyframe
///   (``heldBytesBudget``), so small states keep sixteen neighbours and huge ones a few.
struct StateCache {
    /// How a cached state came from the keyframe it was rebuilt from: what it may hold of its own.
    struct Derivation: Equatable {
        /// The entry whose keyframe the state was rebuilt from.
        var keyframe: Int
        /// About what that keyframe's parsed state takes (its record's bytes × ``parsedBytesPerJSONByte``):
        /// what a state rebuilt from it holds alone once it is not cached.
        var keyframeBytes: Int
        /// The paths the patches since the keyframe wrote (the operations' `path`s and `from`s).
        var writtenPaths: Set<[String]> = []
        /// About what the values those patches brought take (their records' bytes × ``parsedBytesPerJSONByte``).
        var broughtBytes = 0
    }

    /// A parsed state takes about this many bytes per byte of its JSON (2.8 on the 30 MB-state log).
    static let parsedBytesPerJSONByte = 3

    /// From this size on (the parsed keyframe's estimate) a keyframe's state is kept apart and
    /// the paths its neighbours' patches write are collected. Below it the cache holds states by
    /// count alone, as a keyframe is parsed again in a moment, and a rebuild pays neither for
    /// collecting those paths (hashing every operation's) nor for copying the containers it
    /// writes out of a kept keyframe's tree: both slowed rebuilding 100 todos by a twentieth to a half.
    static let keptKeyframeBytes = 1 << 20

    /// At most this many states besides the last keyframe's.
    let capacity: Int
    /// At most about this many bytes held beyond keyframes by the states besides the last keyframe's
    /// (but the newest state stays, whatever it holds).
    let heldBytesBudget: Int

    private enum Kind {
        case keyframe(bytes: Int)
        case rebuilt(Derivation, ownBytes: Int)
    }
    private var items: [(index: Int, state: JSONNode, kind: Kind)] = []
    /// The entry of the keyframe whose state was stored last: never evicted.
    private var lastKeyframe: Int?

    init(capacity: Int = 16, heldBytesBudget: Int = 8 << 20) {
        self.capacity = capacity
        self.heldBytesBudget = heldBytesBudget
    }

    /// The state of entry `index`, when cached.
    subscript(index: Int) -> JSONNode? {
        items.last { $0.index == index }?.state
    }

    /// The entries whose states are cached, oldest first.
    var indices: [Int] { items.map(\.index) }

    /// How the cached state of entry `index` came from its keyframe (a keyframe's own: nothing written),
    /// for a state rebuilt on top of it. Nil when it is not cached.
    func derivation(at index: Int) -> Derivation? {
        switch items.last(where: { $0.index == index })?.kind {
        case .keyframe(let bytes): Derivation(keyframe: index, keyframeBytes: bytes)
        case .rebuilt(let derivation, _): derivation
        case nil: nil
        }
    }

    /// Stores the state read from the keyframe of entry `index`, which holds about `heldBytes`
    /// (a tree: its record's bytes × ``parsedBytesPerJSONByte``; a lazy state: its record's bytes),
    /// as the one never evicted (until another keyframe's state is stored).
    mutating func storeKeyframe(_ state: JSONNode, at index: Int, heldBytes: Int) {
        items.removeAll { $0.index == index }
        items.append((index, state, .keyframe(bytes: heldBytes)))
        lastKeyframe = index
        evictOverBudget()
    }

    /// Stores the state of entry `index`, rebuilt as `derivation` says.
    mutating func store(_ state: JSONNode, at index: Int, derivation: Derivation) {
        items.removeAll { $0.index == index }
        let own = Self.containerBytes(along: derivation.writtenPaths, in: state) + derivation.broughtBytes
        items.append((index, state, .rebuilt(derivation, ownBytes: own)))
        evictOverBudget()
    }

    /// About what the containers on `paths` take in `state`: what writing to those paths copied
    /// from the nodes the state shares with its keyframe (each container once: a slot a child,
    /// a tree's or a lazy state's).
    static func containerBytes(along paths: Set<[String]>, in state: JSONNode) -> Int {
        let slot = max(MemoryLayout<JSONValue>.stride, MemoryLayout<JSONNode>.stride)
        var counted: Set<ArraySlice<String>> = []
        var bytes = 0
        for path in paths {
            var node = state
            for depth in path.indices {
                guard node.isContainer else { break }
                if counted.insert(path[..<depth]).inserted { bytes += node.count * slot }
                guard let child = node.child(path[depth]) else { break }
                node = child
            }
        }
        return bytes
    }

    /// What `item` holds that no other cached state shares: a keyframe's whole tree; a rebuilt state
    /// its own containers and values, and its keyframe's tree too once that is not cached.
    private func heldBytes(_ kind: Kind) -> Int {
        switch kind {
        case .keyframe(let bytes): bytes
        case .rebuilt(let derivation, let own):
            own + (items.contains { $0.index == derivation.keyframe && isKeyframe($0.kind) } ? 0 : derivation.keyframeBytes)
        }
    }

    private func isKeyframe(_ kind: Kind) -> Bool {
        if case .keyframe = kind { return true }
        return false
    }

    private mutating func evictOverBudget() {
        while true {
            let evictable = items.indices.filter { items[$0].index != lastKeyframe }
            let held = evictable.reduce(0) { $0 + heldBytes(items[$1].kind) }
            guard evictable.count > capacity || (held > heldBytesBudget && evictable.count > 1) else { return }
            // The oldest, but not a keyframe a cached state was rebuilt from (nor the newest state).
            let victim = evictable.first { position in
                guard position != items.count - 1 else { return false }
                guard case .keyframe = items[position].kind else { return true }
                return !items.contains { item in
                    if case .rebuilt(let derivation, _) = item.kind { return derivation.keyframe == items[position].index }
                    return false
                }
            }
            guard let victim else { return }
            items.remove(at: victim)
        }
    }
}
