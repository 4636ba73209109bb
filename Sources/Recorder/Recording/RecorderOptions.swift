import Foundation

extension ActionRecorder {
    /// How a recorder writes its log. Every option has a sensible default.
    ///
    /// ```swift
    /// var options = ActionRecorder.Options()
    /// options.metadata = ["build": "1.4.2"]
    /// options.onError = { error in print("recording stopped: \(error)") }
    /// let recorder = try ActionRecorder(file: "checkout.jsonl", options: options)
    /// ```
    public struct Options: Sendable {
        /// A keyframe (whole state) at least every this many entries; the entries
        /// in between hold patches. Keyframes also come sooner, once rebuilding the
        /// next entry from the last keyframe would come near max(2 parses of the state,
        /// 0.25 ms): a large state changed a little at a time costs almost nothing to
        /// record, and a small one gets a keyframe every hundred-odd entries (docs/FORMAT.md,
        /// "Keyframes"; measured in docs/PERFORMANCE.md, `## Recorder`).
        public var keyframeInterval = 1024

        /// Entries waiting for the background writer, at most.
        public var queueCapacity = 1024

        /// Memory the entries not yet written may hold, at most, in bytes (64 MB by default).
        /// Each counts as the size of the last state the writer encoded, about what a copy
        /// of a state the app has since changed keeps alive. Past it, `queuePolicy` applies
        /// as when `queueCapacity` entries wait: a burst of actions on a large state then
        /// holds tens of megabytes, not hundreds. One entry is always taken, however large.
        public var queueBytes = 64 << 20

        /// What to do when the queue is full.
        public var queuePolicy = QueuePolicy.wait

        /// When written records reach the disk.
        public var durability = Durability.write

        /// Free-form facts written into the header (build number, device, test name).
        public var metadata: [String: String] = [:]

        /// Hides secrets in states and action payloads before anything is written.
        public var redaction: Redaction?

        /// Called once, on the writer thread, when recording stops because of an
        /// error (disk full, file removed, …). `close()` throws the same error.
        /// Also called once, the first time an entry cannot be recorded because
        /// its state or action is over a log limit (64 MB, or nesting deeper
        /// than a reader reads): that entry is recorded as a gap naming the
        /// reason, and recording goes on.
        public var onError: (@Sendable (RecorderError) -> Void)?

        /// Also record a short call stack (12 frames) with every entry: where the
        /// action was dispatched, shown by `rewind log --trace`. Off by default: it costs the app's
        /// thread a stack walk per action, about 20 µs (docs/PERFORMANCE.md, `## Trace`). The call site
        /// (`#fileID`, `#line`) of ``Store/send(_:fileID:line:)`` and of the manual
        /// ``Recorder/record(_:state:before:duration:effectOf:fileID:line:)`` is recorded either way.
        public var trace = false

        /// Whether the writer copies the recorded bytes of each part of a state whose memory
        /// is as it was in the previous state (the 9,999 todos an action did not touch)
        /// instead of encoding it again: recording then costs what changed rather than what
        /// the state holds. On by default. It relies on a type's `encode(to:)` writing only
        /// what its stored properties hold; turn it off for a state whose hand-written
        /// `encode(to:)` reads something else (a global, the clock). Parts that reach class
        /// instances are always encoded again. docs/JSON.md, "Reusing unchanged values".
        public var reusesUnchangedValues = true

        /// Whether keyframes also come by read-back cost (see `keyframeInterval`); tests that
        /// need keyframes at fixed positions turn it off.
        package var keyframesByCost = true

        /// When recording live (``Recorder/init(streamingTo:token:file:options:)``): bytes of
        /// records waiting for the listener, at most. Beyond that, entries are dropped and a
        /// gap record says how many; the app never waits for the network.
        public var liveQueueBytes = 8 << 20

        /// When recording live: how long ``Recorder/flush()`` and ``Recorder/close()`` wait
        /// for the listener while it makes no progress (takes no bytes, confirms nothing)
        /// before giving up on what it has not confirmed. Raise it for a slow link:
        /// `options.livePatience = .seconds(5)`.
        public var livePatience = Duration.seconds(1)

        /// Where times come from; tests and the demo use a fixed clock so logs are reproducible.
        package var clock = RecorderClock.system

        /// The header's session identifier; nil (the default) draws a random one.
        /// Reproducible logs (the demo's sample logs, golden tests) fix it.
        package var sessionID: String?

        /// The defaults: wait when the queue is full, `write` durability, keyframes by cost (at most 1,024 apart),
        /// no redaction. Change the properties you need: `var options = ActionRecorder.Options(); options.queuePolicy = .drop`.
        public init() {}
    }

    /// What the caller's thread does when the writer has fallen `queueCapacity` entries
    /// (or `queueBytes` of states) behind.
    public enum QueuePolicy: String, Sendable {
        /// Wait for room: nothing is lost, the app slows down to the writer's pace.
        case wait
        /// Drop the entry and count it; the log gets a `gap` record with the number lost.
        case drop
    }

    /// When written records are forced to the disk. "`fsync`" below means
    /// `fcntl(F_FULLFSYNC)` on Apple platforms, where `fsync` stops at the
    /// drive's cache, and `fsync` elsewhere.
    public enum Durability: Sendable, Equatable {
        /// `write()` after each batch, no `fsync`: the log survives the app crashing
        /// (the default), but not necessarily a power cut. An action reaches the file
        /// about a millisecond after it (while actions keep coming the writer looks for
        /// them every millisecond, rather than costing each dispatch a wake-up); call
        /// `flush()` where the entries must be in the file at once.
        case write
        /// Also `fsync` at most every `seconds`: survives a power cut except the last interval.
        case fsync(interval: Double)
        /// `write()` and `fsync` after every record: slowest, loses at most the record being written.
        case fsyncEachRecord

        var jsonValue: JSONValue {
            switch self {
            case .write: "write"
            case .fsync(let interval): .object(JSONObject([("fsyncInterval", .double(interval))]))
            case .fsyncEachRecord: "fsyncEachRecord"
            }
        }
    }
}

/// Wall-clock and monotonic time for the recorder, injectable for reproducible logs.
package struct RecorderClock: Sendable {
    /// Seconds since 1970.
    package var now: @Sendable () -> Double
    /// A monotonic nanosecond counter, for reducer durations.
    package var nanoseconds: @Sendable () -> UInt64

    package init(now: @escaping @Sendable () -> Double, nanoseconds: @escaping @Sendable () -> UInt64) {
        self.now = now
        self.nanoseconds = nanoseconds
    }

    package static let system = RecorderClock(
        now: { Date().timeIntervalSince1970 },
        nanoseconds: { Platform.monotonicNanoseconds() })

    /// A clock for reproducible logs: the recording starts at `start` (seconds
    /// since 1970), the n-th reducer call ends `n × step` seconds later and takes 1 µs.
    /// (Every recorded call reads the monotonic clock twice, around the reducer.)
    package static func fixed(start: Double, step: Double) -> RecorderClock {
        let readings = Locked(0 as UInt64)
        let stepNanoseconds = UInt64(step * 1e9)
        return RecorderClock(
            now: { start },
            nanoseconds: {
                let reading = readings.withLock { count in
                    defer { count += 1 }
                    return count
                }
                // Reading 0 is the recorder's base; then (start, end) pairs.
                return (reading + 1) / 2 * stepNanoseconds - (reading % 2 == 1 ? 1000 : 0)
            })
    }
}
