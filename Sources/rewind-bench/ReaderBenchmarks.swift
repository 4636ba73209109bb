import Foundation

// What each reading job's fast path gains on the product path (docs/ARCHITECTURE.md,
// "Reading: one reference, one fast path"): the `rewind` executable built beside this
// one, run as a user runs it, with every fast path and with `REWIND_REFERENCE_READERS=<job>`
// (that job's reference instead), in alternating rounds of the same run. CPU time (user +
// system, all threads) is the figure: on a shared machine it holds where wall time does not.
// A fast path stays only where the reference costs measurably more.
//
//   swift build -c release && swift run -c release rewind-bench readers    (200,000 entries, ~3 min)
//   swift run -c release rewind-bench --quick readers                      (5,000 entries, smoke run)
//   REWIND_BENCH_READERS_BEFORE=/path/to/older/rewind adds that build as a row (the state before a change)
func runReaderBenchmarks() {
    print("\n## readers (each fast path against its reference, REWIND_REFERENCE_READERS)")
    guard let rewind = Benchmark.rewindExecutable(for: "readers") else { return }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-bench-readers-\(getpid())")
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }

    let entries = Benchmark.quick ? 5_000 : 200_000
    let log = directory.appendingPathComponent("entries.jsonl").path
    let bytes = BenchmarkLog.write(path: log, entries: entries, keyframeInterval: 32, items: 24, noteBytes: 860)
    // Keyframes of 1,000 items: most of the bytes are states a search looks a few values up in.
    let largeStateEntries = entries / 20
    let largeState = directory.appendingPathComponent("large-state.jsonl").path
    let largeBytes = BenchmarkLog.write(path: largeState, entries: largeStateEntries, keyframeInterval: 32, items: 1_000, noteBytes: 100)
    print("\(entries) entries, \(Benchmark.format3(Double(bytes) / 1e6)) MB; \(largeStateEntries) entries of 1,000-item states, "
          + "\(Benchmark.format3(Double(largeBytes) / 1e6)) MB")

    let find = ["find", log, "/counter == \(entries - 1)"]
    let findLarge = ["find", largeState, "/counter == \(largeStateEntries - 1)"]
    // Every entry read in full (`entry(at:)`: `ParsedEntry`, its patch's pointers).
    let list = ["log", log]
    let rows: [(job: String, command: [String], what: String)] = [
        ("entry", find, "find"),
        ("patch", find, "find"),
        ("tape", find, "find"),
        ("tape", findLarge, "find, 1,000-item states"),
        ("plain-run", find, "find"),
        ("plain-run", findLarge, "find, 1,000-item states"),
        ("crc32", find, "find"),
        ("pointer", list, "log"),
        ("all", find, "find"),
        ("all", list, "log"),
    ]
    let rounds = Benchmark.quick ? 1 : 5
    for row in rows {
        // Alternating, best of each: a neighbour's load falls on both alike.
        var fast = Double.infinity, reference = Double.infinity
        for _ in 0..<rounds {
            guard let withFastPath = ChildRun.measure(rewind, row.command), withFastPath.status <= 1,
                  let withReference = ChildRun.measure(rewind, row.command, environment: ["REWIND_REFERENCE_READERS": row.job]),
                  withReference.status <= 1 else {
                print("readers: rewind \(row.command.joined(separator: " ")) failed")
                break
            }
            fast = min(fast, withFastPath.cpuSeconds ?? withFastPath.seconds)
            reference = min(reference, withReference.cpuSeconds ?? withReference.seconds)
        }
        guard fast.isFinite, reference.isFinite else { continue }
        Benchmark.report("\(row.job): \(row.what), CPU", Benchmark.format(seconds: fast),
                         baseline: "ref " + Benchmark.format(seconds: reference), ratio: reference / fast)
    }

    guard let before = ProcessInfo.processInfo.environment["REWIND_BENCH_READERS_BEFORE"] else { return }
    for (command, what) in [(find, "find"), (findLarge, "find, 1,000-item states"), (list, "log")] {
        var now = Double.infinity, then = Double.infinity
        for _ in 0..<rounds {
            guard let current = ChildRun.measure(rewind, command), current.status <= 1,
                  let older = ChildRun.measure(before, command), older.status <= 1 else { break }
            now = min(now, current.cpuSeconds ?? current.seconds)
            then = min(then, older.cpuSeconds ?? older.seconds)
        }
        guard now.isFinite, then.isFinite else { continue }
        Benchmark.report("this build: \(what), CPU", Benchmark.format(seconds: now), baseline: "before " + Benchmark.format(seconds: then), ratio: then / now)
    }
}
