import Foundation
import Testing
@testable import Inspector
@testable import Recorder

/// `rewind ls DIR`, `rewind DIR` and the list view, over a directory like a
/// CI artifact: test recordings (one failed), a live recording, a torn log,
/// a file that is not a log, and a log inside a hidden folder.
@Suite struct RecordingListTests {
    static let start = 1_767_258_000.0   // 2026-01-01 09:00:00 UTC

    /// A sealed log: a header, then `entries` keyframe entries.
    static func log(process: String, created: Double, metadata: [String: String] = [:], entries: Int, firstSequence: Int = 0) -> [UInt8] {
        var bytes: [UInt8] = []
        let header = JSONObject([("kind", "header"), ("format", "rewind"), ("version", 1), ("created", .double(created)),
                                 ("process", .string(process)), ("stateType", "S"), ("actionType", "A"), ("keyframeInterval", 32),
                                 ("options", .object(JSONObject())), ("metadata", .object(JSONObject(metadata.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.string($0.value)) }))),
                                 ("stateReplayable", true)])
        var line = JSONWriter.compact(.object(header))
        line.removeLast()
        bytes += line
        LogLine.seal(&bytes, recordStart: 0)
        for sequence in firstSequence..<(firstSequence + entries) {
            let start = bytes.count
            bytes += Array(#"{"kind":"entry","keyframe":true,"seq":\#(sequence),"time":\#(created + Double(sequence)),"durationNs":1,"action":{"type":"tick","payload":{},"replayable":true},"changed":[""],"state":{"n":\#(sequence)}"#.utf8)
            LogLine.seal(&bytes, recordStart: start)
        }
        return bytes
    }

    /// The directory, removed when the value goes.
    final class Fixture {
        let directory = TemporaryDirectory()
        var path: String { directory.path }

        init() throws {
            let files = FileManager.default
            try files.createDirectory(atPath: path + "/.build/rewind-recordings", withIntermediateDirectories: true)
            try files.createDirectory(atPath: path + "/live", withIntermediateDirectories: true)
            func write(_ name: String, _ bytes: [UInt8]) { _ = files.createFile(atPath: path + "/" + name, contents: Data(bytes)) }
            write("CartTests.addsItems.jsonl", RecordingListTests.log(process: "xctest", created: start + 60, metadata: ["test": "CartTests/addsItems()"], entries: 3))
            write(".build/rewind-recordings/CheckoutTests.pays.jsonl",
                  RecordingListTests.log(process: "xctest", created: start, metadata: ["test": "CheckoutTests/pays()", "outcome": "failed"], entries: 12))
            write("live/shop-20260101-091000-aa.jsonl", RecordingListTests.log(process: "shop", created: start + 600, entries: 250))
            write("torn.jsonl", RecordingListTests.log(process: "crashy", created: start + 120, entries: 2) + Array(#"{"kind":"entry","seq":2,"ti"#.utf8))
            write("notes.jsonl", Array("just some notes\n".utf8))
            write("README.md", Array("not listed\n".utf8))
            // Only the mtime orders a file without a header: make it the oldest.
            var times = [timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_000, tv_nsec: 0)]
            utimensat(AT_FDCWD, path + "/notes.jsonl", &times, 0)
        }
    }

    @Test func lsListsFailedTestsFirstThenNewestWithEntriesSizeDamageAndName() throws {
        let fixture = try Fixture()
        var streams = CapturedStreams()
        #expect(RewindCommandLine.run(["ls", fixture.path], streams: &streams) == 0)
        #expect(streams.standardError == "")
        let sizes = try ["live/shop-20260101-091000-aa.jsonl", "torn.jsonl", "CartTests.addsItems.jsonl", "notes.jsonl", ".build/rewind-recordings/CheckoutTests.pays.jsonl"]
            .map { ValueFormatting.shortBytes((try FileManager.default.attributesOfItem(atPath: fixture.path + "/" + $0)[.size] as! NSNumber).int64Value).leftPadded(toWidth: 8) }
        let lines = streams.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 6)
        #expect(lines[0].hasPrefix("5 recordings under \(fixture.path) ("))
        #expect(Array(lines.dropFirst()) == [
            "FAILED  2026-01-01 09:00:00     12 entries  \(sizes[4])  CheckoutTests/pays()  .build/rewind-recordings/CheckoutTests.pays.jsonl",
            "        2026-01-01 09:10:00    250 entries  \(sizes[0])  shop  live/shop-20260101-091000-aa.jsonl",
            "        2026-01-01 09:02:00      2 entries  \(sizes[1])  crashy  torn.jsonl  (torn last line)",
            "        2026-01-01 09:01:00      3 entries  \(sizes[2])  CartTests/addsItems()  CartTests.addsItems.jsonl",
            "        2001-09-09 01:46:40      ? entries  \(sizes[3])  ?  notes.jsonl  (not a Rewind log)",
        ])
        // `rewind DIR` without a terminal prints the same list.
        var bare = CapturedStreams()
        #expect(RewindCommandLine.run([fixture.path], streams: &bare) == 0)
        #expect(bare.standardOutput == streams.standardOutput)
    }

    @Test func lsFormatJSONGivesScriptsTheSameListInTheSameOrder() throws {
        let fixture = try Fixture()
        var streams = CapturedStreams()
        #expect(RewindCommandLine.run(["ls", fixture.path, "--format", "json"], streams: &streams) == 0)
        let document = try JSONParser.parse(streams.standardOutput)
        let recordings = try #require(document["recordings"]?.arrayValue)
        #expect(recordings.map { $0["relativePath"]?.stringValue ?? "" } == [
            ".build/rewind-recordings/CheckoutTests.pays.jsonl", "live/shop-20260101-091000-aa.jsonl", "torn.jsonl",
            "CartTests.addsItems.jsonl", "notes.jsonl",
        ])
        let failed = recordings[0]
        #expect(failed["failed"] == true && failed["entries"] == 12 && failed["test"] == "CheckoutTests/pays()" && failed["process"] == "xctest")
        #expect(failed["damage"] == .null && failed["isLog"] == true && failed["created"]?.doubleValue == Self.start)
        #expect(recordings[2]["damage"] == "torn last line")
        #expect(recordings[4]["isLog"] == false && recordings[4]["entries"] == .null)
        #expect(recordings[1]["bytes"]?.int64Value == Int64(Self.log(process: "shop", created: Self.start + 600, entries: 250).count))
    }

    @Test func verifyCountsEntriesExactlyAndFindsDamageInTheMiddle() throws {
        let directory = TemporaryDirectory()
        var bytes = Self.log(process: "app", created: Self.start, entries: 5)
        // Damage the third entry's state: its checksum no longer matches.
        let text = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: #""state":{"n":2}"#, with: #""state":{"n":7}"#)
        bytes = Array(text.utf8)
        _ = FileManager.default.createFile(atPath: directory.path + "/app.jsonl", contents: Data(bytes))
        var quick = CapturedStreams()
        #expect(RewindCommandLine.run(["ls", directory.path], streams: &quick) == 0)
        #expect(quick.standardOutput.contains("5 entries") && !quick.standardOutput.contains("damaged"))
        var verified = CapturedStreams()
        #expect(RewindCommandLine.run(["ls", directory.path, "--verify"], streams: &verified) == 0)
        #expect(verified.standardOutput.contains("  4 entries") && verified.standardOutput.hasSuffix("app.jsonl  (1 damaged record)\n"))
    }

    /// A header's `created` is whatever number was written: one no calendar
    /// date stands for reads as "?", and the rest of the list is unaffected.
    @Test func lsShowsACreatedTimePastAnyDateAsAQuestionMarkAndListsTheRest() throws {
        let directory = TemporaryDirectory()
        let files = ["far-future.jsonl": 1e308, "past-time_t.jsonl": 9.3e18, "past-the-year-2^31.jsonl": 9e18, "normal.jsonl": Self.start, "far-past.jsonl": -1e308]
        for (name, created) in files {
            _ = FileManager.default.createFile(atPath: directory.path + "/" + name, contents: Data(Self.log(process: "app", created: created, entries: 2)))
        }
        var streams = CapturedStreams()
        #expect(RewindCommandLine.run(["ls", directory.path], streams: &streams) == 0)
        #expect(streams.standardError == "")
        func size(_ name: String) -> String {
            ValueFormatting.shortBytes(Int64(Self.log(process: "app", created: files[name]!, entries: 2).count)).leftPadded(toWidth: 8)
        }
        #expect(Array(streams.standardOutput.split(separator: "\n").dropFirst()) == [
            "        ?                        2 entries  \(size("far-future.jsonl"))  app  far-future.jsonl",
            "        ?                        2 entries  \(size("past-time_t.jsonl"))  app  past-time_t.jsonl",
            "        ?                        2 entries  \(size("past-the-year-2^31.jsonl"))  app  past-the-year-2^31.jsonl",
            "        2026-01-01 09:00:00      2 entries  \(size("normal.jsonl"))  app  normal.jsonl",
            "        ?                        2 entries  \(size("far-past.jsonl"))  app  far-past.jsonl",
        ])
    }

    /// A log whose line endings were converted (`unix2dos`, a Windows checkout)
    /// reads as every other command reads it: each record without its carriage return.
    @Test func lsReadsALogWithCRLFLineEndingsAsItsEntriesWithoutDamage() throws {
        let directory = TemporaryDirectory()
        let bytes = Array(String(decoding: Self.log(process: "app", created: Self.start, entries: 3), as: UTF8.self)
            .replacingOccurrences(of: "\n", with: "\r\n").utf8)
        _ = FileManager.default.createFile(atPath: directory.path + "/crlf.jsonl", contents: Data(bytes))
        var streams = CapturedStreams()
        #expect(RewindCommandLine.run(["ls", directory.path], streams: &streams) == 0)
        let size = ValueFormatting.shortBytes(Int64(bytes.count)).leftPadded(toWidth: 8)
        #expect(streams.standardOutput.split(separator: "\n").last == "        2026-01-01 09:00:00      3 entries  \(size)  app  crlf.jsonl")
        var verified = CapturedStreams()
        #expect(RewindCommandLine.run(["ls", directory.path, "--verify"], streams: &verified) == 0)
        #expect(verified.standardOutput.split(separator: "\n").last == "        2026-01-01 09:00:00      3 entries  \(size)  app  crlf.jsonl")
    }

    /// Sequence numbers are checksummed but nothing else checks them: one that
    /// counts no entries (the last Int64, a gap running past it) leaves "? entries".
    @Test func lsShowsUnknownEntriesForASequenceNumberPastInt64() throws {
        let directory = TemporaryDirectory()
        func record(_ text: String) -> [UInt8] {
            var bytes = Array(text.utf8)
            LogLine.seal(&bytes, recordStart: 0)
            return bytes
        }
        let log = Self.log(process: "app", created: Self.start, entries: 2)
        let lastEntry = record(#"{"kind":"entry","durationNs":1,"seq":9223372036854775807,"time":0,"action":{"type":"tick","payload":{},"replayable":true},"changed":[],"patch":[]"#)
        let gap = record(#"{"kind":"gap","dropped":5,"firstSeq":9223372036854775807"#)
        _ = FileManager.default.createFile(atPath: directory.path + "/entry.jsonl", contents: Data(log + lastEntry))
        _ = FileManager.default.createFile(atPath: directory.path + "/gap.jsonl", contents: Data(log + gap))
        var streams = CapturedStreams()
        #expect(RewindCommandLine.run(["ls", directory.path], streams: &streams) == 0)
        let rows = streams.standardOutput.split(separator: "\n").dropFirst()
        #expect(rows.count == 2)
        #expect(rows.allSatisfy { $0.contains("      ? entries  ") })
    }

    @Test func timesNoClockOrCalendarCanShowReadAsQuestionMarks() {
        #expect(RecordingListFormat.date(Date(timeIntervalSince1970: Self.start)) == "2026-01-01 09:00:00")
        #expect(RecordingListFormat.date(Date(timeIntervalSince1970: 1e308)) == "?".padded(toWidth: 19))
        #expect(RecordingListFormat.date(Date(timeIntervalSince1970: .nan)) == "?".padded(toWidth: 19))
        #expect(RecordingListFormat.date(Date(timeIntervalSince1970: -.infinity)) == "?".padded(toWidth: 19))
        #expect(ValueFormatting.timeOffset(7_500) == "+2h05m")
        #expect(ValueFormatting.timeOffset(1e300) == "+?")
    }

    @Test(arguments: [
        (["ls"], "rewind ls: missing <directory>\nusage: rewind ls <directory> [--format text|json] [--verify]\nSee 'rewind ls --help'."),
        (["ls", "/no/such/place"], "rewind ls: /no/such/place: no such directory"),
        (["ls", "/etc/hostname"], "rewind ls: /etc/hostname: not a directory (to open one log: rewind /etc/hostname)"),
        (["ls", "/tmp", "--format", "xml"], "rewind ls: unknown format 'xml' (expected one of: text, json)\nusage: rewind ls <directory> [--format text|json] [--verify]\nSee 'rewind ls --help'."),
        (["ls", "/tmp", "--sort"], "rewind ls: unknown option '--sort'\nusage: rewind ls <directory> [--format text|json] [--verify]\nSee 'rewind ls --help'."),
    ])
    func badArgumentsGiveOneLineOrTheUsageErrorAndStatus2(arguments: [String], message: String) {
        var streams = CapturedStreams()
        #expect(RewindCommandLine.run(arguments, streams: &streams) == 2)
        #expect(streams.standardOutput == "")
        #expect(streams.standardError == message + "\n")
    }

    // MARK: The list view

    static func model(_ fixture: Fixture, rows: Int = 10) -> RecordingListModel {
        RecordingListModel(directory: "ci-artifacts", recordings: RecordingCatalog.list(fixture.path), size: ScreenSize(columns: 100, rows: rows))
    }

    @Test func theListViewShowsEveryRecordingWithTheSelectionAndHints() throws {
        let fixture = try Fixture()
        var model = Self.model(fixture)
        _ = model.reduce(.key(.character("j")))
        let screen = render(model)
        let lines = screen.plainText.split(separator: "\n", omittingEmptySubsequences: false).map { String($0) }
        #expect(lines[0].hasPrefix(" Recordings  5 under ci-artifacts"))
        #expect(lines[1].hasPrefix(" FAILED  2026-01-01 09:00:00     12 entries"))
        #expect(lines[2].hasPrefix("         2026-01-01 09:10:00    250 entries") && lines[2].contains("  shop  live/shop-"))
        #expect(lines[3].contains("crashy  torn.jsonl  (torn last line)"))
        #expect(lines[5].contains("notes.jsonl  (not a Rewind log)"))
        #expect(lines[6...7].allSatisfy { $0.trimmingCharacters(in: .whitespaces).isEmpty })
        #expect(lines[8].hasPrefix(" recording 2/5  │  \(fixture.path)/live/shop-20260101-091000-aa.jsonl"))
        #expect(lines[9].hasPrefix("↑↓ move  Enter open (q there comes back)  q quit"))
        // The selected row is drawn reversed, the failed test in the warning colour.
        #expect(screen[2, 3].style.reverse && !screen[1, 3].style.reverse)
        #expect(screen[1, 3].style.foreground == .warning)
    }

    @Test func enterOpensTheSelectedLogAndAFileThatIsNotALogSaysWhy() throws {
        let fixture = try Fixture()
        var model = Self.model(fixture)
        #expect(model.reduce(.key(.enter)) == [.open(path: fixture.path + "/.build/rewind-recordings/CheckoutTests.pays.jsonl")])
        _ = model.reduce(.key(.end))
        #expect(model.reduce(.key(.enter)) == [])
        #expect(render(model).line(9).hasPrefix("notes.jsonl cannot be opened: not a Rewind log"))
        #expect(model.reduce(.key(.character("q"))) == [.quit])
    }

    @Test func scrollingKeepsTheSelectionOnScreen() throws {
        let fixture = try Fixture()
        var model = Self.model(fixture, rows: 5)   // two rows of list
        _ = model.reduce(.key(.character("G")))
        #expect(model.cursor == 4 && model.top == 3)
        #expect(render(model).line(2).contains("notes.jsonl"))
        _ = model.reduce(.key(.character("g")))
        #expect(model.cursor == 0 && model.top == 0)
    }

    @Test func qInTheInspectorComesBackToTheListAndQThereQuits() throws {
        let fixture = try Fixture()
        let model = Self.model(fixture, rows: 24)
        var terminal = ScriptedTerminal(events: [.key(.character("j")), .key(.enter), .key(.character("j")), .key(.character("q")), .key(.character("q"))])
        terminal.size = ScreenSize(columns: 100, rows: 24)
        #expect(RecordingListSession.run(model, terminal: &terminal) == 0)
        #expect(terminal.stopped)
        let frames = terminal.frames.map(\.plainText)
        // The list, the inspector on the live recording (250 entries), then the list again.
        #expect(frames.first?.contains("Recordings  5 under ci-artifacts") == true)
        #expect(frames.contains { $0.contains("Timeline  250 entries") && $0.contains("shop-20260101-091000-aa.jsonl") })
        #expect(frames.last?.contains("recording 2/5") == true)
    }

    @Test func ctrlCInTheInspectorLeavesTheListToo() throws {
        let fixture = try Fixture()
        var terminal = ScriptedTerminal(events: [.key(.enter), .interrupt, .key(.character("j"))])
        terminal.size = ScreenSize(columns: 100, rows: 24)
        #expect(RecordingListSession.run(Self.model(fixture, rows: 24), terminal: &terminal) == 0)
        #expect(terminal.frames.last?.plainText.contains("Timeline  12 entries") == true)
        #expect(terminal.events == [.key(.character("j"))])
    }
}
