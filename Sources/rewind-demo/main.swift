import Foundation
import Recorder
import RewindStore
import SampleDomains

// swift run rewind-demo [output-directory]
//
// Regenerates the sample logs (default: sample-logs/) from the four sample
// domains. A fixed clock makes the files identical on every run, so
// regenerating them does not churn the repository.

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains(where: { $0 == "-h" || $0 == "--help" }) || arguments.count > 1 {
    print("usage: rewind-demo [output-directory]   (default: sample-logs)")
    exit(arguments.count > 1 ? 2 : 0)
}
let directory = arguments.first ?? "sample-logs"

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("rewind-demo: \(message)\n".utf8))
    exit(2)
}

do {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
} catch {
    fail("cannot create \(directory): \(error.localizedDescription)")
}

/// A recorder writing `name` afresh, with a clock that starts at 2026-01-01 09:00 UTC
/// and advances 0.75 s per action.
func makeRecorder(_ name: String, about domain: String) -> ActionRecorder {
    let path = directory + "/" + name
    unlink(path)
    var options = ActionRecorder.Options()
    options.metadata = ["domain": domain, "generatedBy": "rewind-demo"]
    options.clock = .fixed(start: 1_767_258_000, step: 0.75)
    options.sessionID = "0000000000000000"   // reproducible sample logs
    do {
        return try ActionRecorder(file: path, options: options)
    } catch {
        fail(error.description)
    }
}

func finish(_ recorder: ActionRecorder) {
    do {
        try recorder.close()
        print("wrote \(recorder.path)")
    } catch {
        fail(error.description)
    }
}

/// Records `script` through `reducer` wrapped by a recorder writing `file`.
func recordScript<State, Action>(
    _ file: String, about summary: String, initialState: State, script: [Action], reducer: @escaping (inout State, Action) -> Void
) {
    let recorder = makeRecorder(file, about: summary)
    let recording = recorder.recording(reducer)
    var state = initialState
    for action in script { recording(&state, action) }
    finish(recorder)
}

// 1. A todo list: a plain closure reducer, wrapped.
recordScript("todos.jsonl", about: "todo list: add, toggle, delete, filter",
             initialState: TodoState(), script: TodoDomain.script, reducer: TodoDomain.reduce)

// 2. Two cars of the same child module: one routed by `.primary(…)`, one by a slot value.
recordScript("garage.jsonl", about: "two namespaced cars with engines",
             initialState: GarageState(), script: GarageDomain.script, reducer: GarageDomain.reduce)

// 3. A search screen whose effect delivers results later, through the reference store.
let search = makeRecorder("search.jsonl", about: "search with asynchronous results")
let searchStore = Store(initialState: SearchState(), recorder: search) { state, action in
    let answers = SearchDomain.reduce(&state, action)
    return answers.isEmpty ? .none : .run { send in
        try? await Task.sleep(nanoseconds: 2_000_000)
        for answer in answers { send(answer) }
    }
}
for action in SearchDomain.script {
    searchStore.send(action)
    await searchStore.finishEffects()
}
finish(search)

// 4. State and actions that are not Codable: recorded through reflection.
recordScript("player.jsonl", about: "non-Codable state and actions (reflection)",
             initialState: PlayerState(), script: PlayerDomain.script, reducer: PlayerDomain.reduce)
