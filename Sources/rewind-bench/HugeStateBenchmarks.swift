import Foundation
import Inspector
import Recorder

// The inspector on a huge state (issue 34): a recording whose state is ~30 MB of
// JSON (100,000 objects), written by today's recorder. The value viewer's keys
// on the 30 MB list, then the real session driven at a person's pace in a child
// process (so its peak resident memory is its own): how long each key waited for
// its answer, the longest stretch away from the keyboard, and the peak memory
// against the state's size. The same session on the 1 GB log of `## inspector`.
//
//   swift run -c release rewind-bench huge-state          (30 MB state; 1 GB / 1,000,000-entry log)
//   swift run -c release rewind-bench --quick huge-state  (small smoke run)
//   rewind-bench write-huge-state-log PATH [--items=N]   (the log alone, to try the inspector on by hand)
func runHugeStateBenchmarks() {
    print("\n## huge states")
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-bench-huge-state-\(getpid())")
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let quick = Benchmark.quick

    let path = directory.appendingPathComponent("huge-state.jsonl").path
    // 100,000 items make a 29.6 MB state; --items= another size.
    let requested = CommandLine.arguments.first { $0.hasPrefix("--items=") }.flatMap { Int($0.dropFirst("--items=".count)) }
    let items = requested ?? (quick ? 4_000 : 100_000)
    var stateBytes = 0
    let writeSeconds = Benchmark.once { stateBytes = (try? EditedHugeStateLog.write(path: path, items: items)) ?? 0 }
    let fileBytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    guard stateBytes > 0 else { return print("huge-state: could not record the log") }
    Benchmark.report("record \(EditedHugeStateLog.edits(items: items).count + 1) entries, \(megabytes(stateBytes)) state",
                     Benchmark.format(seconds: writeSeconds), baseline: "file " + megabytes(fileBytes))

    // In this process: the first screen, then the value viewer on the whole list.
    var probe: InspectorProbe?
    let firstScreen = Benchmark.once {
        probe = try? InspectorProbe(path: path, columns: 120, rows: 40, indexInBackground: true)
        _ = probe?.screenText()
    }
    guard let probe else { return print("huge-state: could not open the log") }
    let stateShown = Benchmark.once { probe.waitUntilStateShown() }
    Benchmark.report("first screen (open, model, render)", Benchmark.format(seconds: firstScreen),
                     baseline: "state shown after " + Benchmark.format(seconds: firstScreen + stateShown))
    guard probe.selectStateNode("/items") else { return print("huge-state: /items is not in the first state") }
    let opening = probe.pressTimed(["v"])[0]
    let viewerKeys = ["j", "<PgDn>", "G", "k", "<PgUp>", "g", "<Esc>"]
    let pressed = probe.pressTimed(viewerKeys)
    Benchmark.report("v on /items (\(megabytes(stateBytes)) node): open", Benchmark.format(seconds: opening), baseline: "target 100 ms")
    Benchmark.report("  each key in the viewer (worst of \(viewerKeys.joined(separator: " ")))",
                     Benchmark.format(seconds: pressed.max() ?? 0), baseline: "target 50 ms")
    for (key, seconds) in zip(viewerKeys, pressed) { Benchmark.report("    \(key)", Benchmark.format(seconds: seconds)) }

    // `f` and the filter it applies read every entry's action type, a slice per event on the
    // input thread: the CPU time of its worst event (what holds under load), against reading
    // the keyframe's line whole, which a slice did before it read only a long line's head.
    let picker = probe.typeAndFinishScans("f")
    let pickerCPU = probe.eventCPUSeconds
    let filter = probe.typeAndFinishScans("\n")
    let filterCPU = probe.eventCPUSeconds
    _ = probe.typeAndFinishScans("f")   // clears the filter
    let wholeLine = Benchmark.once { _ = try? LogReader(path: path).entry(at: 0) }
    Benchmark.report("f: the picker's scan, worst event CPU / wall", Benchmark.format(seconds: pickerCPU.max() ?? 0),
                     baseline: Benchmark.format(seconds: picker.max() ?? 0))
    Benchmark.report("  Enter: the filter's scan, worst event CPU / wall", Benchmark.format(seconds: filterCPU.max() ?? 0),
                     baseline: Benchmark.format(seconds: filter.max() ?? 0))
    Benchmark.report("  the keyframe's line read whole (open + entry(at:))", Benchmark.format(seconds: wholeLine))
    // A timeline row needs the entry's head: the keyframe's row reads its first 64 kB, against the whole line it read before.
    let opened = try? LogReader(path: path)
    let rowFromHead = Benchmark.once { _ = try? opened?.entryReadUpToItsState(at: 0) }
    let rowFromLine = Benchmark.once { _ = try? opened?.entry(at: 0) }
    Benchmark.report("the keyframe's row: read up to its state / whole line", Benchmark.format(seconds: rowFromHead),
                     baseline: Benchmark.format(seconds: rowFromLine))

    let parseReport = directory.path + "/parse.report"
    if let run = ChildRun.measure(Bundle.main.executablePath ?? "", ["huge-state-session", "parse", path, parseReport, directory.path, "0"]),
       run.status == 0, let text = try? String(contentsOfFile: parseReport, encoding: .utf8) {
        let fields = text.split(separator: "\t")
        let grown = Int(fields[1]) ?? 0
        Benchmark.report("one state rebuilt: resident growth", megabytes(grown),
                         baseline: "\(Benchmark.format3(Double(grown) / Double(stateBytes)))× its JSON")
    }
    // The same state as the inspector holds it (`stateNode(at:)`: the keyframe's line kept, its big
    // containers as nodes), against the reader with laziness off (the keyframe parsed into a tree,
    // as `state(at:)` rebuilt it before): resident growth and time, each in a child of its own.
    var rebuilt: [String: (grown: Int, seconds: Double, valueSeconds: Double)] = [:]
    for form in ["node", "tree"] {
        let report = directory.path + "/\(form).report"
        guard let run = ChildRun.measure(Bundle.main.executablePath ?? "", ["huge-state-session", form, path, report, directory.path, "0"]),
              run.status == 0, let text = try? String(contentsOfFile: report, encoding: .utf8) else { continue }
        let fields = text.split(separator: "\t")
        rebuilt[form] = (Int(fields[1]) ?? 0, Double(fields[2]) ?? 0, Double(fields[3]) ?? 0)
    }
    if let node = rebuilt["node"], let tree = rebuilt["tree"] {
        Benchmark.report("stateNode(at:) of the last entry: resident growth", megabytes(node.grown),
                         baseline: "as a tree: \(megabytes(tree.grown)); the line \(megabytes(fileBytes))")
        Benchmark.report("  its time", Benchmark.format(seconds: node.seconds), baseline: "as a tree: " + Benchmark.format(seconds: tree.seconds))
        Benchmark.report("  state(at:) (the node, then its value)", Benchmark.format(seconds: node.seconds + node.valueSeconds),
                         baseline: "as a tree: " + Benchmark.format(seconds: tree.seconds + tree.valueSeconds))
    }
    for session in ["huge-state", "huge-state-export", "huge-state-export-esc"] {
        runSessionInChild(session, log: path, entries: EditedHugeStateLog.edits(items: items).count + 1, directory: directory.path,
                          stateBytes: stateBytes)
    }

    let hugePath = directory.appendingPathComponent("huge.jsonl").path
    let entries = quick ? 20_000 : 1_000_000
    let hugeBytes = BenchmarkLog.write(path: hugePath, entries: entries, keyframeInterval: 32, items: 24, noteBytes: 860)
    Benchmark.report("generate log (\(entries) entries)", megabytes(Int(hugeBytes)))
    runSessionInChild("huge-log", log: hugePath, entries: entries, directory: directory.path, stateBytes: nil)
}

/// The keys a person presses in each session, with what they wait to see.
private func sessionScript(_ name: String, entries: Int) -> [String] {
    func typed(_ text: String) -> [String] { text.map { String($0) } }
    switch name {
    case "open":
        // Only the first screen with its state (for a profiler).
        return ["wait:items ["]
    case "huge-state":
        return ["wait:items ["]
            + ["j", "j", "j", "k", "G", "g"] + typed(":30") + ["<Enter>", "g"]
            + ["<Tab>"] + typed("/Item 9999:") + ["<Enter>", "n"]
            + ["g", "v", "j", "<PgDn>", "G", "k", "<PgUp>", "g", "<Esc>"]
            + ["<Tab>", "j", "l", "h", "<Tab>", "<Tab>"]
            + ["f", "<Esc>", "j", "y"]
            // The filter: the picker's scan, then the one that applies the type under the cursor.
            + ["f", "sleep:1", "<Down>", "<Enter>", "sleep:1", "j", "k", "f"]
    case let keys where keys.hasPrefix("keys:"):
        // Keys given on the command line (`keys:G sleep:0.5 g`), to time or profile a few alone.
        return ["wait:items ["] + keys.dropFirst("keys:".count).split(separator: " ").map(String.init)
    case "huge-state-export":
        // `e` on the entry that loads the list: a 76 MB report of its 30 MB diff, built and written
        // in the background; apart, so that its memory is not counted as browsing's.
        return ["wait:items ["] + typed(":1") + ["<Enter>", "e", "j", "k", "wait:Exported", "<Esc>"]
    case "huge-state-export-esc":
        // The same export, Esc once the status bar says it is under way: how soon the screen says
        // it is cancelled (the worker has stopped).
        return ["wait:items ["] + typed(":1") + ["<Enter>", "e", "wait:exporting… ", "<Esc>", "wait:Export cancelled"]
    default:
        // Right after opening, while the log is still being indexed.
        return typed(":\(entries * 9 / 10)") + ["<Enter>", "wait:entry \(entries * 9 / 10)/"]
            + ["G", "wait:entry \(entries)/\(entries)"]
            + ["k", "j", "g", "G"] + typed(":\(entries / 2)") + ["<Enter>"]
            + ["f", "<Esc>"] + typed("/no such action") + ["<Enter>", "sleep:1", "<Esc>"]
            + ["<Tab>", "j", "v", "j", "<Esc>", "w", "sleep:1", "<Esc>"]
    }
}

/// Runs the session named `name` over `log` in a child process (`rewind-bench huge-state-session …`)
/// and prints what each key waited, the longest time away from the keyboard and the child's peak memory.
private func runSessionInChild(_ name: String, log: String, entries: Int, directory: String, stateBytes: Int?) {
    let report = directory + "/\(name).report"
    guard let executable = Bundle.main.executablePath,
          let run = ChildRun.measure(executable, ["huge-state-session", name, log, report, directory, String(entries)]), run.status == 0,
          let text = try? String(contentsOfFile: report, encoding: .utf8) else {
        return print("\(name): the session did not run")
    }
    var presses: [(String, Double)] = []
    var away = 0.0
    var awayAfter = ""
    var resident: [Int] = []
    for line in text.split(separator: "\n") {
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        switch fields.first {
        case "press":
            presses.append((fields[1], Double(fields[2]) ?? 0))
            resident.append(Int(fields[3]) ?? 0)
        case "away":
            away = Double(fields[1]) ?? 0
            awayAfter = fields.count > 2 ? fields[2] : ""
        case "wait":
            let seconds = Double(fields[1]) ?? .infinity
            let afterKey = fields.count > 3 ? Double(fields[3]) ?? .infinity : .infinity
            Benchmark.report("  \(name): screen shows \"\(fields[2])\" after", seconds.isFinite ? Benchmark.format(seconds: seconds) : "never (gave up)",
                             baseline: afterKey.isFinite ? Benchmark.format(seconds: afterKey) + " after the last key" : nil)
        case "screen": print("  last status: " + fields.dropFirst().joined())
        default: break
        }
    }
    let worst = presses.max { $0.1 < $1.1 }
    Benchmark.report("session \(name): \(presses.count) keys, worst key \(worst.map { "(\($0.0))" } ?? "")",
                     Benchmark.format(seconds: worst?.1 ?? 0), baseline: "target 100 ms")
    Benchmark.report("  longest time away from the keyboard", Benchmark.format(seconds: away), baseline: "after \(awayAfter)")
    for (key, seconds) in presses where seconds > 0.05 { Benchmark.report("    slow key \(key)", Benchmark.format(seconds: seconds)) }
    let peak = run.peakResidentBytes
    // Where the memory goes: resident after each key (the peak may fall between two keys).
    print("  resident after each key (MB): " + zip(presses, resident).map { "\($0.0) \($1 / 1_000_000)" }.joined(separator: ", "))
    if let stateBytes {
        Benchmark.report("  peak resident memory", megabytes(peak),
                         baseline: "\(Benchmark.format3(Double(peak) / Double(stateBytes)))× the state (target 3×)")
    } else {
        Benchmark.report("  peak resident memory", megabytes(peak))
    }
}

/// The child's side of ``runSessionInChild(_:log:entries:directory:stateBytes:)``:
/// `huge-state-session NAME LOG REPORT DIRECTORY ENTRIES`.
func runHugeStateSession(_ arguments: [String]) {
    guard arguments.count == 5, let entries = Int(arguments[4]) else { exit(2) }
    let (name, log, reportPath, directory) = (arguments[0], arguments[1], arguments[2], arguments[3])
    if name == "parse" {
        // What one state takes parsed: resident memory before and after rebuilding the last one.
        guard let reader = try? LogReader(path: log) else { exit(1) }
        let before = Benchmark.residentBytes()
        let state = try? reader.state(at: reader.entryCount - 1)
        let after = Benchmark.residentBytes()
        let text = "parsed\t\(after - before)\t\(state.map { JSONWriter.compact($0).count } ?? 0)"
        _ = FileManager.default.createFile(atPath: reportPath, contents: Data(text.utf8))
        return
    }
    if name == "node" || name == "tree" {
        // One state rebuilt as a node, lazily (`node`) or with laziness off (`tree`): resident growth and time.
        let lazyStates = name == "node" ? LazyStates.standard : LazyStates(keyframeBytes: .max, containerBytes: .max)
        guard let reader = try? LogReader(path: log, indexing: .all, opened: nil, readAhead: nil, lazyStates: lazyStates) else { exit(1) }
        let before = Benchmark.residentBytes()
        var node: JSONNode?
        let seconds = Benchmark.once { node = try? reader.stateNode(at: reader.entryCount - 1) }
        let after = Benchmark.residentBytes()
        // Then the tree of it, as `state(at:)` hands it out.
        var count = 0
        let treeSeconds = Benchmark.once { count = node.map { JSONNode($0.value) }?.count ?? -1 }
        let text = "\(name)\t\(after - before)\t\(seconds)\t\(treeSeconds)\t\(count)"
        _ = FileManager.default.createFile(atPath: reportPath, contents: Data(text.utf8))
        return
    }
    guard let report = try? PacedSession.run(path: log, script: sessionScript(name, entries: entries), directory: directory,
                                             residentBytes: Benchmark.residentBytes) else { exit(1) }
    var text = report.presses.map { "press\t\($0.label)\t\($0.seconds)\t\($0.residentBytes)" }.joined(separator: "\n")
    text += "\naway\t\(report.longestAway)\t\(report.longestAwayAfter)"
    for (shown, seconds, afterKey) in report.waits { text += "\nwait\t\(seconds)\t\(shown)\t\(afterKey)" }
    let lines = report.lastScreen.split(separator: "\n")
    if lines.count >= 2 { text += "\nscreen\t" + lines[lines.count - 2].trimmingCharacters(in: .whitespaces) }
    _ = FileManager.default.createFile(atPath: reportPath, contents: Data(text.utf8))
}

private func megabytes(_ bytes: Int) -> String { Benchmark.format3(Double(bytes) / 1e6) + " MB" }
