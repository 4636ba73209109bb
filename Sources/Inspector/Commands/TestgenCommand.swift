import Foundation
import Recorder
import RewindQuery

/// `rewind testgen <log> [--from A] [--to B] [--xctest] [-o File.swift]
/// [--reducer EXPR] [--module NAME]... [--redact RULE]...`: a regression test
/// that replays those entries' actions through the reducer and checks what
/// the recording saw (``GeneratedTest``), and its fixture beside it: the log
/// slice, redacted, whose header holds the starting state.
enum TestgenCommand: CommandRunner {
    /// What testgen is asked for, from the command line or from `rewind mcp`'s `testgen` tool.
    struct Request {
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
        /// Where the test starts when that is not where it was asked to (after ReSwift's own first action).
        var startNote: String?
    }

    static func run(_ invocation: Invocation, streams: inout some TextStreams) -> Int32 {
        func fail(_ message: String, streams: inout some TextStreams) -> Int32 { invocation.fail(message, streams: &streams) }
        var request = Request()
        for name in ["--from", "--to"] {
            guard let text = invocation[name] else { continue }
            guard let number = Int(text), number >= 1 else {
                return fail("\(name) takes an entry number (from 1), not '\(text)'", streams: &streams)
            }
            if name == "--from" { request.firstEntry = number } else { request.lastEntry = number }
        }
        request.redactionRules = invocation.values(of: "--redact")
        request.xctest = invocation.isSet("--xctest")
        request.reducer = invocation["--reducer"]
        request.modules = invocation.values(of: "--module")
        request.testPath = invocation["-o"]
        request.commandName = invocation.displayName
        if let problem = request.problem { return fail(problem, streams: &streams) }
        let logPath = invocation.positional[0]
        guard let timeline = CommandSupport.openLog(logPath, program: invocation.program.name, streams: &streams) else { return 2 }
        // Both files are checked before either is written (or the slice made): a refusal (the input
        // log under either name, a directory, a missing folder) leaves nothing behind.
        func check(_ testPath: String?, _ fixturePath: String) throws(UsageError) {
            do throws(OutputFile.Failure) {
                if let testPath { try OutputFile.check(testPath, inputs: [logPath]) }
                try OutputFile.check(fixturePath, inputs: [logPath])
            } catch {
                throw UsageError(error.description)
            }
        }
        let files: Files
        do throws(UsageError) {
            files = try make(request, from: timeline, checkOutputs: check)
        } catch {
            return fail(error.description, streams: &streams)
        }
        let fixtureWasNew = !OutputFile.nameIsTaken(files.fixturePath)
        do {
            try OutputFile.write(files.fixture, to: files.fixturePath, inputs: [logPath])
        } catch {
            return fail(error.description, streams: &streams)
        }
        if let testPath = files.testPath {
            do {
                try OutputFile.write(Array(files.test.source.utf8), to: testPath, inputs: [logPath])
            } catch {
                // A fixture without its test is a stray file; one that replaced an older fixture stays.
                if fixtureWasNew { unlink(files.fixturePath) }
                return fail(error.description, streams: &streams)
            }
            streams.output("Wrote \(testPath) (\(files.test.steps.count) steps) and \(files.fixturePath)")
        } else {
            streams.outputData(String(files.test.source.dropLast()))
            streams.error("\(invocation.displayName): wrote the fixture to \(files.fixturePath)")
        }
        if let startNote = files.startNote { streams.error("\(invocation.displayName): \(startNote)") }
        return 0
    }

    /// Makes the test and its fixture from `timeline` without writing either where the user would
    /// see them (`rewind mcp` returns them; the command then writes them). `checkOutputs` is handed
    /// the paths the files would take before any work on the slice. Throws one line on bad input.
    static func make(_ request: Request, from timeline: LogTimeline,
                     checkOutputs: (_ testPath: String?, _ fixturePath: String) throws(UsageError) -> Void = { _, _ in }) throws(UsageError) -> Files {
        if let problem = request.problem { throw UsageError(problem) }
        var export = ExportRequest(format: .jsonl)
        export.firstEntry = request.firstEntry
        export.lastEntry = request.lastEntry
        if !request.redactionRules.isEmpty {
            do { export.redaction = try Redaction(rules: request.redactionRules) } catch { throw UsageError(error.description) }
        }
        guard timeline.count > 0 else { throw UsageError("\(timeline.name.escapingControlCharacters) has no entries to replay") }
        // Entries by the numbers `rewind log` gives them (gaps take the numbers of the entries they stand for).
        let lastNumber = timeline.entryNumber(at: timeline.count - 1)
        // ReSwift's middleware records the store's own ReSwiftInit first: not replayable, and
        // nothing before it. Its recorded state is where the test starts.
        var startNote: String?
        if export.firstEntry == nil, timeline.initialState == nil, timeline.count > 1, timeline.entryNumber(at: 0) == 1,
           let entry = try? timeline.reader.entry(at: 0), !entry.action.isReplayable {
            export.firstEntry = timeline.entryNumber(at: 1)
            startNote = "starting at entry \(timeline.entryNumber(at: 1)): entry 1 (\(entry.action.name.escapingControlCharacters)) was recorded "
                + "by reflection, so it cannot be replayed, and the log holds no state before it; the state after it is where the test starts"
        }
        let first = export.firstEntry ?? 1, last = export.lastEntry ?? lastNumber
        guard first <= last, last <= lastNumber else {
            throw UsageError("entries \(first)–\(last) are not in \(timeline.name.escapingControlCharacters) (it has 1–\(lastNumber))")
        }
        guard first > 1 || timeline.initialState != nil else {
            throw UsageError("\(timeline.name.escapingControlCharacters) has no state before entry 1 to start from; use --from 2")
        }
        let range: ClosedRange<Int>
        do { range = try LogExporter.range(of: export, in: timeline) } catch { throw UsageError(error.description) }

        let testPath = request.testPath
        if testPath == "" { throw UsageError("-o takes the name of the test file to write, not ''") }
        let typeName = SwiftSource.typeName(
            from: testPath.map { ($0 as NSString).lastPathComponent } ?? (timeline.name as NSString).deletingPathExtension + "RecordingTests",
            avoiding: Set(request.modules).union(SwiftSource.identifiers(in: request.reducer ?? "")))
        let fixtureName = ((testPath.map { ($0 as NSString).lastPathComponent } ?? typeName + ".swift") as NSString)
            .deletingPathExtension + ".fixture.jsonl"
        let fixturePath = testPath.map { (($0 as NSString).deletingLastPathComponent as NSString).appendingPathComponent(fixtureName) } ?? fixtureName
        try checkOutputs(testPath, fixturePath)
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
            let row = range.lowerBound + step.index
            if let entry = try? fixtureLog.entry(at: step.index) {
                steps.append(GeneratedTest.Step(entry: entry, entryNumber: timeline.entryNumber(at: row), state: step.state,
                                                restartReason: restartReason(before: row, in: timeline, sliceStart: range.lowerBound)))
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
        return Files(testPath: testPath, fixturePath: fixturePath, fixtureName: fixtureName, typeName: typeName, test: test,
                     fixture: fixture, startNote: startNote)
    }

    /// Why the state before the entry at `row` is not the one the step before leaves (entries
    /// before it were not recorded, or a new recording session starts there), worded for the
    /// generated `steps.skip(…)`; nil when the entry replays from the previous state. A slice
    /// that starts at a new session starts from the state that session started from.
    static func restartReason(before row: Int, in timeline: LogTimeline, sliceStart: Int) -> String? {
        if let gap = timeline.reader.gaps.last(where: { $0.beforeEntry == row }) {
            let first = timeline.entryNumber(at: row) - max(1, gap.droppedCount)
            return GapDescription.notRecorded(numbered: first, gap: gap)
                + " before it, so the state it started from is unknown; the state recorded after it is taken"
        }
        if timeline.startsNewSession(at: row), row > sliceStart || timeline.stateBefore(row) == nil {
            return "a new recording session starts here (the log was opened again), so it does not start from the step before; the state recorded after it is taken"
        }
        return nil
    }
}

extension TestgenCommand.Request {
    /// What is wrong with the request before any file is read: a redaction rule, or a name that goes
    /// into the test as code (one line each, and an import names a module).
    var problem: String? {
        if !redactionRules.isEmpty {
            do { _ = try Redaction(rules: redactionRules) } catch { return error.description }
        }
        if let module = modules.first(where: { !$0.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { SwiftSource.isIdentifier(String($0)) } }) {
            return "--module takes a module name, not '\(module.escapingControlCharacters)'"
        }
        if let reducer, reducer.unicodeScalars.contains(where: SwiftSource.isEscaped) || reducer.isEmpty {
            return "--reducer takes one line of Swift naming the reducer, not '\(reducer.escapingControlCharacters)'"
        }
        return nil
    }
}
