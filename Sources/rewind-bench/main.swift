import Foundation

// swift run -c release rewind-bench [--quick] [SECTION ...]   (`--help` lists the sections)
// Each section compares Rewind against a baseline measured in the same run.

/// One section of the benchmarks: what `rewind-bench NAME` runs.
struct BenchmarkSection {
    var name: String
    var summary: String
    /// False for profiler loops and child processes: run only when named.
    var runsByDefault = true
    var run: () -> Void
}

let benchmarkSections: [BenchmarkSection] = [
    BenchmarkSection(name: "json", summary: "parse, encode, diff and patch against Foundation", run: runJSONBenchmarks),
    BenchmarkSection(name: "recorder", summary: "recording cost per action, keyframes, rebuilds", run: runRecorderBenchmarks),
    BenchmarkSection(name: "recording-table", summary: "the recorder over state sizes from 1 kB to 10 MB (a few minutes)",
                     runsByDefault: false) { runRecordingCostTable() },
    BenchmarkSection(name: "writer-profile", summary: "untimed writer loop for a profiler", runsByDefault: false) { runWriterProfileLoop() },
    BenchmarkSection(name: "writer-profile-100", summary: "the same, 100 todos", runsByDefault: false) { runWriterProfileLoop(onlyHundredTodos: true) },
    BenchmarkSection(name: "writer-profile-10k", summary: "the same, 10,000 todos", runsByDefault: false) { runWriterProfileLoop(todos: 10_000) },
    BenchmarkSection(name: "rebuild-profile", summary: "untimed state rebuild loop for a profiler", runsByDefault: false) { runRebuildProfileLoop() },
    BenchmarkSection(name: "pace-profile", summary: "untimed loop recording at an app's pace for a profiler", runsByDefault: false) {
        runPaceProfileLoop()
    },
    BenchmarkSection(name: "rebuild-profile-100", summary: "the same, 100 todos", runsByDefault: false) { runRebuildProfileLoop(hundredTodos: true) },
    BenchmarkSection(name: "inspector", summary: "first screen, index, scans and steps on a 1 GB log (writes 1.2 GB)", run: runInspectorBenchmarks),
    BenchmarkSection(name: "huge-state", summary: "the inspector on a 30 MB state and a 1 GB log, driven as a person would (writes 1.2 GB)",
                     run: runHugeStateBenchmarks),
    BenchmarkSection(name: "export", summary: "rewind export in every format", run: runExportBenchmarks),
    BenchmarkSection(name: "states", summary: "rewind export --format states on the 1 GB log (writes 1.2 GB)", run: runStatesExportBenchmarks),
    BenchmarkSection(name: "replay", summary: "decoding and verifying a recording", run: runReplayBenchmarks),
    BenchmarkSection(name: "trace", summary: "recording with call sites and stacks", run: runTraceBenchmarks),
    BenchmarkSection(name: "queries", summary: "rewind find, bisect and tail against jq", run: runQueryBenchmarks),
    BenchmarkSection(name: "search", summary: "the inspector's :find and :bisect against rewind find and bisect (writes 1.2 GB)",
                     run: runSearchBenchmarks),
    BenchmarkSection(name: "live", summary: "streaming to rewind listen", run: runLiveBenchmarks),
    BenchmarkSection(name: "catalog", summary: "rewind ls and find over a directory of recordings", run: runCatalogBenchmarks),
    BenchmarkSection(name: "history", summary: "w, the history of a value, on a 1 GB log (writes 1.2 GB)", run: runPathHistoryBenchmarks),
    BenchmarkSection(name: "readers", summary: "each reading job's fast path against its reference, in the rewind executable",
                     run: runReaderBenchmarks),
    BenchmarkSection(name: "parse-profile", summary: "untimed parse loop for a profiler", runsByDefault: false) {
        runJSONProfileLoops(parse: true, encode: CommandLine.arguments.contains("encode-profile"))
    },
    BenchmarkSection(name: "encode-profile", summary: "untimed encode loop for a profiler", runsByDefault: false) {
        if !CommandLine.arguments.contains("parse-profile") { runJSONProfileLoops(parse: false, encode: true) }
    },
]

let usage = """
    usage: rewind-bench [--quick] [SECTION ...]
    Runs the named sections (every section but the profiler loops when none is named) in release builds:
    swift run -c release rewind-bench inspector. --quick shrinks every size to a smoke run.

    sections:
    """

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "huge-state-session" {
    // The child process of `huge-state` (runs one session and writes its report).
    runHugeStateSession(Array(arguments.dropFirst()))
    exit(0)
}
if arguments.first == "write-huge-state-log", arguments.count >= 2 {
    let items = arguments.first { $0.hasPrefix("--items=") }.flatMap { Int($0.dropFirst("--items=".count)) } ?? 100_000
    do {
        let bytes = try EditedHugeStateLog.write(path: arguments[1], items: items)
        print("wrote \(arguments[1]): \(EditedHugeStateLog.edits(items: items).count + 1) entries, a \(bytes)-byte state")
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("rewind-bench: cannot write \(arguments[1]): \(error)\n".utf8))
        exit(1)
    }
}
if arguments.contains("--help") || arguments.contains("-h") {
    print(usage)
    print("  " + "write-huge-state-log PATH [--items=N]".padding(toLength: 20, withPad: " ", startingAt: 0)
          + " writes the huge-state section's log (100,000 items, a 30 MB state) to try the inspector on")
    for section in benchmarkSections {
        print("  " + section.name.padding(toLength: 20, withPad: " ", startingAt: 0) + section.summary
              + (section.runsByDefault ? "" : " (only when named)"))
    }
    exit(0)
}
let options = arguments.filter { $0.hasPrefix("--") }
// --entries= (history), --items= (huge-state), --todos= (recording-table), --rounds= --elements= --foundation --discard (the profiler loops).
let knownOptions = ["--quick", "--foundation", "--discard"]
let knownValueOptions = ["--entries=", "--items=", "--todos=", "--rounds=", "--elements="]
if let unknown = options.first(where: { option in !knownOptions.contains(option) && !knownValueOptions.contains { option.hasPrefix($0) } }) {
    FileHandle.standardError.write(Data("rewind-bench: unknown option '\(unknown)' (rewind-bench --help lists the sections)\n".utf8))
    exit(2)
}
let named = arguments.filter { !$0.hasPrefix("--") }
if let unknown = named.first(where: { name in !benchmarkSections.contains { $0.name == name } }) {
    FileHandle.standardError.write(Data("rewind-bench: no section '\(unknown)' (rewind-bench --help lists them)\n".utf8))
    exit(2)
}

print("rewind-bench\(Benchmark.quick ? " (quick smoke run: figures are not meaningful)" : "")")
for section in benchmarkSections where named.isEmpty ? section.runsByDefault : named.contains(section.name) {
    section.run()
}
