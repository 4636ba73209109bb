import Foundation
import Inspector

// `w` (the history of a state value) over every entry of a huge log: how long
// until the whole history is listed, the worst event meanwhile (keys are
// handled between slices), and the memory it takes above the index.
//
//   swift run -c release rewind-bench history                   (1,000,000 entries, 1.18 GB)
//   swift run -c release rewind-bench history --entries=200000  (a smaller log, same shape)
//   swift run -c release rewind-bench --quick history           (20,000 entries, smoke run)
func runPathHistoryBenchmarks() {
    print("\n## history (w)")
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-bench-history-\(getpid())")
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }

    let requested = CommandLine.arguments.first { $0.hasPrefix("--entries=") }.flatMap { Int($0.dropFirst("--entries=".count)) }
    let entries = requested ?? (Benchmark.quick ? 20_000 : 1_000_000)
    let path = directory.appendingPathComponent("huge.jsonl").path
    var bytes: Int64 = 0
    let writeSeconds = Benchmark.once {
        bytes = BenchmarkLog.write(path: path, entries: entries, keyframeInterval: 32, items: 24, noteBytes: 860)
    }
    Benchmark.report("generate log (\(entries) entries, \(Benchmark.format3(Double(bytes) / 1e6)) MB)", Benchmark.format(seconds: writeSeconds))
    guard let probe = try? InspectorProbe(path: path, columns: 120, rows: 40, indexInBackground: true) else {
        print("history: could not open the generated log")
        return
    }
    while !probe.isFullyIndexed { usleep(2_000) }
    probe.tick()
    let indexed = Benchmark.residentMegabytes()

    // /items/5/value changes every 24th entry (in place); /counter in every entry but the first,
    // which sets it to the 0 it starts at.
    let itemFive = (0..<entries).filter { ($0 * 7919) % 24 == 5 }.count   // the generator's item for each entry
    for (pointer, expected) in [("/items/5/value", itemFive), ("/counter", entries - 1)] {
        probe.jump(to: entries / 2)
        guard probe.selectStateNode(pointer) else {
            print("history: \(pointer) is not in the state")
            return
        }
        var peak = indexed
        let start = ContinuousClock.now
        let events = probe.typeAndFinishScans("w") { peak = max(peak, Benchmark.residentMegabytes()) }
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let found = probe.historyChangeCount ?? 0
        let cpu = probe.eventCPUSeconds
        _ = probe.typeAndFinishScans("\u{1b}")
        let afterEsc = Benchmark.residentMegabytes()
        guard found == expected else {
            print("history: \(pointer) lists \(found) changes, expected \(expected)")
            return
        }
        Benchmark.report("w \(pointer): \(found) changes, \(events.count) events, CPU", Benchmark.format(seconds: cpu.reduce(0, +)),
                         baseline: "worst event " + Benchmark.format(seconds: cpu.max() ?? 0))
        Benchmark.report("  the same, wall clock (shared box)", Benchmark.format(seconds: seconds),
                         baseline: "worst event " + Benchmark.format(seconds: events.max() ?? 0))
        Benchmark.report("  memory above index: peak / after Esc", Benchmark.format3(peak - indexed) + " MB",
                         baseline: Benchmark.format3(afterEsc - indexed) + " MB")
    }

    // `e` with a mark diff: the first entry against the last. The key press builds the
    // Markdown of the diff on screen; the file is written in the background.
    if let export = probe.exportMarkDiff(from: 1, to: entries) {
        let written = Benchmark.once { _ = try? InspectorProbe.writeExport(export.markdown, directory: directory.path) }
        Benchmark.report("e, mark diff 1 → \(entries): the key press", Benchmark.format(seconds: export.seconds),
                         baseline: "\(Benchmark.format3(Double(export.markdown.utf8.count) / 1e3)) kB")
        Benchmark.report("  background write of the file", Benchmark.format(seconds: written))
    }

    // `e` without a mark: the selected action's report, on an entry in the middle of the big log.
    if let export = probe.exportSelectedAction(entries / 2) {
        let written = Benchmark.once { _ = try? InspectorProbe.writeExport(export.markdown, directory: directory.path) }
        Benchmark.report("e, the action of entry \(entries / 2): the key press", Benchmark.format(seconds: export.seconds),
                         baseline: "\(Benchmark.format3(Double(export.markdown.utf8.count) / 1e3)) kB")
        Benchmark.report("  background write of the file", Benchmark.format(seconds: written))
    }

    // The same on 1 MB states (20,000 items): what took 14–20 s and 1.6 GB before.
    let bigPath = directory.appendingPathComponent("big.jsonl").path
    let bigEntries = Benchmark.quick ? 40 : 200
    _ = BenchmarkLog.write(path: bigPath, entries: bigEntries, keyframeInterval: 32, items: Benchmark.quick ? 2_000 : 20_000, noteBytes: 40)
    if let big = try? InspectorProbe(path: bigPath, columns: 120, rows: 40, indexInBackground: false) {
        let before = Benchmark.residentMegabytes()
        if let export = big.exportMarkDiff(from: 1, to: bigEntries) {
            let written = Benchmark.once { _ = try? InspectorProbe.writeExport(export.markdown, directory: directory.path) }
            Benchmark.report("e, mark diff of 1 MB states: the key press", Benchmark.format(seconds: export.seconds),
                             baseline: "\(Benchmark.format3(Double(export.markdown.utf8.count) / 1e3)) kB")
            Benchmark.report("  background write / resident growth", Benchmark.format(seconds: written),
                             baseline: Benchmark.format3(Benchmark.residentMegabytes() - before) + " MB")
        }
    }
}

