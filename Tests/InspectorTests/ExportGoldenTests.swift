import Foundation
import Testing
@testable import Recorder
@testable import Inspector
import SampleDomains

/// Golden files: expected output kept in `Tests/InspectorTests/Golden/`, compared
/// as exact text. Run with `REWIND_RECORD_GOLDEN=1 swift test --filter Export` to
/// re-record them after an intended change, then review the diff in git.
enum Golden {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden").path
    static var isRecording: Bool { ProcessInfo.processInfo.environment["REWIND_RECORD_GOLDEN"] == "1" }

    static func expect(_ actual: String, matches name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let path = directory + "/" + name
        guard !isRecording, let expected = try? String(contentsOfFile: path, encoding: .utf8) else {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                try actual.write(toFile: path, atomically: true, encoding: .utf8)
                Issue.record("Recorded golden file \(name); run the tests again without REWIND_RECORD_GOLDEN", sourceLocation: sourceLocation)
            } catch {
                Issue.record("Cannot write golden file \(path): \(error)", sourceLocation: sourceLocation)
            }
            return
        }
        #expect(actual == expected, "differs from Golden/\(name) (REWIND_RECORD_GOLDEN=1 re-records it)", sourceLocation: sourceLocation)
    }
}

/// The sample domains' scripts (todo list, two cars, search with an effect)
/// written as logs with fixed times, so exports of them are reproducible.
enum ExportFixtures {
    static let start = 1_764_400_000.0

    enum Sample: String, CaseIterable {
        case todo, garage, search
    }

    static func log(_ sample: Sample, in directory: String) throws -> String {
        switch sample {
        case .todo:
            var state = TodoState()
            return try write(sample, initial: state, steps: TodoDomain.script.map { action in
                TodoDomain.reduce(&state, action)
                return (action, state, nil)
            }, in: directory)
        case .garage:
            var state = GarageState()
            return try write(sample, initial: state, steps: GarageDomain.script.map { action in
                GarageDomain.reduce(&state, action)
                return (action, state, nil)
            }, in: directory)
        case .search:
            // A store that runs each effect's actions right after the action that started it.
            var state = SearchState()
            var steps: [(SearchAction, SearchState, Int64?)] = []
            for action in SearchDomain.script {
                let effects = SearchDomain.reduce(&state, action)
                let cause = Int64(steps.count)
                steps.append((action, state, nil))
                for effect in effects {
                    _ = SearchDomain.reduce(&state, effect)
                    steps.append((effect, state, cause))
                }
            }
            return try write(sample, initial: SearchState(), steps: steps, in: directory)
        }
    }

    private static func write<State: Encodable, Action: Encodable>(
        _ sample: Sample, initial: State, steps: [(Action, State, Int64?)], in directory: String
    ) throws -> String {
        var builder = LogBuilder(header: LogHeader(
            created: Date(timeIntervalSince1970: start), processName: "rewind-demo",
            stateTypeName: "SampleDomains.\(State.self)", actionTypeName: "SampleDomains.\(Action.self)",
            keyframeInterval: 4, initialState: try JSONEncoding.value(of: initial), isStateReplayable: true))
        for (index, (action, state, cause)) in steps.enumerated() {
            builder.append(LogBuilder.Entry(
                time: Date(timeIntervalSince1970: start + 0.25 * Double(index + 1)), durationNanoseconds: 1500,
                action: LogEntry.Action(type: RecordedValue.actionName(action), payload: try JSONEncoding.value(of: action), replayable: true),
                effectOf: cause, state: try JSONEncoding.value(of: state)))
        }
        let path = directory + "/\(sample.rawValue).jsonl"
        try Data(builder.bytes).write(to: URL(fileURLWithPath: path))
        return path
    }
}

/// Runs `rewind export …` writing to a file and returns the file's text.
func exportText(_ arguments: [String], in directory: TemporaryDirectory, sourceLocation: SourceLocation = #_sourceLocation) -> String {
    let output = directory.file("export-\(UUID().uuidString)")
    var streams = CapturedStreams()
    let status = RewindCommandLine.run(["export"] + arguments + ["-o", output], streams: &streams)
    #expect(status == 0, "rewind export failed: \(streams.standardError)", sourceLocation: sourceLocation)
    #expect(streams.standardError.isEmpty, sourceLocation: sourceLocation)
    return (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
}

/// The logs `swift run rewind-demo` writes into sample-logs/ (deterministic: fixed clock).
enum SampleLogs {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("sample-logs").path
    static let names = ["todos", "garage", "search", "player"]
    static func path(_ name: String) -> String { directory + "/\(name).jsonl" }
}

@Suite struct ExportGoldenTests {
    @Test(arguments: SampleLogs.names, ExportFormat.allCases)
    func everyFormatOfEverySampleLogMatchesItsGoldenFile(sample: String, format: ExportFormat) throws {
        let directory = TemporaryDirectory()
        var text = exportText([SampleLogs.path(sample), "--format", format.rawValue], in: directory)
        let suffix = switch format {
        case .markdown: "md"
        case .patch: "patch.json"
        case .unified: "diff"
        case .jsonl: "jsonl"
        case .reduxDevTools: "redux-devtools.json"
        case .states: "states.jsonl"
        }
        // Rows name the recording as it was given, here a path that differs from machine to machine.
        if format == .states { text = text.replacingOccurrences(of: SampleLogs.path(sample), with: "\(sample).jsonl") }
        Golden.expect(text, matches: "\(sample).\(suffix)")
    }

    @Test func aRangeWithAPathAndPerEntryPartsMatchTheirGoldenFiles() throws {
        let directory = TemporaryDirectory()
        let log = SampleLogs.path("todos")
        let range = ["--from", "4", "--to", "7"]
        Golden.expect(exportText([log, "--format", "markdown", "--path", "/todos"] + range, in: directory), matches: "todos-4-7-todos.md")
        Golden.expect(exportText([log, "--format", "patch", "--per-entry"] + range, in: directory), matches: "todos-4-7.per-entry.patch.json")
        Golden.expect(exportText([log, "--format", "unified", "--per-entry", "--path", "/stats"] + range, in: directory), matches: "todos-4-7-stats.per-entry.diff")
    }

    /// Every sample log: a jsonl slice of its middle opens with the same states,
    /// and its redux-devtools export imports back to the same actions and states.
    @Test(arguments: SampleLogs.names)
    func sampleLogsRoundTripThroughJSONLinesAndReduxDevTools(sample: String) throws {
        let directory = TemporaryDirectory()
        let original = try LogReader(path: SampleLogs.path(sample))
        let count = original.entryCount
        #expect(count >= 4)
        var streams = CapturedStreams()
        let slice = directory.file("slice.jsonl")
        #expect(RewindCommandLine.run(["export", original.path, "--from", "2", "--to", String(count - 1), "--format", "jsonl", "-o", slice], streams: &streams) == 0)
        let sliced = try LogReader(path: slice)
        #expect(sliced.entryCount == count - 2)
        #expect(sliced.header.initialState == (try original.state(at: 0)))
        for index in 0..<(count - 2) {
            #expect(try sliced.state(at: index) == original.state(at: index + 1))
            #expect(try sliced.entry(at: index).action == original.entry(at: index + 1).action)
        }

        let redux = directory.file("export.json")
        let imported = directory.file("imported.jsonl")
        #expect(RewindCommandLine.run(["export", original.path, "--format", "redux-devtools", "-o", redux], streams: &streams) == 0)
        #expect(RewindCommandLine.run(["import", redux, "-o", imported], streams: &streams) == 0)
        #expect(streams.standardError.isEmpty)
        let back = try LogReader(path: imported)
        #expect(back.entryCount == count)
        #expect(back.header.initialState == original.header.initialState)
        for index in 0..<count {
            #expect(try back.entry(at: index).action.name == original.entry(at: index).action.name)
            #expect(try back.entry(at: index).action.payload == original.entry(at: index).action.payload)
            #expect(try back.state(at: index) == original.state(at: index))
        }
    }
}
