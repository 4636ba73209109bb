import Foundation
import Inspector
import Recorder

// Live recording over loopback (`rewind listen` in this process): entries per
// second from the first reducer call until the listener has stored the last
// entry, against a recorder writing a file; and what the app's thread pays per
// action with a file, streaming to a listener, and streaming while the listener
// is gone (the outage must not cost the caller more).
//
//   swift run -c release rewind-bench live
func runLiveBenchmarks() {
    print("\n## live")
    var template = Array("/tmp/rewind-bench-live-XXXXXX".utf8CString)
    let directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let token = "0123456789abcdef0123456789abcdef"
    guard let listener = try? LiveListener(.init(address: LiveAddress(host: "127.0.0.1", port: 0), directory: directory, token: token)) else {
        print("cannot listen on loopback; live benchmarks skipped")
        return
    }
    defer { listener.stop() }
    let address = listener.address.description
    let reducer: (inout SmallState, Int) -> Void = { state, action in
        state.count += action
        state.label = action % 2 == 0 ? "even" : "odd"
    }

    // Throughput: whole runs, the best of three.
    let entries = Benchmark.quick ? 500 : 50_000
    var fileBest = Double.infinity
    var liveBest = Double.infinity
    for round in 0..<(Benchmark.quick ? 1 : 3) {
        fileBest = min(fileBest, Benchmark.once {
            guard let recorder = try? ActionRecorder(file: directory + "/file-\(round).jsonl") else { return }
            var state = SmallState()
            let recorded = recorder.recording(reducer)
            for action in 0..<entries { recorded(&state, action) }
            try? recorder.close()
        })
        liveBest = min(liveBest, Benchmark.once {
            guard let recorder = try? ActionRecorder(streamingTo: address, token: token) else { return }
            var state = SmallState()
            let recorded = recorder.recording(reducer)
            for action in 0..<entries { recorded(&state, action) }
            try? recorder.flush()
            let stored = Int64(entries - 1)
            listener.waitUntil(timeout: 120) { snapshot in snapshot.recordings.values.filter { $0 == stored }.count > round }
            try? recorder.close()
        })
    }
    Benchmark.report("entries/s, small state, streamed over loopback", "\(Int(Double(entries) / liveBest))/s",
                     baseline: "\(Int(Double(entries) / fileBest))/s", ratio: liveBest / fileBest)

    // The caller's cost per action: bursts that fit the app's queue, timed on the caller's
    // thread only (the writer and the network drain between bursts, untimed); best of 7.
    let burst = Benchmark.quick ? 200 : 2_000
    var options = ActionRecorder.Options()
    options.queueCapacity = burst + 1
    func callerOnly(_ recorder: ActionRecorder) -> Double {
        var state = SmallState()
        let recorded = recorder.recording(reducer)
        var best = Double.infinity
        for _ in 0..<(Benchmark.quick ? 1 : 7) {
            let seconds = Benchmark.once { for action in 0..<burst { recorded(&state, action) } }
            best = min(best, seconds / Double(burst))
            try? recorder.flush()
        }
        try? recorder.close()
        return best
    }
    guard let file = try? ActionRecorder(file: directory + "/caller-file.jsonl", options: options),
          let live = try? ActionRecorder(streamingTo: address, token: token, options: options) else { return }
    let fileCost = callerOnly(file)
    let liveCost = callerOnly(live)
    // A port nobody listens on: every connection attempt fails while the app records.
    let gone: LiveAddress? = {
        guard let spare = try? LiveListener(.init(address: LiveAddress(host: "127.0.0.1", port: 0), directory: directory, token: token)) else { return nil }
        defer { spare.stop() }
        return spare.address
    }()
    guard let gone, let outage = try? ActionRecorder(streamingTo: gone.description, token: token, options: options) else { return }
    let outageCost = callerOnly(outage)
    Benchmark.report("caller per action, streaming to a listener", Benchmark.format(seconds: liveCost),
                     baseline: Benchmark.format(seconds: fileCost), ratio: liveCost / fileCost)
    Benchmark.report("caller per action, streaming, listener gone", Benchmark.format(seconds: outageCost),
                     baseline: Benchmark.format(seconds: fileCost), ratio: outageCost / fileCost)
}
