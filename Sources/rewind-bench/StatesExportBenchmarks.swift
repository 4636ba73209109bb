import Foundation
import Recorder

// `rewind export LOG --format states` on the inspector's benchmark log (1,000,000 entries,
// ~1.2 GB), run as the user runs it: the `rewind` executable built beside this one, its rows
// read from a pipe as `… | duckdb` would read them. The figure is output bytes per second of
// wall time; the baseline, measured in the same run, is the least any such export must do:
// rebuilding every state from the log (`LogReader.scanStates`, one patch per entry), writing nothing.
//
//   swift build -c release && swift run -c release rewind-bench states     (1,000,000 entries)
//   swift run -c release rewind-bench --quick states                       (20,000 entries)
//   REWIND_BENCH_STATES_ENTRIES=200000 swift run -c release rewind-bench states
func runStatesExportBenchmarks() {
    print("\n## states (rewind export --format states)")
    let rewind = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("rewind").path
    guard FileManager.default.isExecutableFile(atPath: rewind) else {
        print("states: \(rewind) is missing: build it first (swift build -c release)")
        return
    }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-bench-states-\(getpid())")
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let entries = ProcessInfo.processInfo.environment["REWIND_BENCH_STATES_ENTRIES"].flatMap(Int.init) ?? (Benchmark.quick ? 20_000 : 1_000_000)
    let path = directory.appendingPathComponent("huge.jsonl").path
    var logBytes: Int64 = 0
    let writeSeconds = Benchmark.once {
        logBytes = BenchmarkLog.write(path: path, entries: entries, keyframeInterval: 32, items: 24, noteBytes: 860)
    }
    Benchmark.report("generate log (\(entries) entries, \(Benchmark.format3(Double(logBytes) / 1e6)) MB)", Benchmark.format(seconds: writeSeconds))

    let baseline = Benchmark.once {
        guard let reader = try? LogReader(path: path) else { return }
        var states = 0
        reader.scanStates(0..<reader.entryCount, keepingPrevious: false) { step in
            if step.state != nil { states += 1 }
            return true
        }
    }
    Benchmark.report("baseline: rebuild every state, no output", Benchmark.format(seconds: baseline))
    for (name, extra) in [("whole states", [String]()), ("two --path columns", ["--path", "/counter", "--path", "/items/3/value"])] {
        guard let run = PipedRun.measure(rewind, ["export", path, "--format", "states"] + extra), run.status == 0 else {
            print("states: rewind export --format states \(extra.joined(separator: " ")) failed")
            continue
        }
        let rate = Double(run.outputBytes) / run.seconds
        Benchmark.report("states, \(name) (\(Benchmark.format3(Double(run.outputBytes) / 1e6)) MB out), wall",
                         Benchmark.format(seconds: run.seconds), baseline: Benchmark.format(seconds: baseline), ratio: run.seconds / baseline)
        Benchmark.report("  output per second of wall time", Benchmark.format(bytesPerSecond: rate))
        if let cpu = run.cpuSeconds {
            Benchmark.report("  CPU (all threads)", Benchmark.format(seconds: cpu))
            Benchmark.report("  peak memory", Benchmark.format3(Double(run.peakResidentBytes) / 1e6) + " MB")
            Benchmark.report("  output per CPU second", Benchmark.format(bytesPerSecond: Double(run.outputBytes) / cpu))
        }
    }
}

/// A child process whose standard output is read from a pipe (and counted), timed from start to end.
struct PipedRun {
    var seconds: Double
    var status: Int32
    var outputBytes: Int
    var peakResidentBytes = 0
    var cpuSeconds: Double?

    static func measure(_ executable: String, _ arguments: [String]) -> PipedRun? {
        let timer = "/usr/bin/time"
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-bench-time-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: report) }
        let timed = FileManager.default.isExecutableFile(atPath: timer)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: timed ? timer : executable)
        process.arguments = timed ? ["-f", "%M %U %S", "-o", report, executable] + arguments : arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let start = DispatchTime.now().uptimeNanoseconds
        guard (try? process.run()) != nil else { return nil }
        try? output.fileHandleForWriting.close()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var total = 0
        let descriptor = output.fileHandleForReading.fileDescriptor
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { break }
            total += count
        }
        process.waitUntilExit()
        var run = PipedRun(seconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, status: process.terminationStatus, outputBytes: total)
        if timed, let text = try? String(contentsOfFile: report, encoding: .utf8) {
            let figures = text.split(separator: "\n").last?.split(separator: " ") ?? []
            if figures.count == 3, let kilobytes = Int(figures[0]), let user = Double(figures[1]), let system = Double(figures[2]) {
                run.peakResidentBytes = kilobytes * 1024
                run.cpuSeconds = user + system
            }
        }
        return run
    }
}
