import Foundation
import Recorder

// swift run -c release rewind-bench replay
// Decoding recorded states with JSONValueDecoder against Foundation's JSONDecoder
// (the alternative: write the JSON out and decode the text), and verifying a
// recording against the bare reducer that produced it.

private struct BenchTodo: Codable { var id: Int; var title: String; var done: Bool; var tags: [String] }
private struct BenchState: Codable { var todos: [BenchTodo] = []; var filter = "all"; var nextID = 0 }
private enum BenchAction: Codable { case add(String), toggle(Int) }

private func benchReduce(_ state: inout BenchState, _ action: BenchAction) {
    switch action {
    case .add(let title):
        state.todos.append(BenchTodo(id: state.nextID, title: title, done: false, tags: ["bench"]))
        state.nextID += 1
    case .toggle(let id):
        if state.todos.indices.contains(id) { state.todos[id].done.toggle() }
    }
}

func runReplayBenchmarks() {
    print("\n## Replay")
    let size = Benchmark.quick ? 500 : 10_000
    var state = BenchState()
    for index in 0..<size { benchReduce(&state, .add("todo number \(index)")) }
    guard let json = try? JSONEncoding.value(of: state) else { return print("cannot encode the state") }

    let ours = Benchmark.measure { _ = try? JSONValueDecoder().decode(BenchState.self, from: json) }
    let foundation = Benchmark.measure { _ = try? JSONDecoder().decode(BenchState.self, from: Data(JSONWriter.compact(json))) }
    Benchmark.report("decode \(size)-todo state, vs Foundation JSONDecoder", Benchmark.format(seconds: ours),
                     baseline: Benchmark.format(seconds: foundation), ratio: foundation / ours)

    // Verify: record N actions, then replay them all through the reducer and compare.
    let entries = Benchmark.quick ? 200 : 2_000
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-bench-replay-\(getpid())").path
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/verify.jsonl"
    var actions: [BenchAction] = []
    for index in 0..<entries { actions.append(index % 3 == 2 ? .toggle(index / 2) : .add("entry \(index)")) }
    do {
        let recorder = try ActionRecorder(file: path)
        let reducer = recorder.recording(benchReduce)
        var recorded = BenchState()
        for action in actions { reducer(&recorded, action) }
        try recorder.close()
    } catch {
        return print("cannot record: \(error)")
    }
    var verifyError: Error?
    let verify = Benchmark.once {
        do { try Replay(log: path).verify(reducer: benchReduce) } catch { verifyError = error }
    }
    if let verifyError { return print("verify failed: \(verifyError)") }
    let bare = Benchmark.measure {
        var fresh = BenchState()
        for action in actions { benchReduce(&fresh, action) }
    }
    Benchmark.report("verify \(entries) entries, per entry, vs bare reducer", Benchmark.format(seconds: verify / Double(entries)),
                     baseline: Benchmark.format(seconds: bare / Double(entries)))
}
