/// When an entry holds its whole state (a keyframe) instead of a patch.
///
/// Rebuilding an entry's state reads the keyframe before it and applies every
/// patch since, so the patches since a keyframe decide how long a rebuild
/// takes. The rule keeps every rebuild within max(2 parses of the state,
/// 0.25 ms): a large state is rebuilt in under two parses however many small
/// changes it saw, and a small state, which parses in microseconds, gets a
/// keyframe only every hundred-odd entries instead of every few, since nobody
/// notices a rebuild of a quarter of a millisecond (docs/FORMAT.md, "Keyframes";
/// the constants are measured in docs/PERFORMANCE.md, `## Recorder`).
///
/// Costs are counted in bytes of state parsing, so the rule is the same on
/// every machine and a log's keyframes do not depend on how busy it was.
struct KeyframePolicy {
    /// At most this many entries between two keyframes (`Options.keyframeInterval`).
    let maximumInterval: Int
    /// False: keyframes only by count and when a patch outgrows the state (`Options.keyframesByCost`).
    var byCost = true

    /// Reading one patch back costs about as much as parsing this many bytes of
    /// state, besides its own bytes: finding the patch in its line, reading it and
    /// walking the state to each path (a two-operation patch of the 5.9 kB todo
    /// state reads back in about a microsecond, docs/PERFORMANCE.md).
    static let perPatchCost = 640

    /// What a rebuild costs besides parsing its keyframe and reading its patches
    /// (finding the chain in the index, reading its lines, setting up the parsers),
    /// in bytes of state parsing: about 8 µs, measured in docs/PERFORMANCE.md.
    static let rebuildOverhead = 2 << 10

    /// The bound's floor, 0.25 ms, in bytes of state parsing: what the reader parses
    /// in about that time on the machine docs/PERFORMANCE.md measures.
    static let quarterMillisecond = 160 << 10

    /// The patches since the last keyframe.
    struct Cost {
        private(set) var patches = 0
        private(set) var bytes = 0

        mutating func add(patchBytes: Int) {
            patches += 1
            bytes += patchBytes
        }
    }

    /// Whether the entry whose patch is `patchBytes` long should hold its whole
    /// state instead, after the patches `cost` counts since the last keyframe.
    func wantsKeyframe(after cost: Cost, patchBytes: Int, stateBytes: Int) -> Bool {
        if cost.patches + 1 >= maximumInterval || patchBytes >= stateBytes { return true }
        guard byCost else { return false }
        let bound = max(2 * stateBytes, Self.quarterMillisecond)
        let rebuild = Self.rebuildOverhead + stateBytes + cost.bytes + patchBytes + (cost.patches + 1) * Self.perPatchCost
        // An eighth of the bound in hand: a parse's speed varies by that much and more with the heap's state.
        return rebuild >= bound - bound / 8
    }
}
