import Foundation
import Recorder

// The whole recording path on a todo-list workload, against baselines in the
// same run: what `JSONEncoder` alone and Rewind's byte encoder alone spend
// encoding the same states, and a bare reducer that keeps the previous state
// by value (what any recorder must at least do).
//
//   swift run -c release rewind-bench recorder
func runRecordingWorkloads() {
    let quick = Benchmark.quick
    recordingWorkload(todos: quick ? 1_000 : 10_000, actions: quick ? 100 : 1_000)
    recordingWorkload(todos: 100, actions: quick ? 300 : 3_000)
    smallStateWriterThroughput(entries: quick ? 2_000 : 50_000)
}

struct WorkloadTodo: Codable {
    var id: Int
    var title: String
    var done: Bool
    var tags: [String]
}

struct WorkloadState: Codable {
    var todos: [WorkloadTodo]
    var filter = "all"
    var edits = 0

    init(todos: Int) {
        self.todos = (0..<todos).map { WorkloadTodo(id: $0, title: "Todo number \($0)", done: $0 % 3 == 0, tags: $0 % 5 == 0 ? ["home"] : []) }
    }
}

enum WorkloadAction: Codable {
    case toggle(Int)
    case rename(Int, String)
    case setFilter(String)
}

private func workloadActions(count: Int, todos: Int) -> [WorkloadAction] {
    var generator = SystemRandomNumberGenerator()
    return (0..<count).map { index in
        switch index % 10 {
        case 0..<6: .toggle(Int.random(in: 0..<todos, using: &generator))
        case 6..<9: .rename(Int.random(in: 0..<todos, using: &generator), "Renamed \(index)")
        default: .setFilter(["all", "active", "done"][index % 3])
        }
    }
}

private func workloadReducer(_ state: inout WorkloadState, _ action: WorkloadAction) {
    switch action {
    case .toggle(let index): state.todos[index].done.toggle()
    case .rename(let index, let title): state.todos[index].title = title
    case .setFilter(let filter): state.filter = filter
    }
    state.edits += 1
}

private func recordingWorkload(todos: Int, actions count: Int) {
    let actions = workloadActions(count: count, todos: todos)
    var states: [WorkloadState] = []
    var state = WorkloadState(todos: todos)
    let initial = state
    for action in actions {
        workloadReducer(&state, action)
        states.append(state)
    }
    let stateBytes = (try? JSONEncoding.bytes(of: states[0]))?.count ?? 0
    print("workload: \(todos) todos (\(stateBytes / 1000) kB state), \(count) mixed actions (toggle, rename, set filter)")

    // Baselines, per action: each encoder alone on the same states (a sample, for JSONEncoder's sake).
    // CPU time as well as wall time: this machine is shared, and CPU time is what the app pays.
    let sample = Array(states.prefix(todos >= 10_000 ? 30 : 300))
    let encoder = JSONEncoder()
    var foundation = (wall: Double.infinity, cpu: Double.infinity), bytes = foundation
    for _ in 0..<(Benchmark.quick ? 1 : 5) {
        let f = Benchmark.onceWithCPU { for state in sample { _ = try? encoder.encode(state) } }
        let b = Benchmark.onceWithCPU { for state in sample { _ = try? JSONEncoding.bytes(of: state) } }
        foundation = (min(foundation.wall, f.wall), min(foundation.cpu, f.cpu))
        bytes = (min(bytes.wall, b.wall), min(bytes.cpu, b.cpu))
    }
    let perSample = Double(sample.count)

    // The whole recording: every dispatch, then close() until all is on disk.
    let directory = NSTemporaryDirectory() + "rewind-bench-workload-\(getpid())"
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    var whole = (wall: Double.infinity, cpu: Double.infinity), encodingAll = whole
    var logBytes = 0
    let path = directory + "/workload.jsonl"
    // Each round also records with reuse of unchanged values off, to show what it saves.
    for _ in 0..<(Benchmark.quick ? 1 : 3) {
        for reusing in [true, false] {
            try? FileManager.default.removeItem(atPath: path)
            var options = ActionRecorder.Options()
            options.reusesUnchangedValues = reusing
            guard let recorder = try? ActionRecorder(file: path, options: options) else { return print("cannot record to \(path)") }
            let reducer = recorder.recording(workloadReducer)
            var recorded = initial
            let run = Benchmark.onceWithCPU {
                for action in actions { reducer(&recorded, action) }
                try? recorder.close()
            }
            if reusing {
                whole = (min(whole.wall, run.wall), min(whole.cpu, run.cpu))
                logBytes = Int((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0)
            } else {
                encodingAll = (min(encodingAll.wall, run.wall), min(encodingAll.cpu, run.cpu))
            }
        }
    }
    let n = Double(count)
    Benchmark.report("whole recording per action, CPU (caller + writer)", Benchmark.format(seconds: whole.cpu / n),
                     baseline: "JSONEncoder " + Benchmark.format(seconds: foundation.cpu / perSample), ratio: (whole.cpu / n) / (foundation.cpu / perSample))
    Benchmark.report("  against the byte encoder alone, CPU", Benchmark.format(seconds: whole.cpu / n),
                     baseline: "bytes " + Benchmark.format(seconds: bytes.cpu / perSample), ratio: (whole.cpu / n) / (bytes.cpu / perSample))
    Benchmark.report("  with reuse of unchanged values off, CPU", Benchmark.format(seconds: encodingAll.cpu / n),
                     baseline: "bytes " + Benchmark.format(seconds: bytes.cpu / perSample), ratio: (encodingAll.cpu / n) / (bytes.cpu / perSample))
    Benchmark.report("  wall clock, first dispatch to close()", Benchmark.format(seconds: whole.wall / n),
                     baseline: "JSONEncoder " + Benchmark.format(seconds: foundation.wall / perSample), ratio: (whole.wall / n) / (foundation.wall / perSample))

    // The caller's thread while the writer keeps up: each dispatch timed alone, the writer drained in between.
    var bare = initial
    var kept = bare
    var callerTimes: [Double] = [], bareTimes: [Double] = []
    let callerPath = directory + "/caller.jsonl"
    if let recorder = try? ActionRecorder(file: callerPath) {
        let reducer = recorder.recording(workloadReducer)
        var recorded = initial
        for action in actions.prefix(Benchmark.quick ? 50 : 500) {
            bareTimes += [Benchmark.once {
                kept = bare
                workloadReducer(&bare, action)
            }]
            callerTimes += [Benchmark.once { reducer(&recorded, action) }]
            try? recorder.flush()
        }
        try? recorder.close()
    }
    _ = kept
    // Medians: single dispatches are short, and a neighbour's load lands on a few of them.
    func median(_ times: [Double]) -> Double { times.isEmpty ? 0 : times.sorted()[times.count / 2] }
    Benchmark.report("caller's thread per action, writer keeping up", Benchmark.format(seconds: median(callerTimes)),
                     baseline: "bare " + Benchmark.format(seconds: median(bareTimes)))
    Benchmark.report("  added per action (median)", Benchmark.format(seconds: median(callerTimes) - median(bareTimes)))
    let fullBytes = Double(stateBytes) * Double(count)
    Benchmark.report("log size, % of the full states' bytes", String(format: "%.2f MB", Double(logBytes) / 1e6),
                     baseline: String(format: "%.0f MB states", fullBytes / 1e6))
    print("  = \(String(format: "%.2f", Double(logBytes) / fullBytes * 100)) %")

    // Rebuilding the worst entries (the last before each keyframe, and the last entry), each from a
    // reader with an empty state cache, against parsing one keyframe-sized state. The two alternate,
    // eleven times per target, each figure the best of its eleven: a parse's speed changes with the
    // heap's state by up to 2× between runs here, so a baseline measured apart from the rebuilds would
    // flatter or wrong them. Both on the calling thread's CPU clock (the work runs there).
    guard let stateText = try? JSONEncoding.bytes(of: states[0]) else { return }
    guard let reader = try? LogReader(path: path) else { return }
    let keyframes = (0..<reader.entryCount).filter { reader.isKeyframe(at: $0) }
    let targets = (keyframes.dropFirst().map { $0 - 1 } + [reader.entryCount - 1]).filter { $0 >= 0 }
    // Rounds outside, targets inside: a target's eleven runs are spread over the whole measurement,
    // so a neighbour's burst on this shared box spoils one run of several targets, not every run of one.
    let chosen = targets.count > 40 ? stride(from: 0, to: targets.count, by: targets.count / 40).map({ targets[$0] }) : targets
    var rebuilds = [Double](repeating: .infinity, count: chosen.count), parses = rebuilds
    for _ in 0..<(Benchmark.quick ? 1 : 11) {
        for (slot, target) in chosen.enumerated() {
            parses[slot] = min(parses[slot], Benchmark.threadCPU { _ = try? JSONParser.parse(stateText) })
            guard let fresh = try? LogReader(path: path) else { continue }
            rebuilds[slot] = min(rebuilds[slot], Benchmark.threadCPU { _ = try? fresh.state(at: target) })
        }
    }
    var worst = (ratio: 0.0, rebuild: 0.0, parse: 0.0)
    for (rebuild, parse) in zip(rebuilds, parses) where rebuild / parse > worst.ratio { worst = (rebuild / parse, rebuild, parse) }
    Benchmark.report("rebuild the worst entry, CPU", Benchmark.format(seconds: worst.rebuild),
                     baseline: "parse " + Benchmark.format(seconds: worst.parse), ratio: worst.ratio)
    print("  keyframes: \(keyframes.count) of \(reader.entryCount) entries")
}

/// Entries written per second for a state of about 1 kB, measured from the
/// first dispatch until everything is on disk.
private func smallStateWriterThroughput(entries: Int) {
    let directory = NSTemporaryDirectory() + "rewind-bench-throughput-\(getpid())"
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let initial = WorkloadState(todos: 14)
    let bytes = (try? JSONEncoding.bytes(of: initial))?.count ?? 0
    let actions = workloadActions(count: entries, todos: 14)
    var best = (wall: Double.infinity, cpu: Double.infinity)
    for round in 0..<(Benchmark.quick ? 1 : 3) {
        let path = directory + "/small-\(round).jsonl"
        // Default options: a queue of 1,024 entries, and the caller waits when it is full.
        guard let recorder = try? ActionRecorder(file: path) else { return }
        let reducer = recorder.recording(workloadReducer)
        var state = initial
        let run = Benchmark.onceWithCPU {
            for action in actions { reducer(&state, action) }
            try? recorder.close()
        }
        best = (min(best.wall, run.wall), min(best.cpu, run.cpu))
    }
    Benchmark.report("writer throughput, \(bytes)-byte state, wall", "\(Int(Double(entries) / best.wall))/s")
    Benchmark.report("  entries per CPU second (caller + writer)", "\(Int(Double(entries) / best.cpu))/s")
}

/// An untimed loop for a profiler: 200,000 entries of a 1 kB state, then
/// the 100-todo workload (`writer-profile`), or only the latter, ten times
/// (`writer-profile-100`), or the 10,000-todo workload three times (`writer-profile-10k`).
func runWriterProfileLoop(onlyHundredTodos: Bool = false, todos: Int = 100) {
    if !onlyHundredTodos && todos == 100 { smallStateWriterThroughput(entries: 200_000) }
    let path = NSTemporaryDirectory() + "rewind-writer-profile.jsonl"
    for _ in 0..<(onlyHundredTodos ? 10 : 3) {
        try? FileManager.default.removeItem(atPath: path)
        guard let recorder = try? ActionRecorder(file: path) else { return }
        let reducer = recorder.recording(workloadReducer)
        var state = WorkloadState(todos: todos)
        for action in workloadActions(count: todos > 100 ? 1_000 : 3_000, todos: todos) { reducer(&state, action) }
        try? recorder.close()
    }
}

/// Records the workload into a fresh log at `path`; returns the log's reader and its keyframes.
private func recordWorkloadLog(at path: String, todos: Int, actions: Int) -> (LogReader, [Int])? {
    try? FileManager.default.removeItem(atPath: path)
    guard let recorder = try? ActionRecorder(file: path) else { return nil }
    let reducer = recorder.recording(workloadReducer)
    var state = WorkloadState(todos: todos)
    for action in workloadActions(count: actions, todos: todos) { reducer(&state, action) }
    try? recorder.close()
    guard let reader = try? LogReader(path: path) else { return nil }
    return (reader, (0..<reader.entryCount).filter { reader.isKeyframe(at: $0) })
}

/// An untimed loop for a profiler: rebuilding the last entry of a 10,000-todo, 1,000-action log
/// (`rebuild-profile`), or the entries before each keyframe of the 100-todo, 3,000-action log
/// (`rebuild-profile-100`).
func runRebuildProfileLoop(hundredTodos: Bool = false) {
    let path = NSTemporaryDirectory() + "rewind-rebuild-profile.jsonl"
    guard let (first, keyframes) = recordWorkloadLog(at: path, todos: hundredTodos ? 100 : 10_000, actions: hundredTodos ? 3_000 : 1_000) else { return }
    let targets = hundredTodos ? keyframes.dropFirst().map { $0 - 1 } : [keyframes.count > 1 ? keyframes[1] - 1 : first.entryCount - 1]
    let rounds = hundredTodos ? 20 : 30
    var total = 0.0
    // REWIND_BENCH_FRESH_READER=1: each rebuild from its own reader (opened beforehand), as the
    // recorder benchmark measures them; with REWIND_BENCH_KEYFRAMES=1 the keyframes themselves
    // are rebuilt, which is the fixed cost of a rebuild plus one parse.
    let environment = ProcessInfo.processInfo.environment
    if environment["REWIND_BENCH_FRESH_READER"] != nil {
        let chosen = Array((environment["REWIND_BENCH_KEYFRAMES"] != nil ? Array(keyframes.dropFirst()) : targets).prefix(100))
        for _ in 0..<rounds {
            let readers = chosen.compactMap { _ in try? LogReader(path: path) }
            total += Benchmark.once { for (reader, target) in zip(readers, chosen) { _ = try? reader.state(at: target) } }
        }
        return print("rebuilt \(chosen.count * rounds) entries, a fresh reader each: \(Benchmark.format(seconds: total / Double(chosen.count * rounds))) each")
    }
    for _ in 0..<rounds {
        guard let reader = try? LogReader(path: path) else { return }
        total += Benchmark.once { for target in targets { _ = try? reader.state(at: target) } }
    }
    print("rebuilt \(targets.count * rounds) entries before a keyframe: \(Benchmark.format(seconds: total / Double(targets.count * rounds))) each")
}
