import Foundation
import Recorder

/// A counter recorded by today's recorder into a log whose entry numbers are not
/// positions: a `.drop` queue that overflowed, a state too deep for a log record,
/// and a second recording session.
///
///     1 inc · 2 inc · 3–5 dropped · 6 inc · 7 deep (not recorded) · 8 inc · [new session] 9 inc · 10 reset
///
/// The reader holds six entries, numbered 1, 2, 6, 8, 9 and 10. The second session
/// starts from a count of 100 with a note, so its states are larger than a patch:
/// entry 10 is written as a patch to entry 9's keyframe (all others are keyframes).
public struct GappedCounter: Codable, Equatable, Sendable {
    public indirect enum Chain: Codable, Equatable, Sendable { case end, link(Chain) }

    public var count: Int
    /// Set by `deep`: a chain nested too deep for a log record.
    public var chain: Chain?
    public var note: String?
    /// True only on the states the fixture records (not encoded, not compared): the writer's
    /// hold is for them alone. Other tests encode counts of 1 meanwhile (a replay of this log
    /// does), and one of them taking the hold let the fixture's writer run on unhindered.
    private var isFixtureState = false

    public init(count: Int = 0, note: String? = nil) {
        self.count = count
        self.note = note
    }

    public static func == (lhs: GappedCounter, rhs: GappedCounter) -> Bool {
        lhs.count == rhs.count && lhs.chain == rhs.chain && lhs.note == rhs.note
    }

    /// `inc` counts; `deep` counts too and nests a chain of 400 links (800 levels); `reset` counts from 0.
    public static func reduce(_ state: inout GappedCounter, _ action: GappedAction) {
        state.count = action == .reset ? 0 : state.count + 1
        state.chain = action == .deep ? (0..<400).reduce(.end) { chain, _ in .link(chain) } : nil
    }

    public func encode(to encoder: any Encoder) throws {
        // While the fixture writes its log, its writer stops here once, so the app's
        // next entries meet a full `.drop` queue.
        if count == 1 && isFixtureState { WriterHold.shared.holdIfArmed() }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(count, forKey: .count)
        try container.encodeIfPresent(chain, forKey: .chain)
        try container.encodeIfPresent(note, forKey: .note)
    }

    private enum CodingKeys: String, CodingKey { case count, chain, note }

    /// Writes the log described above at `path` (which must not exist yet) and returns `path`.
    @discardableResult
    public static func writeLog(at path: String) throws -> String {
        // One at a time: the writer's hold is shared by every test of the process.
        try WriterHold.shared.exclusively {
            var options = ActionRecorder.Options()
            options.queueCapacity = 1
            options.queuePolicy = .drop
            options.clock = .fixed(start: 1_764_000_000, step: 0.5)
            let recorder = try ActionRecorder(file: path, options: options)
            let reducer = recorder.recording(reduce)
            var state = GappedCounter()
            state.isFixtureState = true
            WriterHold.shared.arm()
            reducer(&state, .inc)                        // entry 1: the writer stops in its encoding
            WriterHold.shared.arrived.wait()
            for _ in 0..<4 { reducer(&state, .inc) }    // entry 2 waits in the queue; 3, 4 and 5 are dropped
            WriterHold.shared.release.signal()
            try recorder.flush()
            for action: GappedAction in [.inc, .deep, .inc] {   // 6, 7 (too deep: a gap), 8
                reducer(&state, action)
                try recorder.flush()
            }
            try recorder.close()

            var later = ActionRecorder.Options()
            later.clock = .fixed(start: 1_764_003_600, step: 0.5)
            let second = try ActionRecorder(file: path, options: later)
            var restarted = GappedCounter(count: 100, note: "opened again: a note that makes a patch smaller than the state")
            let reopened = second.recording(reduce)
            reopened(&restarted, .inc)                   // 9
            reopened(&restarted, .reset)                 // 10
            try second.close()
        }
        return path
    }

    /// Writes the log in a fresh directory of its own, as `gapped.jsonl`.
    public static func writeLog() throws -> String {
        try writeLog(at: TemporaryDirectory.forThisProcess.subdirectory("gaps-\(UUID().uuidString)") + "/gapped.jsonl")
    }
}

/// What ``GappedCounter`` records.
public enum GappedAction: Codable, Equatable, Sendable {
    case inc, deep, reset
}

/// Holds the recorder's writer inside one encoding, once it is armed.
private final class WriterHold: @unchecked Sendable {
    // `@unchecked`: `armed` is only touched under `lock`; the semaphores are thread-safe.
    static let shared = WriterHold()
    let arrived = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private let fixtureLock = NSLock()
    private var armed = false

    func exclusively<T>(_ body: () throws -> T) rethrows -> T {
        fixtureLock.lock()
        defer { fixtureLock.unlock() }
        return try body()
    }

    func arm() { lock.withLock { armed = true } }

    /// Waits for `release` when armed (and disarms): replaying the log encodes the same state unhindered.
    func holdIfArmed() {
        let holds = lock.withLock {
            defer { armed = false }
            return armed
        }
        guard holds else { return }
        arrived.signal()
        release.wait()
    }
}
