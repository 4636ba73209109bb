import Foundation
import Inspector
import Recorder

// The inspector's `:find` and `:bisect` against `rewind find` and `rewind bisect` on the
// same logs, in the same run (issue 34: the inspector runs the command's engine): a log
// the recorder writes with one 30 MB state (150,000 objects, the current format), and the
// inspector section's 1 GB / 1,000,000-entry log. The commands run as child processes;
// the inspector is driven without a terminal (`InspectorProbe.search`: Enter, the
// effects done, reports looked for as often as the session looks), from Enter until
// the answer is in the model. Targets: within 2× of the command on the 30 MB-state
// log, ≤ 3 s on the 1 GB log.
//
//   swift build -c release && swift run -c release rewind-bench search
//   swift run -c release rewind-bench --quick search      (a 3 MB state, 20,000 entries)
func runSearchBenchmarks() {
    print("\n## search (the inspector's :find and :bisect against rewind find and bisect)")
    guard let rewind = Benchmark.rewindExecutable(for: "search") else { return }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-bench-search-\(getpid())")
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }

    let hugeState = directory.appendingPathComponent("huge-state.jsonl").path
    let items = Benchmark.quick ? 15_000 : 150_000, entries = 200
    var written: (file: Int64, state: Int)?
    let writeSeconds = Benchmark.once { written = try? HugeStateLog.write(path: hugeState, items: items, entries: entries) }
    guard let written else {
        print("search: could not record \(hugeState)")
        return
    }
    print("one \(Benchmark.format3(Double(written.state) / 1e6)) MB state (\(items) objects), \(entries) entries, "
          + "\(Benchmark.format3(Double(written.file) / 1e6)) MB, recorded in \(Benchmark.format(seconds: writeSeconds)) by the recorder:")
    compareSearches(on: hugeState, rewind: rewind, last: entries - 1)

    let big = directory.appendingPathComponent("huge.jsonl").path
    let bigEntries = Benchmark.quick ? 20_000 : 1_000_000
    let bigBytes = BenchmarkLog.write(path: big, entries: bigEntries, keyframeInterval: 32, items: 24, noteBytes: 860)
    print("\(bigEntries) entries, \(Benchmark.format3(Double(bigBytes) / 1e6)) MB (the inspector section's log):")
    compareSearches(on: big, rewind: rewind, last: bigEntries - 1)
}

/// `find '/counter == last'` and `bisect '/counter < last'` (the last entry is the one match and the
/// first break) by the command and in the inspector, on `path`.
private func compareSearches(on path: String, rewind: String, last: Int) {
    for (command, query) in [("find", "/counter == \(last)"), ("bisect", "/counter < \(last)")] {
        guard let child = ChildRun.measure(rewind, [command, path, query]), child.status <= 1 else {
            print("search: rewind \(command) \(path) '\(query)' failed")
            continue
        }
        // Opened as `rewind` opens a log (indexed in the background), searched once the first screen is up.
        guard let probe = try? InspectorProbe(path: path, columns: 120, rows: 40, indexInBackground: true) else {
            print("search: cannot open \(path)")
            continue
        }
        probe.showFirstScreen()
        let run = probe.search("\(command) \(query)")
        Benchmark.report("  :\(command) '\(query)' (vs rewind \(command))", Benchmark.format(seconds: run.seconds),
                         baseline: Benchmark.format(seconds: child.seconds), ratio: child.seconds / run.seconds)
        if let cpu = child.cpuSeconds {
            Benchmark.report("    CPU, all threads (vs the command's)", Benchmark.format(seconds: run.cpuSeconds),
                             baseline: Benchmark.format(seconds: cpu), ratio: cpu / run.cpuSeconds)
        }
        Benchmark.report("    longest event (reduce + render)", Benchmark.format(seconds: run.longestEventSeconds))
        // The chunks wait for the background index to reach them: the answer cannot come before it.
        if let indexed = run.indexedSeconds { Benchmark.report("    whole file indexed after", Benchmark.format(seconds: indexed)) }
        if !run.message.contains("entry \(last + 1)") && !run.message.contains("1 entry matches") {
            print("  unexpected answer: \(run.message)")
        }
    }
}

/// A log the recorder writes with one large state: `items` objects of about 200 bytes,
/// one of them changed by each entry and `counter` set to the entry's index (so one
/// keyframe and small patches).
enum HugeStateLog {
    struct Item: Codable {
        var id: Int
        var name: String
        var value: Int
        var done: Bool
        var tags: [String]
    }

    struct State: Codable {
        var counter = 0
        var items: [Item]
    }

    enum Action: Codable {
        case update(item: Int, value: Int)
    }

    /// Records the log; returns its size and the size of its state, in bytes.
    static func write(path: String, items: Int, entries: Int) throws -> (file: Int64, state: Int) {
        try? FileManager.default.removeItem(atPath: path)
        var state = State(items: (0..<items).map { index in
            Item(id: index, name: "item number \(index) of the benchmark's huge state, padded to about two hundred bytes of JSON text",
                 value: 0, done: index % 3 == 0, tags: ["alpha", "beta"])
        })
        let stateBytes = try JSONEncoding.compact(state).count
        let recorder = try ActionRecorder(file: path)
        let reduce = recorder.recording { (state: inout State, action: Action) in
            guard case .update(let item, let value) = action else { return }
            state.items[item].value = value
            state.counter = value
        }
        for entry in 0..<entries { reduce(&state, .update(item: (entry * 7919) % items, value: entry)) }
        try recorder.close()
        let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value ?? 0
        return (size, stateBytes)
    }
}
