import Foundation
import Recorder
import RewindJSON

// The todo-list workload the recorder's benchmarks record (RecordingCostBenchmarks.swift),
// and the writer's throughput on it.
//
//   swift run -c release rewind-bench recorder
func runRecordingWorkloads() {
    let quick = Benchmark.quick
    let costs = runRecordingCost(todoCounts: quick ? [14, 1_000] : [100, 10_000])
    printRecordingCostTable(costs)
    smallStateWriterThroughput(entries: quick ? 2_000 : 50_000)
}

/// The table of docs/PERFORMANCE.md, `## Recorder`: state sizes from 1 kB to 10 MB
/// (`--todos=100,10000` measures only those sizes).
///
///   swift run -c release rewind-bench recording-table
func runRecordingCostTable() {
    print("\n## recording-table")
    let requested = CommandLine.arguments.first { $0.hasPrefix("--todos=") }
        .map { $0.dropFirst("--todos=".count).split(separator: ",").compactMap { Int($0) } }
    let sizes = requested ?? (Benchmark.quick ? [14, 100] : [14, 100, 1_000, 10_000, 140_000])
    printRecordingCostTable(runRecordingCost(todoCounts: sizes))
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

/// The mixed actions, the same for a seed: 60 % toggle, 30 % rename, 10 % set filter.
func workloadActions(count: Int, todos: Int, seed: UInt64 = 1) -> [WorkloadAction] {
    var generator = SplitMix64(seed: seed)
    return (0..<count).map { index in
        switch index % 10 {
        case 0..<6: .toggle(Int.random(in: 0..<todos, using: &generator))
        case 6..<9: .rename(Int.random(in: 0..<todos, using: &generator), "Renamed \(index)")
        default: .setFilter(["all", "active", "done"][index % 3])
        }
    }
}

func workloadReducer(_ state: inout WorkloadState, _ action: WorkloadAction) {
    switch action {
    case .toggle(let index): state.todos[index].done.toggle()
    case .rename(let index, let title): state.todos[index].title = title
    case .setFilter(let filter): state.filter = filter
    }
    state.edits += 1
}

/// Entries written per second for a state of about 1 kB, measured from the
/// first dispatch until everything is on disk.
private func smallStateWriterThroughput(entries: Int) {
    let directory = NSTemporaryDirectory() + "rewind-bench-throughput-\(getpid())"
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let initial = WorkloadState(todos: 14)
    let bytes = (try? JSONEncoding.compact(initial))?.count ?? 0
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

/// An untimed loop for a profiler: the 100-todo workload dispatched at an app's pace
/// (one action every 2 ms, 5,000 actions), the caller's thread is what to look at.
func runPaceProfileLoop() {
    let path = NSTemporaryDirectory() + "rewind-pace-profile.jsonl"
    try? FileManager.default.removeItem(atPath: path)
    guard let recorder = try? ActionRecorder(file: path) else { return }
    let reducer = recorder.recording(workloadReducer)
    var state = WorkloadState(todos: 100)
    let count = Int(ProcessInfo.processInfo.environment["REWIND_BENCH_ACTIONS"] ?? "") ?? 5_000
    for action in workloadActions(count: count, todos: 100) {
        usleep(2_000)
        reducer(&state, action)
    }
    try? recorder.close()
}
