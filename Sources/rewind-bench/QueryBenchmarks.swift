import CReadAhead
import Foundation
import Inspector
import Recorder

// `rewind find` and `rewind bisect` on the inspector's benchmark log (1,000,000
// entries, ~1.2 GB), run as the user runs them: the `rewind` executable built
// beside this one, timed and measured as a child process (wall time, CPU time
// of all its threads, peak resident memory), against `jq` selecting the same
// entries. CPU time is the figure that holds on a shared machine: wall time
// there depends on what else runs; on an idle machine with two cores, wall
// time is about CPU time / 2 (the index is checked on one thread while the
// chunks are searched on every core).
//
//   swift build -c release && swift run -c release rewind-bench queries     (1,000,000 entries)
//   swift run -c release rewind-bench --quick queries                       (5,000 entries)
//   REWIND_BENCH_QUERY_ENTRIES=200000 swift run -c release rewind-bench queries
//   REWIND_BENCH_QUERY_BEFORE=/path/to/older/rewind,… REWIND_BENCH_QUERY_OLD_LOGS=/tmp/f1.jsonl,/tmp/f2.jsonl \
//     REWIND_BENCH_QUERY_ENTRIES=200000 swift run -c release rewind-bench --quick queries   (this build against older ones)
func runQueryBenchmarks() {
    print("\n## queries")
    guard let rewind = Benchmark.rewindExecutable(for: "queries") else { return }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-bench-queries-\(getpid())")
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }

    let entries = ProcessInfo.processInfo.environment["REWIND_BENCH_QUERY_ENTRIES"].flatMap(Int.init) ?? (Benchmark.quick ? 5_000 : 1_000_000)
    // REWIND_BENCH_QUERY_LOG=/tmp/q.jsonl keeps the log there (for a profiler, or to run rewind on it by hand).
    let kept = ProcessInfo.processInfo.environment["REWIND_BENCH_QUERY_LOG"]
    let path = kept ?? directory.appendingPathComponent("huge.jsonl").path
    var bytes: Int64 = 0
    let writeSeconds = Benchmark.once {
        bytes = BenchmarkLog.write(path: path, entries: entries, keyframeInterval: 32, items: 24, noteBytes: 860)
    }
    Benchmark.report("generate log (\(entries) entries, \(Benchmark.format3(Double(bytes) / 1e6)) MB)", Benchmark.format(seconds: writeSeconds))

    // The log's entry n sets /counter to n - 1: the last entry is the one match.
    let last = entries - 1
    // jq selecting the entries whose /counter is `counter` (a keyframe's state, or a patch operation's value).
    // An entry that holds a patch has no `kind` since format 3: absent reads as an entry.
    func jqSelect(_ counter: Int) -> String {
        #"select((.kind // "entry") == "entry" and ((.state.counter // ([.patch[]? | select(.path == "/counter")][0].value)) == "# + "\(counter)))"
    }
    let runsJQ = ProcessInfo.processInfo.environment["REWIND_BENCH_NO_JQ"] == nil
    let jq = runsJQ ? ChildRun.measure("/usr/bin/env", ["jq", "-c", jqSelect(last), path]) : nil
    let rows: [(String, [String])] = [
        ("find '/counter == \(last)' (one path, 1 match)", ["find", path, "/counter == \(last)"]),
        ("find '/items/3/value > 0' --count", ["find", path, "/items/3/value > 0", "--count"]),
        ("find 'changed /items/5' --count", ["find", path, "changed /items/5", "--count"]),
        ("bisect '/counter < \(last)' (last entry breaks)", ["bisect", path, "/counter < \(last)"]),
    ]
    for (name, arguments) in rows {
        guard let run = ChildRun.measure(rewind, arguments), run.status <= 1 else {
            print("queries: rewind \(arguments.joined(separator: " ")) failed")
            continue
        }
        Benchmark.report(name + ", wall", Benchmark.format(seconds: run.seconds),
                         baseline: jq.map { "jq " + Benchmark.format(seconds: $0.seconds) }, ratio: jq.map { $0.seconds / run.seconds })
        if let cpu = run.cpuSeconds {
            Benchmark.report("  CPU (user + system, all threads)", Benchmark.format(seconds: cpu),
                             baseline: jq.flatMap { $0.cpuSeconds }.map { "jq " + Benchmark.format(seconds: $0) })
        }
        Benchmark.report("  peak memory (resident)", Benchmark.format3(Double(run.peakResidentBytes) / 1e6) + " MB",
                         baseline: jq.map { "jq " + Benchmark.format3(Double($0.peakResidentBytes) / 1e6) + " MB" })
    }

    if let before = ProcessInfo.processInfo.environment["REWIND_BENCH_QUERY_BEFORE"] {
        let oldLogs = ProcessInfo.processInfo.environment["REWIND_BENCH_QUERY_OLD_LOGS"]?.split(separator: ",").map(String.init) ?? []
        compareFind(rewind, before: before.split(separator: ",").map(String.init), logs: [path] + oldLogs, counter: last)
    }

    // A log whose states are large (1,000 items): keyframes are most of its
    // bytes, and a search reads the few paths it needs out of each.
    let largeStateEntries = max(1, entries / 50)
    let largeState = directory.appendingPathComponent("large-state.jsonl").path
    let largeBytes = BenchmarkLog.write(path: largeState, entries: largeStateEntries, keyframeInterval: 32, items: 1_000, noteBytes: 100)
    let largeLast = largeStateEntries - 1
    let largeJQ = runsJQ ? ChildRun.measure("/usr/bin/env", ["jq", "-c", jqSelect(largeLast), largeState]) : nil
    if let run = ChildRun.measure(rewind, ["find", largeState, "/counter == \(largeLast)"]), run.status <= 1 {
        Benchmark.report("find '/counter == \(largeLast)', 1,000-item state (\(largeStateEntries) entries, \(Benchmark.format3(Double(largeBytes) / 1e6)) MB), wall",
                         Benchmark.format(seconds: run.seconds),
                         baseline: largeJQ.map { "jq " + Benchmark.format(seconds: $0.seconds) }, ratio: largeJQ.map { $0.seconds / run.seconds })
        if let cpu = run.cpuSeconds {
            Benchmark.report("  CPU (user + system, all threads)", Benchmark.format(seconds: cpu),
                             baseline: largeJQ.flatMap { $0.cpuSeconds }.map { "jq " + Benchmark.format(seconds: $0) })
        }
    }

    // Many recordings: the same number of entries spread over 200 files, searched on every core.
    // REWIND_BENCH_QUERY_DIR=/tmp/recordings keeps the recordings there (for a profiler).
    let recordings = ProcessInfo.processInfo.environment["REWIND_BENCH_QUERY_DIR"].map { URL(fileURLWithPath: $0) }
        ?? directory.appendingPathComponent("recordings")
    try? FileManager.default.createDirectory(at: recordings, withIntermediateDirectories: true)
    let files = Benchmark.quick ? 10 : 200
    var total: Int64 = 0
    for file in 0..<files {
        total += BenchmarkLog.write(path: recordings.appendingPathComponent("run-\(file).jsonl").path,
                                    entries: max(1, entries / files), keyframeInterval: 32, items: 24, noteBytes: 860)
    }
    // Disk speed, measured in the same run on the same files: a plain read loop
    // (1 MB reads, nothing looked at), once to bring them into the page cache
    // as the search finds them, then timed.
    let paths = (0..<files).map { recordings.appendingPathComponent("run-\($0).jsonl").path }
    _ = PlainRead.files(paths)
    let read = Benchmark.onceWithCPU { _ = PlainRead.files(paths) }
    Benchmark.report("read the same files (1 MB reads, page cache)", Benchmark.format(bytesPerSecond: Double(total) / read.wall),
                     baseline: "CPU " + Benchmark.format(seconds: read.cpu))
    let search = ["find", recordings.path, "/counter == 7", "--count"]
    // Best of three from the page cache: the CPU's speed, what a second search over the same recordings waits.
    let warmRuns = (0..<3).compactMap { _ in ChildRun.measure(rewind, search) }.filter { $0.status <= 1 }
    if let run = warmRuns.min(by: { $0.seconds < $1.seconds }) {
        Benchmark.report("find DIR (\(files) recordings, \(Benchmark.format3(Double(total) / 1e6)) MB), page cache, wall", Benchmark.format(seconds: run.seconds),
                         baseline: Benchmark.format(bytesPerSecond: Double(total) / run.seconds))
        if let cpu = run.cpuSeconds {
            Benchmark.report("  CPU (user + system, all threads)", Benchmark.format(seconds: cpu),
                             baseline: Benchmark.format(bytesPerSecond: Double(total) / cpu) + " per core")
        }
        Benchmark.report("  peak memory (resident)", Benchmark.format3(Double(run.peakResidentBytes) / 1e6) + " MB")
    }
    // From the disk: the page cache emptied before each (root only), the same
    // files read start to end, then searched. "At disk speed" is the search
    // taking no longer than reading.
    // Not in smoke runs: emptying the cache would slow whatever runs next (CI's build products, too).
    guard !Benchmark.quick else { return }
    guard PageCache.canDrop else {
        print("queries: the page cache cannot be dropped here (needs root): no cold-disk rows")
        return
    }
    // Only the recordings are cold: `rewind` and its libraries are loaded again
    // first (a search of an empty folder), as on any machine where it ran
    // before; the reading loop it is compared with is in this process. Loading
    // them from a cold disk too is the last row.
    let nothing = directory.appendingPathComponent("empty")
    try? FileManager.default.createDirectory(at: nothing, withIntermediateDirectories: true)
    let warmUp = ["find", nothing.path, "exists /a"]
    // Rounds that alternate reading and searching, each from an emptied cache: on a
    // shared host the disk's speed swings by half from one second to the next, so
    // each search is compared with the read just before it, and the median round counts.
    // Two reads: through the page cache (what `cat` does), and past it with four
    // reads in flight (the disk's own speed, without the kernel's work of filling the cache).
    var rounds: [(read: Double, search: ChildRun)] = []
    var directReads: [Double] = []
    for _ in 0..<5 {
        PageCache.drop()
        let read = Benchmark.once { _ = PlainRead.files(paths) }
        PageCache.drop()
        directReads.append(Benchmark.once { _ = PlainRead.filesPastCache(paths) })
        PageCache.drop()
        _ = ChildRun.measure(rewind, warmUp)
        if let run = ChildRun.measure(rewind, search), run.status <= 1 { rounds.append((read, run)) }
    }
    PageCache.drop()
    let allCold = ChildRun.measure(rewind, search).flatMap { $0.status <= 1 ? $0 : nil }
    guard !rounds.isEmpty else { return }
    let ratios = rounds.map { $0.read / $0.search.seconds }.sorted()
    let median = ratios[ratios.count / 2]
    let fastestRead = rounds.map(\.read).min()!, fastest = rounds.min { $0.search.seconds < $1.search.seconds }!.search
    Benchmark.report("read the same files from a cold disk (1 MB reads), best of \(rounds.count)", Benchmark.format(seconds: fastestRead),
                     baseline: Benchmark.format(bytesPerSecond: Double(total) / fastestRead))
    Benchmark.report("find DIR, recordings on a cold disk, wall, best of \(rounds.count)", Benchmark.format(seconds: fastest.seconds),
                     baseline: "reading them: " + Benchmark.format(seconds: fastestRead), ratio: fastestRead / fastest.seconds)
    if let cpu = fastest.cpuSeconds { Benchmark.report("  CPU (user + system, all threads)", Benchmark.format(seconds: cpu)) }
    // More than warm: the blocks of the recordings read past the cache, the ones being searched and those opened ahead.
    Benchmark.report("  peak memory (resident)", Benchmark.format3(Double(fastest.peakResidentBytes) / 1e6) + " MB")
    // On a line of its own: the report's columns are too narrow for five figures.
    print("  each round, reading ÷ searching (sorted): " + ratios.map { String(format: "%.2f×", $0) }.joined(separator: " ")
          + "; median " + String(format: "%.2f×", median))
    let directRatios = zip(directReads, rounds).map { $0 / $1.search.seconds }.sorted()
    let fastestDirect = directReads.min()!
    Benchmark.report("read the same files past the page cache (O_DIRECT, 4 in flight), best of \(directReads.count)", Benchmark.format(seconds: fastestDirect),
                     baseline: Benchmark.format(bytesPerSecond: Double(total) / fastestDirect))
    print("  each round, reading past the cache ÷ searching (sorted): " + directRatios.map { String(format: "%.2f×", $0) }.joined(separator: " ")
          + "; median " + String(format: "%.2f×", directRatios[directRatios.count / 2]))
    if let cold = allCold {
        Benchmark.report("  rewind itself loaded from the cold disk too, wall", Benchmark.format(seconds: cold.seconds),
                         baseline: "reading them: " + Benchmark.format(seconds: fastestRead), ratio: fastestRead / cold.seconds)
    }
}

/// The kernel's page cache, emptied so a read comes from the disk (Linux, as root).
enum PageCache {
    #if os(Linux)
    static let control = "/proc/sys/vm/drop_caches"
    #else
    static let control = ""
    #endif

    /// Linux only (as root): elsewhere the cold-disk rounds are skipped.
    static var canDrop: Bool {
        #if os(Linux)
        getuid() == 0 && access(control, W_OK) == 0
        #else
        false
        #endif
    }

    /// Writes dirty pages out, then drops clean cached pages, dentries and inodes.
    static func drop() {
        sync()
        let descriptor = open(control, O_WRONLY)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        _ = "3".withCString { write(descriptor, $0, 1) }
    }
}

/// Reads files start to end and drops the bytes: what the disk (or the page
/// cache) gives a reader that does nothing else.
enum PlainRead {
    static func files(_ paths: [String]) -> Int {
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var total = 0
        for path in paths {
            let descriptor = open(path, O_RDONLY)
            guard descriptor >= 0 else { continue }
            defer { close(descriptor) }
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count <= 0 { break }
                total += count
            }
        }
        return total
    }
}

extension PlainRead {
    /// The same past the page cache (`O_DIRECT`, CReadAhead: four 1 MB reads in flight, nothing
    /// looked at), the way `rewind find DIR` reads a cold recording; 0 where that cannot be done.
    static func filesPastCache(_ paths: [String]) -> Int {
        var total = 0
        for path in paths {
            let descriptor = open(path, O_RDONLY)
            guard descriptor >= 0 else { continue }
            defer { close(descriptor) }
            var status = stat()
            guard fstat(descriptor, &status) == 0, status.st_size > 0,
                  let reader = rewind_read_ahead_open(descriptor, 0, Int64(status.st_size), 1 << 20, 6, 4) else { continue }
            defer { rewind_read_ahead_close(reader) }
            var offset: Int64 = 0
            while true {
                var count = Int64(1 << 20)
                guard rewind_read_ahead_bytes(reader, offset, &count) != nil else { break }
                offset += count
            }
            total += Int(offset)
        }
        return total
    }
}

/// `rewind find LOG '/counter == counter'` by this build and by each of `before` (older builds'
/// `rewind`) on each log: the benchmark log and logs older builds' `rewind-bench` wrote with the
/// same entry count (`REWIND_BENCH_QUERY_OLD_LOGS`, for the formats they wrote). Every build on
/// every log in each of 21 alternating rounds (in smoke runs too: asked for by name), so a
/// neighbour's load falls on all alike; the figure is each one's best CPU time from `wait4`
/// (microseconds: `/usr/bin/time`'s 10 ms steps are as large as the differences looked for).
/// A build that cannot read a log says so.
private func compareFind(_ rewind: String, before: [String], logs: [String], counter: Int) {
    let rounds = 21
    var best: [String: Double] = [:]
    var unreadable: Set<String> = []
    for _ in 0..<rounds {
        for log in logs {
            for build in [rewind] + before where !unreadable.contains(build + "\n" + log) {
                guard let run = ChildRun.measureCPU(build, ["find", log, "/counter == \(counter)"]), run.status <= 1, let cpu = run.cpuSeconds else {
                    unreadable.insert(build + "\n" + log)
                    continue
                }
                best[build + "\n" + log] = min(best[build + "\n" + log] ?? .infinity, cpu)
            }
        }
    }
    // Its own lines: the builds' paths are longer than a report's columns.
    print("find '/counter == \(counter)', best CPU of \(rounds) alternating rounds (this build, then \(before.joined(separator: ", "))):")
    for log in logs {
        func figure(_ build: String) -> String { best[build + "\n" + log].map { String(format: "%.1f ms", $0 * 1e3) } ?? "cannot read it" }
        print("  \(log): " + ([rewind] + before).map(figure).joined(separator: " | "))
    }
}

/// One run of a child process: wall time, exit status, CPU time and peak resident memory.
///
/// Memory and CPU time come from `/usr/bin/time -f '%M %U %S'` when it is installed: a child
/// spawned straight from this process reports at least this process's own peak
/// in `wait4`'s `ru_maxrss` (Linux folds the parent's peak in at `exec`), which
/// would hide a smaller child. Without it, that upper bound is what is reported.
struct ChildRun {
    var seconds: Double
    var status: Int32
    var peakResidentBytes: Int
    /// User plus system time of the child's threads (from `/usr/bin/time` when it measured the run, else from `wait4`).
    var cpuSeconds: Double?

    /// `environment` is added to this process's own for the child.
    static func measure(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) -> ChildRun? {
        let timer = "/usr/bin/time"
        guard FileManager.default.isExecutableFile(atPath: timer) else { return spawn(executable, arguments, environment: environment) }
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-bench-time-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: report) }
        guard var run = spawn(timer, ["-f", "%M %U %S", "-o", report, executable] + arguments, environment: environment) else { return nil }
        let text = (try? String(contentsOfFile: report, encoding: .utf8)) ?? ""
        // The last line is the figure (time writes a "Command exited with non-zero status" line before it).
        let figures = text.split(separator: "\n").last?.split(separator: " ") ?? []
        if figures.count == 3, let kilobytes = Int(figures[0]), let user = Double(figures[1]), let system = Double(figures[2]) {
            run.peakResidentBytes = kilobytes * 1024
            run.cpuSeconds = user + system
        }
        return run
    }

    /// The run without `/usr/bin/time`: CPU time from `wait4` to the microsecond (the peak memory is an upper bound, as there).
    static func measureCPU(_ executable: String, _ arguments: [String]) -> ChildRun? {
        spawn(executable, arguments, environment: [:])
    }

    private static func spawn(_ executable: String, _ arguments: [String], environment added: [String: String]) -> ChildRun? {
        var pid: pid_t = 0
        // An opaque pointer on Darwin, a struct with glibc.
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?
        #else
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        // The environment passed explicitly: Darwin's Swift overlay has no `environ`.
        let environment = ProcessInfo.processInfo.environment.merging(added) { $1 }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { environment.forEach { free($0) } }
        let start = DispatchTime.now().uptimeNanoseconds
        guard posix_spawn(&pid, executable, &actions, nil, argv, environment) == 0 else { return nil }
        var status: Int32 = 0
        var usage = rusage()
        guard wait4(pid, &status, 0, &usage) == pid else { return nil }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let exited = status & 0x7f == 0
        #if canImport(Darwin)
        let peak = usage.ru_maxrss          // bytes on Darwin
        #else
        let peak = usage.ru_maxrss * 1024   // kilobytes on Linux
        #endif
        let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        return ChildRun(seconds: seconds, status: exited ? (status >> 8) & 0xff : 128, peakResidentBytes: peak, cpuSeconds: cpu)
    }
}
