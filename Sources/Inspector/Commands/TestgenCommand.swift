import Foundation
import Recorder

/// `rewind testgen <log> [--from A] [--to B] [--xctest] [-o File.swift]
/// [--reducer EXPR] [--module NAME]... [--redact RULE]...`: a regression test
/// that replays those entries' actions through the reducer and checks what
/// the recording saw (``GeneratedTest``), and its fixture beside it: the log
/// slice, redacted, whose header holds the starting state.
enum TestgenCommand: CommandRunner {
    /// What testgen is asked for, from the command line or from `rewind mcp`'s `testgen` tool.
    struct Request {
        var logPath: String
        var firstEntry: Int?
        var lastEntry: Int?
        var redactionRules: [String] = []
        var xctest = false
        var reducer: String?
        var modules: [String] = []
        /// `-o`: the test's path (the fixture goes beside it); nil names both after the log.
        var testPath: String?
        /// How the generated test's comment names the command (`rewind testgen`, or a debug executable's).
        var commandName = "rewind testgen"
    }

    /// The test and its fixture, made but not written.
    struct Files {
        var testPath: String?
        var fixturePath: String
        /// The fixture's file name, as the test refers to it.
        var fixtureName: String
        var typeName: String
        var test: GeneratedTest
        var fixture: [UInt8]
    }

    static func run(_ invocation: Invocation, streams: inout some TextStreams) -> Int32 {
        var request = Request(logPath: invocation.positional[0])
        for name in ["--from", "--to"] {
            guard let text = invocation[name] else { continue }
            guard let number = Int(text), number >= 1 else {
                return invocation.fail("\(name) takes an entry number (from 1), not '\(text)'", streams: &streams)
            }
            if name == "--from" { request.firstEntry = number } else { request.lastEntry = number }
        }
        request.redactionRules = invocation.values(of: "--redact")
        request.xctest = invocation.isSet("--xctest")
        request.reducer = invocation["--reducer"]
        request.modules = invocation.values(of: "--module")
        request.testPath = invocation["-o"]
        request.commandName = invocation.displayName
        let files: Files
        do {
            files = try make(request)
        } catch {
            return invocation.fail(error.description, streams: &streams)
        }
        let logPath = request.logPath
        // Both files are checked before either is written: a refusal (the input
        // log under either name, a directory, a missing folder) leaves nothing behind.
        do {
            if let testPath = files.testPath { try OutputFile.check(testPath, inputs: [logPath]) }
            try OutputFile.check(files.fixturePath, inputs: [logPath])
        } catch {
            return invocation.fail(error.description, streams: &streams)
        }
        let fixtureWasNew = !OutputFile.nameIsTaken(files.fixturePath)
        do {
            try OutputFile.write(files.fixture, to: files.fixturePath, inputs: [logPath])
        } catch {
            return invocation.fail(error.description, streams: &streams)
        }
        if let testPath = files.testPath {
            do {
                try OutputFile.write(Array(files.test.source.utf8), to: testPath, inputs: [logPath])
            } catch {
                // A fixture without its test is a stray file; one that replaced an older fixture stays.
                if fixtureWasNew { unlink(files.fixturePath) }
                return invocation.fail(error.description, streams: &streams)
            }
            streams.output("Wrote \(testPath) (\(files.test.steps.count) steps) and \(files.fixturePath)")
        } else {
            streams.output(String(files.test.source.dropLast()))
            streams.error("\(invocation.displayName): wrote the fixture to \(files.fixturePath)")
        }
        return 0
    }

    /// Makes the test and its fixture without writing either where the user would see it
    /// (`rewind mcp` returns them; the command then writes them). Throws one line on bad input.
    static func make(_ request: Request) throws(UsageError) -> Files {
        var export = ExportRequest(format: .jsonl)
        export.firstEntry = request.firstEntry
        export.lastEntry = request.lastEntry
        if !request.redactionRules.isEmpty {
            do { export.redaction = try Redaction(rules: request.redactionRules) } catch { throw UsageError(error.description) }
        }
        let timeline: LogTimeline
        do { timeline = try LogTimeline(path: request.logPath) } catch { throw UsageError(error.description) }
        guard timeline.count > 0 else { throw UsageError("\(timeline.name) has no entries to replay") }
        let first = request.firstEntry ?? 1, last = request.lastEntry ?? timeline.count
        guard first <= last, last <= timeline.count else {
            throw UsageError("entries \(first)–\(last) are not in \(timeline.name) (it has 1–\(timeline.count))")
        }
        guard first > 1 || timeline.initialState != nil else {
            throw UsageError("\(timeline.name) has no state before entry 1 to start from; use --from 2")
        }
        let testPath = request.testPath
        if testPath == "" { throw UsageError("-o takes the name of the test file to write, not ''") }
        let typeName = GeneratedTest.typeName(from: testPath.map { ($0 as NSString).lastPathComponent }
            ?? (timeline.name as NSString).deletingPathExtension + "RecordingTests")
        let fixtureName = ((testPath.map { ($0 as NSString).lastPathComponent } ?? typeName + ".swift") as NSString)
            .deletingPathExtension + ".fixture.jsonl"
        let fixturePath = testPath.map { (($0 as NSString).deletingLastPathComponent as NSString).appendingPathComponent(fixtureName) } ?? fixtureName
        let fixture: [UInt8]
        do { fixture = try LogExporter.export(from: timeline, export) } catch { throw UsageError(error.description) }
        // The test is generated from the fixture as it will be written, so it checks exactly
        // what the fixture holds (redacted or not): a private copy is read back for that.
        let fixtureCopy = NSTemporaryDirectory() + "rewind-testgen-\(getpid())-\(UInt32.random(in: .min ... .max)).fixture.jsonl"
        defer { unlink(fixtureCopy) }
        let fixtureLog: LogReader
        do {
            try OutputFile.write(fixture, to: fixtureCopy, inputs: [])
            fixtureLog = try LogReader(path: fixtureCopy)
        } catch {
            throw UsageError(String(describing: error))
        }
        var steps: [GeneratedTest.Step] = []
        fixtureLog.scanStates(0..<fixtureLog.entryCount, keepingPrevious: false) { step in
            if let entry = try? fixtureLog.entry(at: step.index) {
                steps.append(GeneratedTest.Step(entry: entry, entryNumber: first + step.index, state: step.state))
            }
            return true
        }
        var command = "\(request.commandName) \(timeline.name)"
        if request.firstEntry != nil || request.lastEntry != nil { command += " --from \(first) --to \(last)" }
        if request.xctest { command += " --xctest" }
        let test = GeneratedTest(
            framework: request.xctest ? .xctest : .swiftTesting,
            typeName: typeName, imports: request.modules, reducer: request.reducer,
            stateTypeName: timeline.reader.header.stateTypeName, actionTypeName: timeline.reader.header.actionTypeName,
            fixtureName: fixtureName, command: command, logName: timeline.name, steps: steps)
        return Files(testPath: testPath, fixturePath: fixturePath, fixtureName: fixtureName, typeName: typeName, test: test, fixture: fixture)
    }
}
