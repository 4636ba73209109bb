import Foundation
import Inspector
import Recorder

// `rewind export` on a whole log, each format against the least any export must
// do: rebuild every state with LogReader (the baseline).
//
//   swift run -c release rewind-bench export           (10,000 entries)
//   swift run -c release rewind-bench --quick export   (smoke run)
func runExportBenchmarks() {
    print("\n## export")
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-bench-export-\(getpid())")
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }

    let entries = Benchmark.quick ? 500 : 10_000
    let path = directory.appendingPathComponent("export.jsonl").path
    let bytes = BenchmarkLog.write(path: path, entries: entries, keyframeInterval: 32, items: 24, noteBytes: 200)
    let logSize = Benchmark.format3(Double(bytes) / 1e6) + " MB"

    let baseline = Benchmark.once {
        guard let reader = try? LogReader(path: path) else { return }
        for index in 0..<reader.entryCount { _ = try? reader.state(at: index) }
    }
    Benchmark.report("rebuild all \(entries) states (\(logSize))", Benchmark.format(seconds: baseline))

    var redacting = ExportRequest(format: .jsonl)
    redacting.redaction = try? Redaction(rules: ["note"])
    let requests: [(String, ExportRequest)] = ExportFormat.allCases.map { ($0.rawValue, ExportRequest(format: $0)) }
        + [("jsonl --redact note", redacting)]
    for (name, request) in requests {
        var outputBytes = 0
        let seconds = Benchmark.once {
            outputBytes = (try? LogExporter.export(logAt: path, request))?.count ?? 0
        }
        guard outputBytes > 0 else {
            print("export: \(name) produced nothing")
            continue
        }
        Benchmark.report("export \(name) (\(Benchmark.format3(Double(outputBytes) / 1e3)) kB out)", Benchmark.format(seconds: seconds),
                         baseline: Benchmark.format(seconds: baseline), ratio: seconds / baseline)
    }
}
