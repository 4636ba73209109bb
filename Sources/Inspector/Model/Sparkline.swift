import Recorder

/// The one-row picture in the timeline's title (htop's meters, lnav's
/// histogram): the whole log in `columns` buckets, each bar the state's size
/// after one sampled entry of the bucket, a bar in the warning colour where
/// that reducer took over four times the median. Spikes show before rows are read.
///
/// Samples are taken a few per event (each rebuilds one state), so a huge log
/// fills the picture in over a few ticks without slowing a key press. A big state (over
/// 2 MB, or slow to rebuild) is not rebuilt for it: it is drawn at the size of the
/// keyframe it is rebuilt from. One that cannot be rebuilt (a damaged record on
/// the way) is a gap mark, not a low bar: its size is not known.
struct Sparkline: Equatable, Sendable {
    struct Sample: Equatable, Sendable {
        /// Nil when the state cannot be rebuilt.
        var stateBytes: Int?
        var duration: Double?
    }

    /// Entries the buckets were laid out for, and how many buckets.
    private(set) var entryCount = 0
    private(set) var columns = 0
    private(set) var samples: [Sample?] = []

    static let samplesPerEvent = 8
    static let bars: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
    /// Where the state cannot be rebuilt.
    static let gap: Character = "╌"

    /// True while buckets are still to be sampled (a few per event).
    var isFilling: Bool { samples.contains(nil) }

    /// The entry sampled for `bucket`: the middle of its range.
    func entry(forBucket bucket: Int) -> Int {
        let low = bucket * entryCount / max(1, columns)
        let high = max(low, (bucket + 1) * entryCount / max(1, columns) - 1)
        return (low + high) / 2
    }

    /// Lays the buckets out again when the log grew or the width changed, then samples a few more.
    /// `quickStateBytes`: states whose records take more bytes to read are not rebuilt for a sample.
    mutating func update(count: Int, columns wanted: Int, source: any TimelineSource, quickStateBytes: Int) {
        let columns = min(count, max(0, wanted))
        if columns != self.columns || count != entryCount {
            entryCount = count
            self.columns = columns
            samples = Array(repeating: nil, count: columns)
        }
        var taken = 0
        for bucket in samples.indices where samples[bucket] == nil {
            guard taken < Self.samplesPerEvent else { break }
            let index = entry(forBucket: bucket)
            // A big state (or one slow to rebuild) is neither rebuilt nor written out for a bar.
            let estimate = source.stateBytesEstimate(at: index)
            let bytes = (estimate ?? 0) > quickStateBytes || source.stateRebuildBytes(at: index) > quickStateBytes
                ? estimate
                : (try? source.stateNode(at: index))?.compactByteCount
            samples[bucket] = Sample(stateBytes: bytes, duration: source.entry(at: index)?.duration)
            taken += 1
        }
    }

    /// The bars, with the buckets whose reducer was slow (nil where not sampled yet: a space).
    func bars() -> [(bar: Character, slow: Bool)] {
        let largest = samples.compactMap { $0?.stateBytes }.max() ?? 0
        let durations = samples.compactMap { $0?.duration }.sorted()
        let median = durations.isEmpty ? 0 : durations[durations.count / 2]
        return samples.map { sample in
            guard let sample else { return (" ", false) }
            guard let bytes = sample.stateBytes else { return (Self.gap, false) }
            let level = largest == 0 ? 0 : min(Self.bars.count - 1, bytes * Self.bars.count / (largest + 1))
            let slow = median > 0 && (sample.duration ?? 0) > 4 * median
            return (Self.bars[level], slow)
        }
    }
}
