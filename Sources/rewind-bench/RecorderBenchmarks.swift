import Foundation
import Recorder

// What recording costs the app: time added per action on the caller's thread
// against the bare reducer (same reducer, same run), for a small state and a
// 10,000-element state; the writer thread's throughput; and the keyframe
// interval's trade-off between log size and the time to rebuild a state.
//
//   swift run -c release rewind-bench recorder
//   swift run -c release rewind-bench --quick recorder
func runRecorderBenchmarks() {
    print("\n## recorder")
    var template = Array("/tmp/rewind-bench-recorder-XXXXXX".utf8CString)
    let directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    defer { try? FileManager.default.removeItem(atPath: directory) }

    let quick = Benchmark.quick
    runRecordingWorkloads()
    callerCost(name: "small state", state: SmallState(), burst: quick ? 200 : 2_000, in: directory) { state, action in
        state.count += action
        state.label = action % 2 == 0 ? "even" : "odd"
    }
    let items = quick ? 1_000 : 10_000
    callerCost(name: "\(items)-element state", state: LargeState(items: items), burst: quick ? 20 : 200, in: directory) { state, action in
        state.items[action % state.items.count].value += 1
        state.total += 1
    }
    durabilityCost(in: directory, entries: quick ? 100 : 2_000)
    print("keyframe interval K: \(quick ? 200 : 2_000) entries of a \(quick ? 100 : 1_000)-item state")
    keyframeIntervals(in: directory, entries: quick ? 200 : 2_000, items: quick ? 100 : 1_000)
}

struct SmallState: Codable {
    var count = 0
    var label = ""
    var flags = [true, false]
}

struct LargeState: Codable {
    struct Item: Codable {
        var id: Int
        var name: String
        var value: Int
    }
    var items: [Item]
    var total = 0
    init(items: Int) { self.items = (0..<items).map { Item(id: $0, name: "item \($0)", value: 0) } }
}

/// Caller's-thread time per action, bare and recorded, over bursts that fit the
/// queue (the writer drains between bursts, untimed); then the writer's throughput.
private func callerCost<State>(
    name: String, state initial: State, burst: Int, in directory: String, reducer: @escaping (inout State, Int) -> Void
) {
    var state = initial
    let bare = Benchmark.measure(rounds: 5, minimumSeconds: 0) {
        for action in 0..<burst { reducer(&state, action) }
    } / Double(burst)

    var options = ActionRecorder.Options()
    options.queueCapacity = burst + 1
    options.queueBytes = .max  // the bursts fit the queue whatever the state's size: this measures the hand-off alone
    let path = directory + "/caller-\(name.filter(\.isLetter)).jsonl"
    guard let recorder = try? ActionRecorder(file: path, options: options) else { return print("recorder: cannot create \(path)") }
    let recording = recorder.recording(reducer)
    state = initial
    var best = Double.infinity
    for _ in 0..<(Benchmark.quick ? 1 : 5) {
        best = min(best, Benchmark.once { for action in 0..<burst { recording(&state, action) } } / Double(burst))
        try? recorder.flush()
    }
    Benchmark.report("caller's thread per action, \(name)", Benchmark.format(seconds: best),
                     baseline: "bare " + Benchmark.format(seconds: bare), ratio: best / bare)
    Benchmark.report("  added per action, \(name)", Benchmark.format(seconds: max(0, best - bare)))

    // Sustained: a burst bigger than the writer can absorb, timed until written.
    let entries = burst * 2
    let throughputSeconds = Benchmark.once {
        for action in 0..<entries { recording(&state, action) }
        try? recorder.flush()
    }
    try? recorder.close()
    let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    Benchmark.report("writer throughput, \(name)", String(Int(Double(entries) / throughputSeconds)) + "/s",
                     baseline: String(format: "%.1f", Double(size) / 1e6) + " MB log")
}

/// What each durability mode costs: small-state entries recorded and written
/// per second, from the first action until `flush()` returns.
private func durabilityCost(in directory: String, entries: Int) {
    // The first run warms the file system and the encoder up; it is not reported.
    let modes: [(String, ActionRecorder.Durability)] = [
        ("", .write), ("write (default)", .write), ("fsync every 0.1 s", .fsync(interval: 0.1)),
        ("fsync each record", .fsyncEachRecord),
    ]
    var baseline = 0.0
    for (name, durability) in modes {
        var options = ActionRecorder.Options()
        options.durability = durability
        let path = directory + "/durability-\(name.filter(\.isLetter))-\(modes.count).jsonl"
        guard let recorder = try? ActionRecorder(file: path, options: options) else { return print("recorder: cannot create \(path)") }
        let reducer = recorder.recording { (state: inout SmallState, action: Int) in state.count += action }
        var state = SmallState()
        // Each-record syncs are slow: fewer entries keep the run short.
        let count = durability == .fsyncEachRecord ? max(20, entries / 10) : entries
        let seconds = Benchmark.once {
            for action in 0..<count { reducer(&state, action) }
            try? recorder.flush()
        }
        try? recorder.close()
        let rate = Double(count) / seconds
        if name.isEmpty { continue }
        if baseline == 0 { baseline = rate }
        Benchmark.report("durability \(name), written/s", String(Int(rate)) + "/s",
                         baseline: "write " + String(Int(baseline)) + "/s", ratio: baseline / rate)
    }
}

/// Log size and state rebuild time for several keyframe intervals K.
private func keyframeIntervals(in directory: String, entries: Int, items: Int) {
    for interval in [1, 8, 16, 32, 64, 128] {
        var options = ActionRecorder.Options()
        options.keyframeInterval = interval
        let path = directory + "/k\(interval).jsonl"
        guard let recorder = try? ActionRecorder(file: path, options: options) else { return }
        let reducer = recorder.recording { (state: inout LargeState, action: Int) in
            state.items[(action * 7919) % state.items.count].value += action
            state.total += 1
        }
        var state = LargeState(items: items)
        for action in 0..<entries { reducer(&state, action) }
        try? recorder.close()
        guard let reader = try? LogReader(path: path) else { return }
        // Worst case: entries just before a keyframe (K-1 patches each), each rebuilt once (cold cache).
        let targets = Array(stride(from: interval - 1, to: entries, by: interval).prefix(40))
        let worst = Benchmark.once {
            for target in targets { _ = try? reader.state(at: target) }
        } / Double(max(1, targets.count))
        let size = reader.byteCount
        Benchmark.report("K=\(interval): log size; rebuild before a keyframe", String(format: "%.2f MB", Double(size) / 1e6),
                         baseline: Benchmark.format(seconds: worst))
    }
}
