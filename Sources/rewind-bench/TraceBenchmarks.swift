import Foundation
import Recorder

// What `ActionRecorder.Options.trace` and recorded outside values cost the app: time per
// action on the caller's thread for a small state, recorded without a trace
// (the default), with a call stack per entry, and with a reducer that reads
// `Recorded.now()`; and the writer's throughput with stacks (it names the frames).
//
//   swift run -c release rewind-bench trace
func runTraceBenchmarks() {
    print("\n## trace")
    var template = Array("/tmp/rewind-bench-trace-XXXXXX".utf8CString)
    let directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let burst = Benchmark.quick ? 200 : 2_000

    let plain = tracedCallerCost(directory + "/plain.jsonl", trace: false, burst: burst) { state, action in state.count += action }
    Benchmark.report("caller's thread per action, no trace (default)", Benchmark.format(seconds: plain.perAction),
                     baseline: "writer " + String(plain.writerPerSecond) + "/s")
    let traced = tracedCallerCost(directory + "/traced.jsonl", trace: true, burst: burst) { state, action in state.count += action }
    Benchmark.report("caller's thread per action, Options.trace = true", Benchmark.format(seconds: traced.perAction),
                     baseline: "no trace " + Benchmark.format(seconds: plain.perAction), ratio: traced.perAction / plain.perAction)
    Benchmark.report("  writer throughput with call stacks", String(traced.writerPerSecond) + "/s",
                     baseline: "no trace " + String(plain.writerPerSecond) + "/s")
    let values = tracedCallerCost(directory + "/values.jsonl", trace: false, burst: burst) { state, action in
        state.count += action
        state.updated = Recorded.now()
    }
    Benchmark.report("caller's thread per action, reducer reads Recorded.now()", Benchmark.format(seconds: values.perAction),
                     baseline: "no reads " + Benchmark.format(seconds: plain.perAction), ratio: values.perAction / plain.perAction)
}

private struct TracedState: Codable {
    var count = 0
    var updated = Date(timeIntervalSince1970: 0)
}

/// Best caller's-thread time per action over bursts that fit the queue, then
/// sustained entries per second until written.
private func tracedCallerCost(
    _ path: String, trace: Bool, burst: Int, reducer: @escaping (inout TracedState, Int) -> Void
) -> (perAction: Double, writerPerSecond: Int) {
    var options = ActionRecorder.Options()
    options.queueCapacity = burst + 1
    options.trace = trace
    guard let recorder = try? ActionRecorder(file: path, options: options) else { print("trace: cannot create \(path)"); return (0, 0) }
    let recording = recorder.recording(reducer)
    var state = TracedState()
    var best = Double.infinity
    for _ in 0..<(Benchmark.quick ? 1 : 5) {
        best = min(best, Benchmark.once { for action in 0..<burst { dispatchAsAnAppWould(recording, &state, action) } } / Double(burst))
        try? recorder.flush()
    }
    let entries = burst * 2
    let seconds = Benchmark.once {
        for action in 0..<entries { dispatchAsAnAppWould(recording, &state, action) }
        try? recorder.flush()
    }
    try? recorder.close()
    return (best, Int(Double(entries) / seconds))
}

/// A few frames between the app and the reducer, as a store's send has.
@inline(never)
private func dispatchAsAnAppWould(_ reducer: (inout TracedState, Int) -> Void, _ state: inout TracedState, _ action: Int) {
    reducer(&state, action)
}
