import Foundation
import Recorder
import RewindJSON

// What recording costs an app, per state size, on the product path: an app-shaped
// loop dispatching the todo workload through `recorder.recording(reducer)`, against
// the floor measured in the same run: the same reducer, bare, keeping its previous
// state by value (the copy-on-write copy any recorder's hand-off at least costs).
//
//   swift run -c release rewind-bench recorder          # 100 and 10,000 todos (7 kB and 727 kB), the targets
//   swift run -c release rewind-bench recording-table   # 14 todos (1 kB) … 140,000 todos (10 MB)
//   swift run -c release rewind-bench --quick recorder  # smoke run (CI)
//
// Per size: the caller's thread at an app's pace (one action every 5–10 ms, each
// dispatch timed, p50 and p99 against the floor's, and whether the writer had written
// each entry before the next action came); a burst of back-to-back actions (each
// dispatch timed against the floor's, peak resident memory above the start, and the
// whole recording's CPU per action against `JSONEncoder` encoding the same states);
// the log's size against the full states' bytes; and the worst rebuild against its
// bound, max(2 parses of the state, 0.25 ms).

/// What one state size costs; printed as rows, and as one line of the table.
struct RecordingCost {
    var todos = 0
    var stateBytes = 0
    var wholeCPUPerAction = Double.infinity
    var jsonEncoderPerState = Double.infinity
    var pace = PaceFigures()
    var burst = BurstFigures()
    var logBytes = 0
    var fullStateBytes = 0
    var keyframes = 0
    var entries = 0
    /// The burst's log by record kind and by member.
    var composition: LogComposition?
    var rebuild = RebuildFigures()

    struct PaceFigures {
        var caller: [Double] = []
        var floor: [Double] = []
        /// Entries the writer had not yet written when the next action came.
        var behind = 0
    }

    struct BurstFigures {
        var caller: [Double] = []
        var floor: [Double] = []
        var peakBytes: [Int] = []
        var floorPeakBytes: [Int] = []
    }

    struct RebuildFigures {
        var worst = 0.0
        var parse = 0.0
        /// The worst rebuild over its bound, max(2 parses, 0.25 ms): at most 1 when every rebuild is within it.
        var worstOverBound = 0.0
        var measured = 0
    }
}

/// The rebuild bound the keyframe rule keeps (docs/FORMAT.md, "Keyframes").
let rebuildBoundFloorSeconds = 0.000_25

func runRecordingCost(todoCounts: [Int]) -> [RecordingCost] {
    var template = Array("/tmp/rewind-bench-cost-XXXXXX".utf8CString)
    let directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    defer { try? FileManager.default.removeItem(atPath: directory) }
    return todoCounts.map { measureRecordingCost(todos: $0, in: directory) }
}

private func measureRecordingCost(todos: Int, in directory: String) -> RecordingCost {
    let quick = Benchmark.quick
    var cost = RecordingCost()
    cost.todos = todos
    let initial = WorkloadState(todos: todos)
    cost.stateBytes = (try? JSONEncoding.compact(initial))?.count ?? 0
    let huge = cost.stateBytes > 2_000_000
    let burstLength = quick ? 50 : 1_000
    let actions = workloadActions(count: burstLength, todos: todos, seed: UInt64(todos))
    print("\nstate: \(todos) todos, \(formatBytes(cost.stateBytes)) encoded; \(burstLength) mixed actions (60 % toggle, 30 % rename, 10 % set filter)")

    // JSONEncoder alone on states of the workload (a sample: it is slow), the best of three.
    var sample: [WorkloadState] = []
    var state = initial
    for action in actions.prefix(quick ? 3 : (huge ? 3 : (todos >= 10_000 ? 20 : 200))) {
        workloadReducer(&state, action)
        sample.append(state)
    }
    let encoder = JSONEncoder()
    for _ in 0..<(quick ? 1 : 3) {
        let run = Benchmark.onceWithCPU { for state in sample { _ = try? encoder.encode(state) } }
        cost.jsonEncoderPerState = min(cost.jsonEncoderPerState, run.cpu / Double(sample.count))
    }
    sample = []

    // Bursts: 1,000 actions back to back, each dispatch timed; the floor's burst and the
    // recorder's alternate. The recorder's run lasts until close() has written everything:
    // its CPU time (every thread) is the whole recording's cost.
    let path = directory + "/burst-\(todos).jsonl"
    for _ in 0..<(quick || huge ? 1 : 3) {
        var floorTimes = [Double](repeating: 0, count: actions.count)
        var bare = initial
        var kept = bare
        let floorStart = PeakResident.start()
        for (index, action) in actions.enumerated() {
            floorTimes[index] = timedDispatch {
                kept = bare
                workloadReducer(&bare, action)
            }
        }
        cost.burst.floorPeakBytes.append(floorStart.peakAbove())
        cost.burst.floor += floorTimes
        _ = kept
        (bare, kept) = (initial, initial)

        try? FileManager.default.removeItem(atPath: path)
        guard let recorder = try? ActionRecorder(file: path) else {
            print("cannot record to \(path)")
            return cost
        }
        let reducer = recorder.recording(workloadReducer)
        var recorded = initial
        var callerTimes = [Double](repeating: 0, count: actions.count)
        let start = PeakResident.start()
        let run = Benchmark.onceWithCPU {
            for (index, action) in actions.enumerated() {
                callerTimes[index] = timedDispatch { reducer(&recorded, action) }
            }
            try? recorder.close()
        }
        cost.burst.peakBytes.append(start.peakAbove())
        cost.burst.caller += callerTimes
        cost.wholeCPUPerAction = min(cost.wholeCPUPerAction, run.cpu / Double(actions.count))
    }
    cost.logBytes = Int((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0)
    cost.fullStateBytes = cost.stateBytes * actions.count
    cost.composition = LogComposition(logAt: path)

    cost.pace = appPace(todos: todos, initial: initial, samples: quick ? 10 : (huge ? 100 : 300), in: directory)
    cost.rebuild = worstRebuild(logAt: path, stateBytes: cost.stateBytes, initial: initial, rounds: quick ? 1 : (huge ? 3 : 11),
                                keyframes: &cost.keyframes, entries: &cost.entries)
    report(cost)
    return cost
}

/// Actions at an app's pace: a pause of 5–10 ms (the app idle, the writer free to
/// write), then one dispatch, timed; the floor's dispatch and the recorder's alternate,
/// so the two meet the same load. Before each recorded dispatch, the log's size says
/// whether the writer had written the previous entry.
private func appPace(todos: Int, initial: WorkloadState, samples: Int, in directory: String) -> RecordingCost.PaceFigures {
    var figures = RecordingCost.PaceFigures()
    let path = directory + "/pace-\(todos).jsonl"
    try? FileManager.default.removeItem(atPath: path)
    guard let recorder = try? ActionRecorder(file: path) else { return figures }
    defer { try? recorder.close() }
    let reducer = recorder.recording(workloadReducer)
    let actions = workloadActions(count: samples, todos: todos, seed: UInt64(todos) &+ 1)
    var random = SplitMix64(seed: 35)
    func pause() {
        let microseconds = Benchmark.quick ? 500 : Int.random(in: 5_000...10_000, using: &random)
        usleep(useconds_t(microseconds))
    }
    func logSize() -> Int {
        var status = stat()
        return stat(path, &status) == 0 ? Int(status.st_size) : 0
    }
    var bare = initial
    var kept = bare
    var recorded = initial
    var lastSize = -1
    for action in actions {
        pause()
        figures.floor.append(timedDispatch {
            kept = bare
            workloadReducer(&bare, action)
        })
        pause()
        let size = logSize()
        if lastSize >= 0 && size == lastSize { figures.behind += 1 }
        lastSize = size
        figures.caller.append(timedDispatch { reducer(&recorded, action) })
    }
    _ = kept
    return figures
}

/// Rebuilds the worst entries of the log (the last before each keyframe, and the last
/// entry), each from a reader with an empty state cache, against parsing the state once;
/// each target and its parse alternate `rounds` times, each figure the best of its rounds
/// (a parse's speed changes with the heap's state between runs here, so a baseline
/// measured apart would flatter or wrong them). Both on the calling thread's CPU clock.
private func worstRebuild(
    logAt path: String, stateBytes: Int, initial: WorkloadState, rounds: Int, keyframes: inout Int, entries: inout Int
) -> RecordingCost.RebuildFigures {
    var figures = RecordingCost.RebuildFigures()
    guard let stateText = try? JSONEncoding.compact(initial), let reader = try? LogReader(path: path) else { return figures }
    let keyframeEntries = (0..<reader.entryCount).filter { reader.isKeyframe(at: $0) }
    keyframes = keyframeEntries.count
    entries = reader.entryCount
    let targets = (keyframeEntries.dropFirst().map { $0 - 1 } + [reader.entryCount - 1]).filter { $0 >= 0 }
    let chosen = targets.count > 40 ? stride(from: 0, to: targets.count, by: targets.count / 40).map({ targets[$0] }) : targets
    var rebuilds = [Double](repeating: .infinity, count: chosen.count), parses = rebuilds
    // Rounds outside, targets inside: a neighbour's burst on a shared box spoils one run of
    // several targets, not every run of one.
    for _ in 0..<rounds {
        for (slot, target) in chosen.enumerated() {
            parses[slot] = min(parses[slot], Benchmark.threadCPU { _ = try? JSONParser.parse(stateText) })
            guard let fresh = try? LogReader(path: path) else { continue }
            rebuilds[slot] = min(rebuilds[slot], Benchmark.threadCPU { _ = try? fresh.state(at: target) })
        }
    }
    figures.measured = chosen.count
    for (rebuild, parse) in zip(rebuilds, parses) {
        let overBound = rebuild / max(2 * parse, rebuildBoundFloorSeconds)
        if overBound > figures.worstOverBound { (figures.worstOverBound, figures.worst, figures.parse) = (overBound, rebuild, parse) }
    }
    return figures
}

private func report(_ cost: RecordingCost) {
    let f = Benchmark.format(seconds:)
    func row(_ name: String, _ figure: String, _ baseline: String = "") {
        print(name.padding(toLength: 46, withPad: " ", startingAt: 0) + figure.padding(toLength: 24, withPad: " ", startingAt: 0) + baseline)
    }
    let pace = cost.pace, burst = cost.burst
    row("whole recording, CPU per action", f(cost.wholeCPUPerAction),
        "JSONEncoder alone \(f(cost.jsonEncoderPerState)): " + String(format: "%.3f×", cost.wholeCPUPerAction / cost.jsonEncoderPerState))
    row("caller at an app's pace, p50 / p99", "\(f(percentile(pace.caller, 50))) / \(f(percentile(pace.caller, 99)))",
        "floor \(f(percentile(pace.floor, 50))) / \(f(percentile(pace.floor, 99)))")
    row("  above the floor, p50 / p99", "\(signed(percentile(pace.caller, 50) - percentile(pace.floor, 50))) / \(signed(percentile(pace.caller, 99) - percentile(pace.floor, 99)))",
        "writer behind at the next action: \(pace.behind) of \(pace.caller.count)")
    row("caller in a burst, p50 / p99", "\(f(percentile(burst.caller, 50))) / \(f(percentile(burst.caller, 99)))",
        "floor \(f(percentile(burst.floor, 50))) / \(f(percentile(burst.floor, 99)))")
    row("peak resident memory in the burst", rangeText(burst.peakBytes), "floor " + rangeText(burst.floorPeakBytes))
    row("log, % of the full states", String(format: "%.2f %%", Double(cost.logBytes) / Double(max(1, cost.fullStateBytes)) * 100),
        "\(formatBytes(cost.logBytes)) of \(formatBytes(cost.fullStateBytes)); keyframes: \(cost.keyframes) of \(cost.entries) entries")
    for (name, figure) in cost.composition?.report(fullStateBytes: cost.fullStateBytes) ?? [] { row(name, figure) }
    row("worst rebuild, CPU (\(cost.rebuild.measured) measured)", f(cost.rebuild.worst),
        "bound \(f(max(2 * cost.rebuild.parse, rebuildBoundFloorSeconds))) (one parse \(f(cost.rebuild.parse))): " + String(format: "%.2f×", cost.rebuild.worstOverBound))
}

/// The table docs/PERFORMANCE.md shows, one line per state size (Markdown).
func printRecordingCostTable(_ costs: [RecordingCost]) {
    let f = Benchmark.format(seconds:)
    print("\n| State | Whole recording, CPU per action (× `JSONEncoder`) | Caller at an app's pace, p50 / p99 (floor) | Writer behind | Log, % of full states | Worst rebuild (bound) | Burst: caller p50 / p99 (floor) | Burst: peak memory (floor) |")
    print("|---|---|---|---|---|---|---|---|")
    for cost in costs {
        let pace = cost.pace, burst = cost.burst
        let row = [
            "\(cost.todos) todos, \(formatBytes(cost.stateBytes))",
            "\(f(cost.wholeCPUPerAction)) (\(String(format: "%.3f", cost.wholeCPUPerAction / cost.jsonEncoderPerState))×)",
            "\(f(percentile(pace.caller, 50))) / \(f(percentile(pace.caller, 99))) (\(f(percentile(pace.floor, 50))) / \(f(percentile(pace.floor, 99))))",
            "\(pace.behind) of \(pace.caller.count)",
            String(format: "%.2f %%", Double(cost.logBytes) / Double(max(1, cost.fullStateBytes)) * 100),
            "\(f(cost.rebuild.worst)) (\(f(max(2 * cost.rebuild.parse, rebuildBoundFloorSeconds))))",
            "\(f(percentile(burst.caller, 50))) / \(f(percentile(burst.caller, 99))) (\(f(percentile(burst.floor, 50))) / \(f(percentile(burst.floor, 99))))",
            "\(rangeText(burst.peakBytes)) (\(rangeText(burst.floorPeakBytes)))",
        ]
        print("| " + row.joined(separator: " | ") + " |")
    }
}

/// Seconds one dispatch took, read straight from the system's monotonic clock (the
/// recorder's own), so the timing adds as little code as possible around a call that
/// takes microseconds.
@inline(__always)
private func timedDispatch(_ body: () -> Void) -> Double {
    let start = Platform.monotonicNanoseconds()
    body()
    return Double(Platform.monotonicNanoseconds() &- start) / 1e9
}

/// A difference of times, with its sign: "+2.1 µs", "−48.3 µs".
private func signed(_ seconds: Double) -> String {
    (seconds < 0 ? "−" : "+") + Benchmark.format(seconds: abs(seconds))
}

/// The `p`-th percentile (nearest rank) of `times`; 0 for none.
func percentile(_ times: [Double], _ p: Double) -> Double {
    guard !times.isEmpty else { return 0 }
    let sorted = times.sorted()
    let rank = Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1
    return sorted[min(max(rank, 0), sorted.count - 1)]
}

private func rangeText(_ bytes: [Int]) -> String {
    guard let low = bytes.min(), let high = bytes.max() else { return "–" }
    return low == high || formatBytes(low) == formatBytes(high) ? formatBytes(high) : formatBytes(low) + "–" + formatBytes(high)
}

func formatBytes(_ bytes: Int) -> String {
    let value = Double(bytes)
    if value >= 1e6 { return String(format: "%.1f MB", value / 1e6) }
    if value >= 1e3 { return String(format: "%.1f kB", value / 1e3) }
    return "\(bytes) B"
}

/// The process's peak resident memory from a point on (Linux: the peak is reset through
/// `/proc/self/clear_refs` and read back as `VmHWM`); 0 where that is not available.
struct PeakResident {
    let startBytes: Int

    static func start() -> PeakResident {
        #if os(Linux)
        if let file = fopen("/proc/self/clear_refs", "w") {
            fputs("5", file)
            fclose(file)
        }
        #endif
        return PeakResident(startBytes: Benchmark.residentBytes())
    }

    /// The peak since ``start()``, above what was resident then.
    func peakAbove() -> Int {
        #if os(Linux)
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return max(0, kilobytes * 1024 - startBytes)
        #else
        return 0
        #endif
    }
}
