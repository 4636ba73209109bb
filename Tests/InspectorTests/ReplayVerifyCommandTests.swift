import Foundation
import SampleDomains
import Testing
@testable import Inspector
@testable import Recorder

/// `verify <log>` in a debug executable built with `Inspector.main(reducer:)`.
@Suite struct ReplayVerifyCommandTests {
    @Test func aRecordingThatReplaysExitsZeroWithTheCompatibilityReport() throws {
        let log = try ReplayLogs.todo()
        var streams = CapturedStreams()
        let status = Inspector.run(["verify", log.path], replay: Inspector.link(TodoDomain.reduce), streams: &streams)
        #expect(status == 0)
        #expect(streams.standardError == "")
        #expect(streams.standardOutput == """
            \(log.path): 12 entries
            actions: 6 types, 6 ok, 0 cannot be replayed
              ok               add (4 entries)
              ok               tag (1 entry)
              ok               toggle (2 entries)
              ok               setFilter (3 entries)
              ok               delete (1 entry)
              ok               clearCompleted (1 entry)
            states: ok (6 recorded states decode)
            verify: ok, all 12 entries replay to the recorded states

            """)
    }

    @Test func aChangedReducerExitsOneWithTheFirstDivergence() throws {
        let log = try ReplayLogs.todo()
        func changed(_ state: inout SampleDomains.TodoState, _ action: SampleDomains.TodoAction) {
            TodoDomain.reduce(&state, action)
            if case .add = action { state.todos[state.todos.count - 1].tags = ["new"] }
        }
        var streams = CapturedStreams()
        let status = Inspector.run(["verify", log.path], replay: Inspector.link(changed), streams: &streams)
        #expect(status == 1)
        let report = streams.standardOutput.components(separatedBy: "states: ok (6 recorded states decode)\n").last
        #expect(report == """
            verify: FAILED at entry 1
            entry 1 of 12 diverges: add title: "Buy milk"
            recorded (-) → recomputed (+):
                {
                  "todos": [
                    {
                      … (3 unchanged)
                      "tags": [
              +         "new"
                      ]
                    }
                  ]
                  … (3 unchanged)
                }
            4 entries fail in all: 1, 2, 3, 7

            """)
    }

    @Test func undecodableActionsAreReportedAndFailVerification() throws {
        enum OldAction: Codable { case add(title: String), archive(id: Int) }
        let log = try ReplayLogs.record(initial: SampleDomains.TodoState(), script: [OldAction.add(title: "a"), .archive(id: 1)]) { state, action in
            if case .add(let title) = action { TodoDomain.reduce(&state, .add(title: title)) }
        }
        var streams = CapturedStreams()
        let status = Inspector.run(["verify", log.path], replay: Inspector.link(TodoDomain.reduce), streams: &streams)
        #expect(status == 1)
        #expect(streams.standardOutput.contains(#"  cannot decode    archive (1 entry, e.g. entry 2): TodoAction has no case named "archive""#))
        #expect(streams.standardOutput.contains("verify: FAILED at entry 2\nentry 2 (archive): the action cannot be decoded with the current Action type: "))
    }

    @Test func aMissingLogIsAOneLineErrorWithStatus2() {
        var streams = CapturedStreams()
        #expect(Inspector.run(["verify", "/nonexistent/x.jsonl"], programName: "debug", replay: Inspector.link(TodoDomain.reduce), streams: &streams) == 2)
        #expect(streams.standardError == "debug verify: /nonexistent/x.jsonl: no such file\n")
        var usage = CapturedStreams()
        #expect(Inspector.run(["verify"], programName: "debug", replay: Inspector.link(TodoDomain.reduce), streams: &usage) == 2)
        #expect(usage.standardError == "debug verify: missing <log>\nusage: debug verify <log>\nSee 'debug verify --help'.\n")
    }

    @Test func otherCommandsAreTheRewindCommands() throws {
        let log = try ReplayLogs.todo()
        var streams = CapturedStreams()
        #expect(Inspector.run(["log", log.path], replay: Inspector.link(TodoDomain.reduce), streams: &streams) == 0)
        #expect(streams.standardOutput.split(separator: "\n").count == 12)
        var help = CapturedStreams()
        #expect(Inspector.run(["--help"], replay: Inspector.link(TodoDomain.reduce), streams: &help) == 0)
        #expect(help.standardOutput.contains("\n  verify   replay every entry through the linked reducer"))
    }
}

/// Real logs recorded from the sample domains, in temporary directories.
enum ReplayLogs {
    struct Log {
        /// Kept with the log, so the directory lives as long as the test holds the log.
        let folder = TemporaryDirectory()
        var directory: String { folder.path }
        var path: String { folder.file("log.jsonl") }
    }

    static func todo() throws -> Log {
        try record(initial: SampleDomains.TodoState(), script: TodoDomain.script, reducer: TodoDomain.reduce)
    }

    /// The todo log with line `damagedLine` (1-based; line 1 is the header) damaged:
    /// one byte in the middle of it flipped, so its checksum no longer matches.
    static func todo(damagedLine: Int) throws -> Log {
        let log = try todo()
        var lines = try Data(contentsOf: URL(fileURLWithPath: log.path)).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
        let middle = lines[damagedLine - 1].count / 2
        lines[damagedLine - 1][middle] = lines[damagedLine - 1][middle] == UInt8(ascii: "a") ? UInt8(ascii: "b") : UInt8(ascii: "a")
        try Data(lines.joined(separator: [UInt8(ascii: "\n")])).write(to: URL(fileURLWithPath: log.path))
        return log
    }

    static func record<State, Action, Result>(
        initial: State, script: [Action], reducer: @escaping (inout State, Action) -> Result
    ) throws -> Log {
        let log = Log()
        var options = ActionRecorder.Options()
        options.keyframeInterval = 4
        options.clock = .fixed(start: 1_764_400_000, step: 0.25)
        let recorder = try ActionRecorder(file: log.path, options: options)
        let recording = recorder.recording(reducer)
        var state = initial
        for action in script { _ = recording(&state, action) }
        try recorder.close()
        return log
    }
}
