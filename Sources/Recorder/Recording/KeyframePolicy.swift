/// When an entry holds its whole state (a keyframe) instead of a patch.
///
/// Rebuilding an entry's state reads the keyframe before it and applies every
/// patch since. So a keyframe is due once the patches since the last one cost
/// about three quarters of what parsing the state costs: rebuilding any entry
/// then costs under two parses of its state, and small changes to a large
/// state cost almost nothing to record (docs/FORMAT.md, "Keyframes"; the
/// constants are measured in docs/PERFORMANCE.md, "Keyframes").
struct KeyframePolicy {
    /// At most this many entries between two keyframes (`Options.keyframeInterval`).
    let maximumInterval: Int
    /// False: keyframes only by count and when a patch outgrows the state (`Options.keyframesByCost`).
    var byCost = true

    /// Reading one patch back costs about as much as parsing this many bytes of
    /// state, besides its own bytes: reading its line, checking its checksum,
    /// parsing the record and walking the state to each path.
    static let perPatchCost = 1_024

    /// The patches since the last keyframe.
    struct Cost {
        private(set) var patches = 0
        private(set) var bytes = 0

        mutating func add(patchBytes: Int) {
            patches += 1
            bytes += patchBytes
        }
    }

    /// The patches since a keyframe may cost this many quarters of parsing the state:
    /// three, not four, so a rebuild stays under two parses with room to spare (how fast
    /// a parse runs varies by a third from run to run with the heap's state).
    static let patchShare = 3

    /// What a rebuild costs besides parsing its keyframe and reading its patches
    /// (finding the chain in the index, reading its lines, setting up the parsers),
    /// in bytes of state parsing: about 8 µs, measured in docs/PERFORMANCE.md. It comes
    /// out of the patches' budget, so rebuilding any entry stays under two parses of
    /// its state even when the state is small enough for it to matter.
    static let rebuildOverhead = 2 << 10

    /// The patches' budget is at least this, so a small state does not turn every
    /// entry into a keyframe: rebuilding one then costs some tens of microseconds.
    static let smallestKeyframeBudget = 3 << 10

    func wantsKeyframe(after cost: Cost, patchBytes: Int, stateBytes: Int) -> Bool {
        if cost.patches + 1 >= maximumInterval || patchBytes >= stateBytes { return true }
        let budget = max(stateBytes * Self.patchShare / 4 - Self.rebuildOverhead, Self.smallestKeyframeBudget)
        return byCost && cost.bytes + patchBytes + (cost.patches + 1) * Self.perPatchCost >= budget
    }
}
