import Foundation
import SampleDomains
import Testing
@testable import Inspector
@testable import Recorder
import RewindTestSupport

/// `rewind ls`, `ls --format json` and the list view over logs written by
/// today's recorder (format 2, whose checksums are chained to their session's
/// header), healthy and damaged, beside a format 1 log: each counted as
/// `--verify` and the reader count it.
@Suite struct RecordingListFormat2Tests {
    let directory = TemporaryDirectory()

    /// Records `actions` todo actions into `name` (appending a session when it exists); returns its path.
    @discardableResult
    func record(_ name: String, actions: Int, seed: UInt64 = 1, metadata: [String: String] = [:]) throws -> String {
        let path = directory.file(name)
        var options = ActionRecorder.Options()
        options.metadata = metadata
        options.keyframeInterval = 4
        let recorder = try ActionRecorder(file: path, options: options)
        let reducer = recorder.recording(TodoDomain.reduce)
        var state = TodoState()
        var generator = SplitMix64(seed: seed)
        for index in 0..<actions {
            reducer(&state, generator.next() % 3 == 0 && index > 0 ? .toggle(id: 1) : .add(title: "item \(index)"))
        }
        try recorder.close()
        return path
    }

    func append(_ bytes: String, to path: String) throws {
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data(bytes.utf8))
        try handle.close()
    }

    /// The fixture: healthy, two sessions, a torn tail, a damaged last record, a
    /// failed test's recording (marked in its header, its records sealed anew), and a format 1 log.
    func makeFixture() throws {
        try record("healthy.jsonl", actions: 5)
        try record("sessions.jsonl", actions: 3)
        try record("sessions.jsonl", actions: 4, seed: 2)
        let torn = try record("torn.jsonl", actions: 6)
        try append(#"{"kind":"entry","seq":6,"ti"#, to: torn)
        let damaged = try record("damaged.jsonl", actions: 7)
        var bytes = try #require(FileManager.default.contents(atPath: damaged))
        bytes[bytes.count - 40] ^= 0x01   // inside the last record: its checksum no longer matches
        try bytes.write(to: URL(fileURLWithPath: damaged))
        let failed = try record("CartTests.checkout.jsonl", actions: 8, metadata: ["test": "CartTests/checkout()"])
        try LogMetadataRewrite.set("outcome", to: "failed", inLogAt: failed)
        _ = FileManager.default.createFile(atPath: directory.file("old-format1.jsonl"),
                                           contents: Data(RecordingListTests.log(process: "old", created: RecordingListTests.start, entries: 9)))
    }

    /// What `ls --verify` (the whole file read) says of each file: the reference.
    func verified() -> [String: RecordingSummary] {
        Dictionary(uniqueKeysWithValues: RecordingCatalog.list(directory.path, verify: true).map { ($0.relativePath, $0) })
    }

    @Test func lsCountsEveryCurrentLogAsTheReaderDoes() throws {
        try makeFixture()
        let quick = Dictionary(uniqueKeysWithValues: RecordingCatalog.list(directory.path).map { ($0.relativePath, $0) })
        let expected: [String: (entries: Int, damage: String?)] = [
            "healthy.jsonl": (5, nil), "sessions.jsonl": (7, nil), "torn.jsonl": (6, "torn last line"),
            "damaged.jsonl": (6, "torn last line"), "CartTests.checkout.jsonl": (8, nil), "old-format1.jsonl": (9, nil),
        ]
        for (name, (entries, damage)) in expected {
            #expect(quick[name]?.entries == entries, "\(name): \(String(describing: quick[name]?.entries)) entries")
            #expect(quick[name]?.damage == damage, "\(name): \(String(describing: quick[name]?.damage))")
            #expect(quick[name]?.isLog == true, "\(name)")
        }
        // The quick read agrees with reading every line.
        for (name, summary) in verified() {
            #expect(quick[name]?.entries == summary.entries, "\(name)")
        }
        #expect(quick["CartTests.checkout.jsonl"]?.failed == true)
    }

    @Test func lsAndItsJSONShowHealthyCurrentLogsWithTheirEntriesAndNoDamage() throws {
        try makeFixture()
        var text = CapturedStreams()
        #expect(RewindCommandLine.run(["ls", directory.path], streams: &text) == 0)
        let lines = text.standardOutput.split(separator: "\n").map(String.init)
        func line(_ name: String) -> String { lines.first { $0.hasSuffix(name) || $0.contains(name + "  (") } ?? "(no line for \(name))" }
        #expect(lines.first?.hasPrefix("6 recordings under ") == true, "\(text.standardOutput)")
        #expect(line("healthy.jsonl").contains("     5 entries"))
        #expect(!line("healthy.jsonl").contains("torn"))
        #expect(line("sessions.jsonl").contains("     7 entries"))
        #expect(line("torn.jsonl").contains("     6 entries") && line("torn.jsonl").hasSuffix("(torn last line)"))
        #expect(lines[1].hasPrefix("FAILED ") && lines[1].contains("     8 entries") && lines[1].hasSuffix("CartTests.checkout.jsonl"), "\(lines[1])")

        var json = CapturedStreams()
        #expect(RewindCommandLine.run(["ls", directory.path, "--format", "json"], streams: &json) == 0)
        let recordings = try #require(try JSONParser.parse(json.standardOutput)["recordings"]?.arrayValue)
        let healthy = try #require(recordings.first { $0["relativePath"] == "healthy.jsonl" })
        #expect(healthy["entries"] == 5 && healthy["damage"] == .null)
        let failed = try #require(recordings.first { $0["relativePath"] == "CartTests.checkout.jsonl" })
        #expect(failed["entries"] == 8 && failed["damage"] == .null && failed["failed"] == true)
    }

    @Test func theListViewShowsCurrentLogsWithTheirEntries() throws {
        try record("healthy.jsonl", actions: 5)
        let model = RecordingListModel(directory: "recordings", recordings: RecordingCatalog.list(directory.path), size: ScreenSize(columns: 100, rows: 6))
        let lines = render(model).plainText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0].hasPrefix(" Recordings  1 under recordings"))
        #expect(lines[1].contains("      5 entries") && lines[1].hasSuffix("healthy.jsonl") || lines[1].contains("healthy.jsonl  "))
        #expect(!lines[1].contains("torn"))
    }
}
