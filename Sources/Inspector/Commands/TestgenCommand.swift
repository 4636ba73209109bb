import Foundation
import Recorder

/// `rewind testgen <log> [--from A] [--to B] [--xctest] [-o File.swift]
/// [--reducer EXPR] [--module NAME]... [--redact RULE]...`: a regression test
/// that replays those entries' actions through the reducer and checks what
/// the recording saw (``GeneratedTest``), and its fixture beside it: the log
/// slice, redacted, whose header holds the starting state.
enum TestgenCommand: CommandRunner {
    static func run(_ invocation: Invocation, streams: inout some TextStreams) -> Int32 {
        func fail(_ message: String, streams: inout some TextStreams) -> Int32 { invocation.fail(message, streams: &streams) }
        var request = ExportRequest(format: .jsonl)
        for (name, keyPath) in [("--from", \ExportRequest.firstEntry), ("--to", \ExportRequest.lastEntry)] {
            guard let text = invocation[name] else { continue }
            guard let number = Int(text), number >= 1 else {
                return fail("\(name) takes an entry number (from 1), not '\(text)'", streams: &streams)
            }
            request[keyPath: keyPath] = number
        }
        let rules = invocation.values(of: "--redact")
        if !rules.isEmpty {
            do { request.redaction = try Redaction(rules: rules) } catch { return fail(error.description, streams: &streams) }
        }
        // Both go into the test as code: one line each, and an import names a module.
        let modules = invocation.values(of: "--module")
        if let module = modules.first(where: { !$0.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { SwiftSource.isIdentifier(String($0)) } }) {
            return fail("--module takes a module name, not '\(module.escapingControlCharacters)'", streams: &streams)
        }
        if let reducer = invocation["--reducer"], reducer.unicodeScalars.contains(where: SwiftSource.isEscaped) || reducer.isEmpty {
            return fail("--reducer takes one line of Swift naming the reducer, not '\(reducer.escapingControlCharacters)'", streams: &streams)
        }
        let logPath = invocation.positional[0]
        guard let timeline = CommandSupport.openLog(logPath, program: invocation.program.name, streams: &streams) else { return 2 }
        guard timeline.count > 0 else { return fail("\(timeline.name.escapingControlCharacters) has no entries to replay", streams: &streams) }
        // Entries by the numbers `rewind log` gives them (gaps take the numbers of the entries they stand for).
        let lastNumber = timeline.entryNumber(at: timeline.count - 1)
        // ReSwift's middleware records the store's own ReSwiftInit first: not replayable, and
        // nothing before it. Its recorded state is where the test starts.
        var startNote: String?
        if request.firstEntry == nil, timeline.initialState == nil, timeline.count > 1, timeline.entryNumber(at: 0) == 1,
           let entry = try? timeline.reader.entry(at: 0), !entry.action.isReplayable {
            request.firstEntry = timeline.entryNumber(at: 1)
            startNote = "starting at entry \(timeline.entryNumber(at: 1)): entry 1 (\(entry.action.name.escapingControlCharacters)) was recorded "
                + "by reflection, so it cannot be replayed, and the log holds no state before it; the state after it is where the test starts"
        }
        let first = request.firstEntry ?? 1, last = request.lastEntry ?? lastNumber
        guard first <= last, last <= lastNumber else {
            return fail("entries \(first)–\(last) are not in \(timeline.name.escapingControlCharacters) (it has 1–\(lastNumber))", streams: &streams)
        }
        guard first > 1 || timeline.initialState != nil else {
            return fail("\(timeline.name.escapingControlCharacters) has no state before entry 1 to start from; use --from 2", streams: &streams)
        }
        let range: ClosedRange<Int>
        do { range = try LogExporter.range(of: request, in: timeline) } catch { return fail(error.description, streams: &streams) }

        let testPath = invocation["-o"]
        if testPath == "" { return fail("-o takes the name of the test file to write, not ''", streams: &streams) }
        let typeName = SwiftSource.typeName(
            from: testPath.map { ($0 as NSString).lastPathComponent } ?? (timeline.name as NSString).deletingPathExtension + "RecordingTests",
            avoiding: Set(modules).union(SwiftSource.identifiers(in: invocation["--reducer"] ?? "")))
        let fixtureName = ((testPath.map { ($0 as NSString).lastPathComponent } ?? typeName + ".swift") as NSString)
            .deletingPathExtension + ".fixture.jsonl"
        let fixturePath = testPath.map { (($0 as NSString).deletingLastPathComponent as NSString).appendingPathComponent(fixtureName) } ?? fixtureName
        // Both files are checked before either is written: a refusal (the input
        // log under either name, a directory, a missing folder) leaves nothing behind.
        do {
            if let testPath { try OutputFile.check(testPath, inputs: [logPath]) }
            try OutputFile.check(fixturePath, inputs: [logPath])
        } catch {
            return fail(error.description, streams: &streams)
        }
        let fixture: [UInt8]
        do { fixture = try LogExporter.export(from: timeline, request) } catch { return fail(error.description, streams: &streams) }
        // The test is generated from the fixture as it will be written, so it
        // checks exactly what the fixture holds (redacted or not); a private copy
        // is read for that, so nothing is written under the user's names until both files are ready.
        let fixtureCopy = NSTemporaryDirectory() + "rewind-testgen-\(getpid())-\(UInt32.random(in: .min ... .max)).fixture.jsonl"
        defer { unlink(fixtureCopy) }
        let fixtureLog: LogReader
        do {
            try OutputFile.write(fixture, to: fixtureCopy, inputs: [])
            fixtureLog = try LogReader(path: fixtureCopy)
        } catch {
            return fail(String(describing: error), streams: &streams)
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
        var command = "\(invocation.displayName) \(timeline.name)"
        if request.firstEntry != nil || request.lastEntry != nil { command += " --from \(first) --to \(last)" }
        if invocation.isSet("--xctest") { command += " --xctest" }
        let test = GeneratedTest(
            framework: invocation.isSet("--xctest") ? .xctest : .swiftTesting,
            typeName: typeName, imports: modules, reducer: invocation["--reducer"],
            stateTypeName: timeline.reader.header.stateTypeName, actionTypeName: timeline.reader.header.actionTypeName,
            fixtureName: fixtureName, command: command, logName: timeline.name, steps: steps)
        let fixtureWasNew = !OutputFile.nameIsTaken(fixturePath)
        do {
            try OutputFile.write(fixture, to: fixturePath, inputs: [logPath])
        } catch {
            return fail(error.description, streams: &streams)
        }
        if let testPath {
            do {
                try OutputFile.write(Array(test.source.utf8), to: testPath, inputs: [logPath])
            } catch {
                // A fixture without its test is a stray file; one that replaced an older fixture stays.
                if fixtureWasNew { unlink(fixturePath) }
                return fail(error.description, streams: &streams)
            }
            streams.output("Wrote \(testPath) (\(steps.count) steps) and \(fixturePath)")
        } else {
            streams.output(String(test.source.dropLast()))
            streams.error("\(invocation.displayName): wrote the fixture to \(fixturePath)")
        }
        if let startNote { streams.error("\(invocation.displayName): \(startNote)") }
        return 0
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
