import Foundation

// swift run -c release rewind-bench [--quick] [json|recorder|inspector|export|states|replay|trace|queries|search|live|catalog|history|readers ...]
// Each section compares Rewind against a baseline measured in the same run.
// `parse-profile` and `encode-profile` are untimed loops for a profiler, run only when named;
// so is `recording-table` (the recorder over state sizes from 1 kB to 10 MB, a few minutes).
let arguments = CommandLine.arguments.dropFirst()
let sections = arguments.filter { !$0.hasPrefix("--") }
let profileLoops = ["parse-profile", "encode-profile"]
func wants(_ section: String) -> Bool { sections.isEmpty || sections.contains(section) }

print("rewind-bench\(Benchmark.quick ? " (quick smoke run: figures are not meaningful)" : "")")
// Sections register here: if wants("json") { runJSONBenchmarks() } …
if wants("json") { runJSONBenchmarks() }
if wants("recorder") { runRecorderBenchmarks() }
if sections.contains("recording-table") { runRecordingCostTable() }
if sections.contains("writer-profile") { runWriterProfileLoop() }
if sections.contains("writer-profile-100") { runWriterProfileLoop(onlyHundredTodos: true) }
if sections.contains("writer-profile-10k") { runWriterProfileLoop(todos: 10_000) }
if sections.contains("rebuild-profile") { runRebuildProfileLoop() }
if sections.contains("pace-profile") { runPaceProfileLoop() }
if sections.contains("rebuild-profile-100") { runRebuildProfileLoop(hundredTodos: true) }
if wants("inspector") { runInspectorBenchmarks() }
if wants("export") { runExportBenchmarks() }
if wants("states") { runStatesExportBenchmarks() }
if wants("replay") { runReplayBenchmarks() }
if wants("trace") { runTraceBenchmarks() }
if wants("queries") { runQueryBenchmarks() }
if wants("search") { runSearchBenchmarks() }
if wants("live") { runLiveBenchmarks() }
if wants("catalog") { runCatalogBenchmarks() }
if wants("history") { runPathHistoryBenchmarks() }
if wants("readers") { runReaderBenchmarks() }
if sections.contains(where: profileLoops.contains) {
    runJSONProfileLoops(parse: sections.contains("parse-profile"), encode: sections.contains("encode-profile"))
}
