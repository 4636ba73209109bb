import Foundation
import Inspector
import Recorder

// The inspector on huge logs: time to first screen, index memory, stepping
// between 1 MB states, against `jq -c . >/dev/null` reading the same file.
//
//   swift run -c release rewind-bench inspector          (1 GB, 1,000,000 entries)
//   swift run -c release rewind-bench --quick inspector  (small smoke run)
func runInspectorBenchmarks() {
    print("\n## inspector")
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-bench-inspector-\(getpid())")
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }

    let quick = Benchmark.quick
    let hugePath = directory.appendingPathComponent("huge.jsonl").path
    let hugeEntries = quick ? 20_000 : 1_000_000
    var hugeBytes: Int64 = 0
    let writeSeconds = Benchmark.once {
        hugeBytes = BenchmarkLog.write(path: hugePath, entries: hugeEntries, keyframeInterval: 32, items: 24, noteBytes: 860)
    }
    Benchmark.report("generate log (\(hugeEntries) entries, \(megabytes(hugeBytes)))", Benchmark.format(seconds: writeSeconds),
                     baseline: Benchmark.format(bytesPerSecond: Double(hugeBytes) / writeSeconds))

    // First screen: open (scans only the start), build the model, render it.
    let rssBefore = Benchmark.residentBytes()
    var probe: InspectorProbe?
    var firstScreen = ""
    let firstScreenSeconds = Benchmark.once {
        probe = try? InspectorProbe(path: hugePath, columns: 120, rows: 40, indexInBackground: true)
        firstScreen = probe?.screenText() ?? ""
    }
    guard let timeline = probe, firstScreen.contains("entry 1/") else {
        print("inspector: could not open the generated log")
        return
    }
    let indexSeconds = Benchmark.once {
        while !timeline.isFullyIndexed { usleep(2_000) }
    }
    let indexBytes = Benchmark.residentBytes() - rssBefore
    let jqSeconds = jqBaseline(hugePath)
    Benchmark.report("first screen of \(megabytes(hugeBytes)) log (open+model+render)", Benchmark.format(seconds: firstScreenSeconds),
                     baseline: jqSeconds.map { "jq " + Benchmark.format(seconds: $0) }, ratio: jqSeconds.map { $0 / firstScreenSeconds })
    Benchmark.report("background index of all \(timeline.entryCount) entries", Benchmark.format(seconds: indexSeconds),
                     baseline: jqSeconds.map { "jq " + Benchmark.format(seconds: $0) }, ratio: jqSeconds.map { $0 / indexSeconds })
    Benchmark.report("index memory (resident growth)", megabytes(Int64(indexBytes)),
                     baseline: "\(indexBytes / max(1, timeline.entryCount)) B/entry")

    // Scans over every entry (`f` picker, `/` search) run in slices between events:
    // what one key press costs, and how long until the scan is done.
    timeline.tick()   // the model picks up what the background index found, as the run loop's next tick does
    guard timeline.modelEntryCount == timeline.entryCount else {
        print("inspector: the model does not see every indexed entry")
        return
    }
    let scanBaseline = Benchmark.once { timeline.readAllEntries() }
    let picker = timeline.typeAndFinishScans("f")
    _ = timeline.typeAndFinishScans("\u{1b}")
    Benchmark.report("f: the key press (first slice + render)", Benchmark.format(seconds: picker[0]),
                     baseline: "scan " + Benchmark.format(seconds: scanBaseline), ratio: scanBaseline / picker[0])
    Benchmark.report("  all \(timeline.entryCount) entries' action types (\(picker.count) events)", Benchmark.format(seconds: picker.reduce(0, +)),
                     baseline: "worst " + Benchmark.format(seconds: picker.max() ?? 0))
    let search = timeline.typeAndFinishScans("/no such action\n")
    let typed = "/no such action".count          // events before Enter
    let searchPress = search[typed]
    guard timeline.message?.hasPrefix("No action matches") == true else {
        print("inspector: the search did not finish with 'No action matches'")
        return
    }
    Benchmark.report("/ search with no match: Enter (first slice)", Benchmark.format(seconds: searchPress),
                     baseline: "scan " + Benchmark.format(seconds: scanBaseline), ratio: scanBaseline / searchPress)
    let searchEvents = search[typed...]
    Benchmark.report("  whole search (\(searchEvents.count) events)", Benchmark.format(seconds: searchEvents.reduce(0, +)),
                     baseline: "worst " + Benchmark.format(seconds: searchEvents.max() ?? 0))

    // What those scans read per entry: one record per pread and a full parse
    // (the scans before batching) against batched reads and the light parse.
    var readable = 0
    let oneByOne = Benchmark.once { readable = timeline.readEntriesOneByOne() }
    let perEntry = { (seconds: Double) in Benchmark.format(seconds: seconds / Double(max(1, timeline.entryCount))) + "/entry" }
    Benchmark.report("read all \(readable) entries one by one (entry(at:))", Benchmark.format(seconds: oneByOne), baseline: perEntry(oneByOne))
    for (what, payload, paths) in [("action types (f, filter)", false, false), ("+ payload JSON (/)", true, false), ("+ changed paths (w)", false, true)] {
        var found = 0
        let batched = Benchmark.once { found = timeline.scanEntries(payloadJSON: payload, changedPaths: paths) }
        guard found == readable else {
            print("inspector: the batched scan found \(found) readable entries, one by one \(readable)")
            return
        }
        Benchmark.report("  batched scan: \(what)", Benchmark.format(seconds: batched),
                         baseline: perEntry(batched), ratio: oneByOne / batched)
    }

    // Stepping j/k through 1 MB states: reduce + render per step.
    let bigPath = directory.appendingPathComponent("big-states.jsonl").path
    let bigEntries = quick ? 40 : 200
    let bigItems = quick ? 2_000 : 20_000
    _ = BenchmarkLog.write(path: bigPath, entries: bigEntries, keyframeInterval: 32, items: bigItems, noteBytes: 40)
    func openBig(readingAhead: Bool) -> InspectorProbe? {
        guard let probe = try? InspectorProbe(path: bigPath, columns: 120, rows: 40, indexInBackground: readingAhead) else { return nil }
        while !probe.isFullyIndexed { usleep(1_000) }
        return probe
    }
    guard let first = openBig(readingAhead: true), let stateText = try? first.stateJSON(at: 0) else {
        print("inspector: could not open the 1 MB-state log")
        return
    }
    let stateBytes = stateText.count
    // Keys back to back (a burst), each step timed; the steps onto a keyframe are reported apart.
    // Such a step races the read-ahead of that keyframe on the other core (which the step waits
    // for, or parses the state itself if it has not begun), so it is timed over several bursts,
    // each from the log just opened, and the figure is their median: one burst's worst says more
    // about what else ran on the box than about the step.
    func burst(_ probe: InspectorProbe) -> (neighbour: [Double], keyframe: [(wall: Double, cpu: Double)]) {
        var neighbour: [Double] = [], keyframe: [(wall: Double, cpu: Double)] = []
        for index in 1..<bigEntries {
            var cpu = 0.0
            let seconds = Benchmark.once { cpu = Benchmark.threadCPU { probe.stepDown() } }
            if index % 32 != 0 { neighbour.append(seconds) } else { keyframe.append((seconds, cpu)) }
        }
        return (neighbour, keyframe)
    }
    var neighbour: [Double] = [], crossings: [(wall: Double, cpu: Double)] = []
    var big = first
    for round in 0..<(quick ? 1 : 5) {
        if round > 0, let reopened = openBig(readingAhead: true) { big = reopened }
        let steps = burst(big)
        neighbour += steps.neighbour
        crossings += steps.keyframe
    }
    // The step that reads the keyframe's state itself: the log opened without read-ahead.
    let alone = openBig(readingAhead: false).map { burst($0).keyframe } ?? []
    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    Benchmark.report("step to neighbour, \(kilobytes(stateBytes)) state (median)", Benchmark.format(seconds: median(neighbour)),
                     baseline: "worst " + Benchmark.format(seconds: neighbour.max() ?? 0))
    if !crossings.isEmpty {
        Benchmark.report("step onto a keyframe in a burst (median of \(crossings.count))", Benchmark.format(seconds: median(crossings.map(\.wall))),
                         baseline: "worst " + Benchmark.format(seconds: crossings.map(\.wall).max() ?? 0))
        Benchmark.report("  the step's own CPU time (median)", Benchmark.format(seconds: median(crossings.map(\.cpu))))
    }
    if !alone.isEmpty {
        Benchmark.report("step onto a keyframe, no read-ahead (median of \(alone.count))", Benchmark.format(seconds: median(alone.map(\.wall))),
                         baseline: "worst " + Benchmark.format(seconds: alone.map(\.wall).max() ?? 0))
        Benchmark.report("  the step's own CPU time (median)", Benchmark.format(seconds: median(alone.map(\.cpu))))
    }
    // At a person's pace the read-ahead has prepared the next entry, keyframe or not:
    // how long it needs after a key, and what the step costs once it is done.
    var paced: [Double] = []
    var readAhead: [Double] = []
    for keyframe in stride(from: 32, to: bigEntries, by: 32) {
        big.jump(to: keyframe)            // entry number 32 is index 31: the next step lands on a keyframe
        readAhead.append(Benchmark.once { big.waitForReadAhead() })
        paced.append(Benchmark.once { big.stepDown() })
    }
    if let worstPaced = paced.max(), let worstReadAhead = readAhead.max() {
        Benchmark.report("step onto a keyframe, read-ahead done (worst)", Benchmark.format(seconds: worstPaced),
                         baseline: "burst " + Benchmark.format(seconds: crossings.isEmpty ? 0 : median(crossings.map(\.wall))))
        Benchmark.report("  read-ahead time needed after the previous key", Benchmark.format(seconds: worstReadAhead))
    }
    // Baseline for stepping: re-parsing the whole state, what a naive viewer does per step.
    let parse = Benchmark.measure { _ = try? JSONParser.parse(stateText) }
    Benchmark.report("  baseline: parse one \(kilobytes(stateBytes)) state", Benchmark.format(seconds: parse),
                     ratio: parse / median(neighbour))
}

private func megabytes(_ bytes: Int64) -> String { Benchmark.format3(Double(bytes) / 1e6) + " MB" }
private func kilobytes(_ bytes: Int) -> String { Benchmark.format3(Double(bytes) / 1e3) + " kB" }


/// Seconds for `jq -c . <file> >/dev/null`, or nil without jq.
private func jqBaseline(_ path: String) -> Double? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["jq", "-c", ".", path]
    process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
    process.standardError = FileHandle(forWritingAtPath: "/dev/null")
    var status: Int32 = 1
    let seconds = Benchmark.once {
        guard (try? process.run()) != nil else { return }
        process.waitUntilExit()
        status = process.terminationStatus
    }
    return status == 0 ? seconds : nil
}
