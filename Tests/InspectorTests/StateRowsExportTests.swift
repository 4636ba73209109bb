import Foundation
import Testing
@testable import Inspector
import Recorder

/// A state whose depth a test chooses: a deep one is too deep for a record, and the recorder writes a gap instead.
private indirect enum Nesting: Codable, Equatable {
    case end
    case link(Nesting)
}

private struct Counter: Codable, Equatable {
    var count = 0
    var nesting = Nesting.end
    /// Enough state that a patch is worth writing between keyframes.
    var items = (0..<60).map { "item number \($0) of a list long enough" }
}

/// `rewind export LOG|DIR --format states`: a row per entry that SQL engines read as a table,
/// checked against what the reader rebuilds, on logs today's recorder wrote.
@Suite struct StateRowsExportTests {
    static let samples = MCPServerTests.samples

    func rewind(_ arguments: String...) -> (status: Int32, output: String, error: String) {
        var streams = CapturedStreams()
        let status = RewindCommandLine.run(arguments, streams: &streams)
        return (status, streams.standardOutput, streams.standardError)
    }

    /// Every row's columns, in order.
    static let columns = ["recording", "entry", "kind", "session", "time", "duration", "action", "payload", "fromEffect", "changed", "state",
                          "lastEntry", "line", "reason"]

    func rows(_ text: String) throws -> [JSONObject] {
        try text.split(separator: "\n").map { try #require(try JSONParser.parse(String($0)).objectValue) }
    }

    @Test func eachEntryIsARowWithItsTimeActionChangesAndTheStateTheReaderRebuilds() throws {
        let path = Self.samples + "/todos.jsonl"
        let exported = rewind("export", path, "--format", "states")
        #expect(exported.status == 0)
        #expect(exported.error == "")
        let rows = try rows(exported.output)
        let reader = try LogReader(path: path)
        #expect(rows.count == reader.entryCount)
        for (index, row) in rows.enumerated() {
            let entry = try reader.entry(at: index)
            #expect(row.keys == Self.columns)
            #expect(row["lastEntry"] == .null && row["line"] == .null && row["reason"] == .null)
            #expect(row["recording"] == .string(path))
            #expect(row["entry"] == .integer(Int64(index + 1)))
            #expect(row["kind"] == "entry")
            #expect(row["session"] == 1)
            #expect(row["action"] == .string(entry.action.name))
            #expect(row["payload"] == entry.action.payload)
            #expect(row["fromEffect"] == .bool(entry.effectOf != nil))
            #expect(row["changed"] == .array(entry.changedPaths.map { .string($0.description) }))
            #expect(row["state"] == (try reader.state(at: index)))
            #expect(row["duration"]?.doubleValue == entry.duration)
            let time = try #require(row["time"]?.stringValue)
            #expect(time.hasSuffix("Z") && time.count == 27)
            let parsed = try #require(ISO8601DateFormatter.withFractions.date(from: time))
            #expect(abs(parsed.timeIntervalSince(entry.time)) < 0.001)
        }
    }

    @Test func pathsAreColumnsNamedByTheirPointers() throws {
        let path = Self.samples + "/todos.jsonl"
        let rows = try rows(rewind("export", path, "--format", "states", "--path", "/stats/done", "--path", "/todos/3/title", "--path", "/stats/done").output)
        let reader = try LogReader(path: path)
        for (index, row) in rows.enumerated() {
            let state = try reader.state(at: index)
            #expect(row["state"] == nil)
            #expect(row.keys == Self.columns.filter { $0 != "state" }.prefix(10) + ["/stats/done", "/todos/3/title", "lastEntry", "line", "reason"])
            #expect(row["/stats/done"] == state[pointer: try JSONPointer(parsing: "/stats/done")])
            #expect(row["/todos/3/title"] == state[pointer: try JSONPointer(parsing: "/todos/3/title")] ?? .null)
        }
        #expect(rows.first?["/todos/3/title"] == .null)
    }

    /// inc (1) · deep (2: too deep for a record, a gap) · inc (3) · [opened again] inc (4) · inc (5) · inc (6),
    /// then entry 5's line damaged: entry 6's patch has no state to apply to. The state holds enough
    /// that the recorder writes patches between keyframes.
    static func gappedDamagedLog() throws -> String {
        let path = TemporaryDirectory.forThisProcess.subdirectory("rows-\(UUID().uuidString)") + "/gapped.jsonl"
        var options = ActionRecorder.Options()
        options.clock = .fixed(start: 1_764_000_000, step: 0.5)
        let recorder = try ActionRecorder(file: path, options: options)
        let reducer = recorder.recording { (state: inout Counter, action: String) in
            state.count += 1
            state.nesting = action == "deep" ? (0..<400).reduce(.end) { nesting, _ in .link(nesting) } : .end
        }
        var state = Counter()
        for action in ["inc", "deep", "inc"] { reducer(&state, action) }
        try recorder.close()
        let second = try ActionRecorder(file: path, options: options)
        let again = second.recording { (state: inout Counter, _: String) in state.count += 1 }
        for _ in 0..<3 { again(&state, "inc") }
        try second.close()
        var lines = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n")
        let fifth = try #require(lines.firstIndex { $0.contains(#""seq":4,"#) })
        lines[fifth] = lines[fifth].replacingOccurrences(of: #""payload":"inc""#, with: #""payload":"inx""#)
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func gapsDamagedRecordsAndLostStatesAreRowsThatSaySo() throws {
        let path = try Self.gappedDamagedLog()
        let rows = try rows(rewind("export", path, "--format", "states").output)
        try #require(rows.map { $0["kind"]?.stringValue ?? "?" } == ["entry", "gap", "entry", "entry", "damaged", "entry"])
        #expect(rows.map { $0["entry"]?.int64Value ?? -1 } == [1, 2, 3, 4, 5, 6])
        #expect(rows.map { $0["session"]?.int64Value ?? 0 } == [1, 0, 1, 2, 0, 2])
        #expect(rows[1]["lastEntry"] == 2)
        #expect(rows[1]["reason"] == "not recorded: the state after String is nested 803 levels deep; a log record holds at most 509")
        #expect(rows[4]["reason"] == "checksum mismatch or not a complete record")
        #expect(rows[4]["line"] != nil)
        #expect(rows[3]["state"]?["count"] == 4)
        // Entry 6's patch followed on from the damaged entry 5: its state cannot be rebuilt, and the row says why.
        #expect(rows[5]["state"] == .null)
        #expect(rows[5]["reason"]?.stringValue?.hasPrefix("the state after this entry cannot be rebuilt") == true)
        #expect(rows[2]["state"]?["count"] == 3)
        #expect(rows[2]["reason"] == .null)
        #expect(rows.allSatisfy { $0.keys == Self.columns })
        #expect(rows[1]["action"] == .null && rows[1]["state"] == .null && rows[1]["line"] == .null)

        let ranged = try self.rows(rewind("export", path, "--format", "states", "--from", "2", "--to", "5").output)
        #expect(ranged.map { $0["kind"]?.stringValue ?? "?" } == ["gap", "entry", "entry", "damaged"])
    }

    @Test func aDirectoryIsEveryRecordingUnderItInPathOrder() throws {
        let folder = TemporaryDirectory.forThisProcess.subdirectory("rows-dir-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: folder + "/nested", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.samples + "/garage.jsonl", toPath: folder + "/nested/garage.jsonl")
        try FileManager.default.copyItem(atPath: Self.samples + "/todos.jsonl", toPath: folder + "/a-todos.jsonl")
        try "not a log\n".write(toFile: folder + "/notes.jsonl", atomically: true, encoding: .utf8)
        let header = try String(contentsOfFile: Self.samples + "/todos.jsonl", encoding: .utf8).prefix { $0 != "\n" }
        try String(header.dropLast(12) + "\n").write(toFile: folder + "/torn-header.jsonl", atomically: true, encoding: .utf8)
        let exported = rewind("export", folder, "--format", "states")
        #expect(exported.status == 0)
        let rows = try rows(exported.output)
        var recordings: [String] = []
        for recording in rows.compactMap({ $0["recording"]?.stringValue }) where recordings.last != recording { recordings.append(recording) }
        #expect(recordings == [folder + "/a-todos.jsonl", folder + "/nested/garage.jsonl", folder + "/torn-header.jsonl"])
        #expect(rows.filter { $0["recording"] == .string(folder + "/a-todos.jsonl") }.count == 12)
        let unreadable = try #require(rows.last)
        #expect(unreadable["kind"] == "unreadable")
        #expect(unreadable["entry"] == .null)
        #expect(exported.error.hasPrefix("rewind export: \(folder)/torn-header.jsonl: "))
    }

    @Test func aLogOfManyChunksComesOutWholeInOrderWhateverTheWorkers() throws {
        let path = try MCPServerTests.hugeLog(in: TemporaryDirectory.forThisProcess.subdirectory("rows-huge-\(UUID().uuidString)"))
        let export = StateRowsExport()
        var one: [UInt8] = [], two: [UInt8] = []
        try export.write(recordingAt: path, shownAs: "huge.jsonl", workers: 1) { (bytes) throws(OutputFile.Failure) in one += bytes }
        try export.write(recordingAt: path, shownAs: "huge.jsonl", workers: 2) { (bytes) throws(OutputFile.Failure) in two += bytes }
        #expect(one == two)
        let rows = try rows(String(decoding: two, as: UTF8.self))
        #expect(rows.count == 3_000)
        #expect(rows.map { $0["entry"]?.int64Value ?? 0 } == (1...3_000).map(Int64.init))
        let reader = try LogReader(path: path)
        for index in stride(from: 0, to: 3_000, by: 97) + [2_047, 2_048, 2_999] {
            #expect(rows[index]["state"] == (try reader.state(at: index)), "entry \(index + 1)")
        }
    }

    @Test func outputGoesToAFileReplacedOnlyWhenComplete() throws {
        let folder = TemporaryDirectory.forThisProcess.subdirectory("rows-out-\(UUID().uuidString)")
        let output = folder + "/rows.jsonl"
        try "old\n".write(toFile: output, atomically: true, encoding: .utf8)
        let refused = rewind("export", Self.samples + "/todos.jsonl", "--format", "states", "--from", "13", "-o", output)
        #expect(refused.status == 2)
        #expect(refused.error == "rewind export: there is no entry 13 in todos.jsonl (it has entries 1–12)\n")
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "old\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["rows.jsonl"])
        #expect(rewind("export", Self.samples + "/todos.jsonl", "--format", "states", "-o", output).status == 0)
        let written = try String(contentsOfFile: output, encoding: .utf8)
        // (The captured standard output ends each write with a newline of its own.)
        #expect(written + "\n" == rewind("export", Self.samples + "/todos.jsonl", "--format", "states").output)
        var request = ExportRequest(format: .states)
        request.firstEntry = 1
        #expect(String(decoding: try LogExporter.export(logAt: Self.samples + "/todos.jsonl", request), as: UTF8.self)
                == written.replacingOccurrences(of: Self.samples + "/todos.jsonl", with: "todos.jsonl"))
    }

    @Test func secretsAreRedactedInStatesAndPayloads() throws {
        let rows = try rows(rewind("export", Self.samples + "/todos.jsonl", "--format", "states", "--redact", "title").output)
        let text = rows.map { JSONWriter.compactString(.object($0)) }.joined()
        #expect(!text.contains("Buy milk"))
        #expect(text.contains("‹redacted "))
    }

    @Test func badInputIsOneLineAndStatus2() {
        let todos = Self.samples + "/todos.jsonl"
        for (arguments, message) in [
            (["export", todos, "--format", "states", "--per-entry"], "rewind export: --per-entry applies to the patch and unified formats\n"),
            (["export", todos, "--format", "states", "--path", "cart"], "rewind export: invalid JSON Pointer \"cart\": a JSON Pointer must be empty or start with '/'\n"),
            (["export", todos, "--format", "states", "--from", "4", "--to", "2"], "rewind export: --from 4 is after --to 2\n"),
            (["export", Self.samples, "--format", "markdown"], "rewind export: \(Self.samples) is a directory; --format states exports every recording under one, the other formats one log\n"),
            (["export", todos, "--format", "patch", "--path", "/a", "--path", "/b"], "rewind export: --path is given once for the patch format (states takes several)\n"),
            (["export", "/no/such.jsonl", "--format", "states"], "rewind export: /no/such.jsonl: no such file or directory\n"),
        ] {
            var streams = CapturedStreams()
            #expect(RewindCommandLine.run(arguments, streams: &streams) == 2, "\(arguments)")
            #expect(streams.standardError == message)
            #expect(streams.standardOutput == "")
        }
    }
}

extension ISO8601DateFormatter {
    /// `2026-12-05T14:02:11.250000Z`, as the states rows write times.
    static var withFractions: ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }
}
