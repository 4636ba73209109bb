import Foundation
import Recorder
@_spi(Testing) import RewindJSON

// A realistic app state: strings, integers, doubles, booleans, optionals,
// nested structs and arrays.
private struct BenchUser: Codable {
    var id: Int
    var name: String
    var email: String
}

private struct BenchTodo: Codable {
    var id: Int
    var title: String
    var notes: String?
    var done: Bool
    var priority: Double
    var tags: [String]
    var owner: BenchUser
    var dueIn: Int?
}

private struct BenchSettings: Codable {
    var theme: String
    var fontSize: Double
    var notifications: Bool
}

private struct BenchState: Codable {
    var todos: [BenchTodo]
    var filter: String
    var selected: Int?
    var settings: BenchSettings
    var revision: Int
}

private func makeState(elements: Int, seed: Int = 0) -> BenchState {
    let tags = ["home", "work", "errand", "someday", "urgent"]
    let todos = (0..<elements).map { (index: Int) -> BenchTodo in
        let user = index % 13
        let owner = BenchUser(id: user, name: "User \(user)", email: "user\(user)@example.com")
        let notes: String? = index % 3 == 0 ? "Remember the oat one, not the almond one.\nTwo litres." : nil
        let dueIn: Int? = index % 5 == 0 ? nil : index * 3600
        let priority = Double(index % 7) * 0.37 + 0.1
        return BenchTodo(id: index, title: "Todo number \(index + seed) — buy \"milk\"", notes: notes, done: index % 2 == 0,
                         priority: priority, tags: Array(tags.prefix(index % 4)), owner: owner, dueIn: dueIn)
    }
    return BenchState(todos: todos, filter: "active", selected: elements / 2,
                      settings: BenchSettings(theme: "dark", fontSize: 13.5, notifications: true), revision: seed)
}

func runJSONBenchmarks() {
    print("\n## JSON engine")
    benchmarkEncoding()
    benchmarkParsing()
    benchmarkDiff()
    benchmarkPatchApply()
}

private func benchmarkPatchApply() {
    let count = Benchmark.quick ? 10_000 : 100_000
    let edits = Benchmark.quick ? 100 : 1_000
    let rows = JSONValue.array((0..<count).map { .integer(Int64($0)) })
    let original: JSONValue = ["state": ["rows": rows]]
    let patches = (0..<edits).map { index in
        JSONPatch([.replace(path: JSONPointer(tokens: ["state", "rows", String(index * 97 % count)]), value: -1)])
    }
    let inPlace = Benchmark.measure(rounds: 3) {
        var document = original
        for patch in patches { try? patch.apply(to: &document) }
    }
    let copying = Benchmark.measure(rounds: 1, minimumSeconds: 0) {
        var document = original
        for patch in patches { document = (try? patch.applied(to: document)) ?? document }
    }
    Benchmark.report("patch apply: \(edits) edits, \(count)-element array", Benchmark.format(seconds: inPlace),
                     baseline: Benchmark.format(seconds: copying), ratio: copying / inPlace)
    print("  (baseline: the same edits through applied(to:), which copies the edited array each time)")
}

private func benchmarkEncoding() {
    let sizes = Benchmark.quick ? [10, 1_000] : [10, 1_000, 100_000]
    for size in sizes {
        let state = makeState(elements: size)
        let byteCount = Double((try? JSONEncoding.compact(state))?.count ?? 0)
        let foundation = JSONEncoder()
        let (baseline, bytes) = Benchmark.compare(baseline: { _ = try? foundation.encode(state) },
                                                  candidate: { _ = try? JSONEncoding.compact(state) })
        let tree = Benchmark.measure { _ = try? JSONEncoding.value(of: state) }
        let baselineFigure = Benchmark.format(bytesPerSecond: byteCount / baseline)
        Benchmark.report("encode bytes, \(size) elements (\(Int(byteCount)) B)", Benchmark.format(bytesPerSecond: byteCount / bytes),
                         baseline: baselineFigure, ratio: baseline / bytes)
        Benchmark.report("encode JSONValue, \(size) elements", Benchmark.format(bytesPerSecond: byteCount / tree),
                         baseline: baselineFigure, ratio: baseline / tree)
        let floor = Benchmark.measure { try? state.encode(to: DiscardingEncoder()) }
        Benchmark.report("  Codable walk, writing nothing, no container reuse", Benchmark.format(bytesPerSecond: byteCount / floor),
                         baseline: baselineFigure, ratio: baseline / floor)
    }
    print("  (baseline: Foundation JSONEncoder, default settings, same values)")
}

private func benchmarkParsing() {
    // A state the size of a typical inspector keyframe, and a large one.
    for size in Benchmark.quick ? [1_000] : [2_500, 100_000] {
        guard let bytes = try? JSONEncoding.compact(makeState(elements: size)) else { return }
        let data = Data(bytes)
        let (baseline, ours) = Benchmark.compare(baseline: { _ = try? JSONSerialization.jsonObject(with: data) },
                                                 candidate: { _ = try? JSONParser.parse(bytes) })
        let baselineFigure = Benchmark.format(bytesPerSecond: Double(bytes.count) / baseline)
        Benchmark.report("parse, \(size)-element state (\(bytes.count) B)", Benchmark.format(bytesPerSecond: Double(bytes.count) / ours),
                         baseline: baselineFigure, ratio: baseline / ours)
        // The same parse on one core: large arrays are otherwise split across cores.
        let oneCore = Benchmark.measure {
            _ = bytes.withUnsafeBufferPointer { try? JSONParser.parse(buffer: $0, duplicateKeys: .lastValueWins, splitting: nil) }
        }
        Benchmark.report("  on one core (large arrays not split)", Benchmark.format(bytesPerSecond: Double(bytes.count) / oneCore),
                         baseline: baselineFigure, ratio: baseline / oneCore)
    }
    print("  (baseline: Foundation JSONSerialization.jsonObject on the same bytes; \(ProcessInfo.processInfo.activeProcessorCount) cores)")
}

private func benchmarkDiff() {
    // Two ~1 MB states: every 50th todo edited, a few removed and added.
    let size = Benchmark.quick ? 500 : 4_000
    var after = makeState(elements: size)
    for index in stride(from: 0, to: size, by: 50) { after.todos[index].done.toggle(); after.todos[index].title += " (edited)" }
    after.todos.remove(at: size / 3)
    after.todos.insert(makeState(elements: 1, seed: 99).todos[0], at: size / 4)
    after.revision += 1
    guard let old = try? JSONEncoding.value(of: makeState(elements: size)), let new = try? JSONEncoding.value(of: after) else { return }
    let stateBytes = JSONWriter.compact(old).count
    var patchCount = 0
    let diff = Benchmark.measure { patchCount = JSONDiff.patch(from: old, to: new).operations.count }
    let parseBaseline = Benchmark.measure { _ = try? JSONSerialization.jsonObject(with: Data(JSONWriter.compact(new))) }
    Benchmark.report("diff two \(stateBytes / 1000) kB states (\(patchCount) ops)", Benchmark.format(seconds: diff),
                     baseline: Benchmark.format(seconds: parseBaseline), ratio: parseBaseline / diff)
    print("  (baseline: JSONSerialization parsing one of the two states)")

    let count = Benchmark.quick ? 1_000 : 10_000
    let array = JSONValue.array((0..<count).map { .object(JSONObject([("id", .integer(Int64($0))), ("title", .string("row \($0)"))])) })
    var shorter = array.arrayValue!
    shorter.remove(at: count / 2)
    let removed = JSONValue.array(shorter)
    var operations: [JSONPatchOperation] = []
    let arrayDiff = Benchmark.measure { operations = JSONDiff.patch(from: array, to: removed).operations }
    let arrayData = Data(JSONWriter.compact(array))
    let arrayParse = Benchmark.measure { _ = try? JSONSerialization.jsonObject(with: arrayData) }
    Benchmark.report("diff \(count)-element array, 1 removed (\(operations.count) op)", Benchmark.format(seconds: arrayDiff),
                     baseline: Benchmark.format(seconds: arrayParse), ratio: arrayParse / arrayDiff)
    print("  (baseline: JSONSerialization parsing one of the two arrays)")
}

/// Not timed: loops for a profiler, run only when named.
///   valgrind --tool=callgrind .build/release/rewind-bench parse-profile --rounds=3
/// The instructions one parse costs per byte are (total with --rounds=3 − total
/// with --rounds=0) ÷ 3 ÷ the byte count it prints; `perf record -g` works too.
func runJSONProfileLoops(parse: Bool, encode: Bool) {
    let rounds = CommandLine.arguments.lazy.compactMap { $0.hasPrefix("--rounds=") ? Int($0.dropFirst(9)) : nil }.first ?? 3
    let elements = CommandLine.arguments.lazy.compactMap { $0.hasPrefix("--elements=") ? Int($0.dropFirst(11)) : nil }.first ?? 10_000
    let state = makeState(elements: elements)
    if parse, let bytes = try? JSONEncoding.compact(state) {
        for _ in 0..<rounds { _ = try? JSONParser.parse(bytes) }
        print("parse-profile: parsed the \(elements)-element state (\(bytes.count) B) \(rounds) times")
    }
    if encode && CommandLine.arguments.contains("--foundation") {
        // The baseline, for comparing instruction counts: Foundation's JSONEncoder.
        let foundation = JSONEncoder()
        var total = 0
        for _ in 0..<rounds { total += (try? foundation.encode(state))?.count ?? 0 }
        print("encode-profile --foundation: JSONEncoder encoded the \(elements)-element state \(rounds) times (\(total) B)")
    } else if encode && CommandLine.arguments.contains("--discard") {
        // The floor: Codable dispatch alone, through an encoder that writes nothing.
        //   valgrind --tool=callgrind --toggle-collect='$s12rewind_bench17DiscardingEncoderC*' … encode-profile --discard
        for _ in 0..<rounds { try? state.encode(to: DiscardingEncoder()) }
        print("encode-profile --discard: walked the \(elements)-element state \(rounds) times through DiscardingEncoder")
    } else if encode {
        var total = 0
        for _ in 0..<rounds { total += (try? JSONEncoding.compact(state))?.count ?? 0 }
        print("encode-profile: encoded the \(elements)-element state \(rounds) times (\(total) B)")
    }
}
