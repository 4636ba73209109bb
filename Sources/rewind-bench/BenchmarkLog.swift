import Foundation
import Recorder

/// The log most sections measure on (inspector, queries, history, readers, states, export,
/// search), recorded by the recorder itself: `ActionRecorder.recording(_:)` with a reducer, the
/// path an app's recording takes. So the figures are taken on the format users have, and any
/// change to how entries are written reaches the benchmarks without touching them.
///
/// Its shape: a state of `items` items (`{"id":…,"name":"item number …","value":…}`) and a
/// `counter`; entry n (from 0) sets `/counter` to n and item (n × 7919) mod `items`'s `value`
/// to n, with an action carrying a `noteBytes`-long note (`{"set":{"item":…,"to":…,"note":…}}`).
/// Every patch has those two operations; a keyframe every `keyframeInterval` entries exactly
/// (by count: the recorder's rule by read-back cost would place them by the state's size, and
/// the figures name the spacing). Times come from a fixed clock, so two runs write the same bytes.
enum BenchmarkLog {
    struct Item: Codable, Sendable {
        var id: Int
        var name: String
        var value: Int
    }

    struct State: Codable, Sendable {
        var counter = 0
        var items: [Item]
    }

    enum Action: Codable, Sendable {
        case set(item: Int, to: Int, note: String)
    }

    static func reduce(_ state: inout State, _ action: Action) {
        switch action {
        case .set(let item, let value, _):
            state.counter = value
            state.items[item].value = value
        }
    }

    /// Records the log at `path` (replacing any file there) and returns its size in bytes.
    /// Stops the process with a one-line error if the recorder fails or the log is not what
    /// a recording of today's recorder is (``checkIsCurrentFormat``).
    static func write(path: String, entries: Int, keyframeInterval: Int, items: Int, noteBytes: Int) -> Int64 {
        try? FileManager.default.removeItem(atPath: path)
        var options = ActionRecorder.Options()
        options.keyframeInterval = keyframeInterval
        options.keyframesByCost = false
        options.clock = .fixed(start: 1_764_400_000, step: 0.001)
        options.sessionID = "0000000000000000"   // with the fixed clock: two runs write the same bytes
        options.queueCapacity = 4096   // the benchmark dispatches faster than any app: larger batches, fewer wake-ups
        let note = String(String(repeating: "lorem ipsum ", count: noteBytes / 12 + 1).prefix(noteBytes))
        do {
            let recorder = try ActionRecorder(file: path, options: options)
            let record = recorder.recording(reduce)
            var state = State(items: (0..<items).map { Item(id: $0, name: "item number \($0)", value: 0) })
            for index in 0..<entries {
                record(&state, .set(item: (index * 7919) % items, to: index, note: note))
            }
            try recorder.close()
        } catch {
            fail("cannot record the benchmark log \(path): \(error)", removing: path)
        }
        checkIsCurrentFormat(path: path, entries: entries, keyframeInterval: keyframeInterval)
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value
        return size ?? 0
    }

    /// Stops the process unless the log at `path` reads as a recording of today's recorder
    /// with the shape the figures describe: the current format version, records chained to
    /// their session, nothing damaged, every entry there, a keyframe exactly every
    /// `keyframeInterval` entries. The smoke run CI does (`rewind-bench --quick`) runs this
    /// on every benchmark log, so a log written any other way fails it.
    static func checkIsCurrentFormat(path: String, entries: Int, keyframeInterval: Int) {
        let reader: LogReader
        do {
            reader = try LogReader(path: path)
        } catch {
            fail("the benchmark log does not read: \(error)", removing: path)
        }
        let problem: String? =
            if reader.header.version != LogLine.formatVersion {
                "is format \(reader.header.version), not the current \(LogLine.formatVersion)"
            } else if reader.lastRecordSeal?.number == nil {
                "has records not chained to their session (format 1 framing)"
            } else if let damage = reader.damage.first {
                "has a damaged record: \(damage)"
            } else if reader.entryCount != entries {
                "has \(reader.entryCount) entries, not \(entries)"
            } else if let misplaced = (0..<entries).first(where: { reader.isKeyframe(at: $0) != ($0 % keyframeInterval == 0) }) {
                "has \(reader.isKeyframe(at: misplaced) ? "a keyframe" : "a patch") at entry index \(misplaced) "
                    + "(a keyframe every \(keyframeInterval) entries expected)"
            } else {
                nil
            }
        if let problem { fail("the benchmark log \(path) \(problem)", removing: path) }
    }

    /// Removes the log first: `exit` skips the sections' deferred clean-up, and the log may be a gigabyte.
    private static func fail(_ message: String, removing path: String) -> Never {
        try? FileManager.default.removeItem(atPath: path)
        FileHandle.standardError.write(Data("rewind-bench: \(message)\n".utf8))
        exit(1)
    }
}
