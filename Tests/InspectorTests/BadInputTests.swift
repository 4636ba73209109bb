import Foundation
import Testing
@testable import Inspector
@testable import Recorder

/// Every command, given every kind of bad file: one line on stderr, nothing on
/// stdout, exit status 2. Never a crash, a hang or a stack trace.
@Suite(.serialized) struct BadInputTests {
    /// The bad inputs, created once in a private directory.
    struct BadFiles {
        let directory: String
        var missing: String { directory + "/missing.jsonl" }
        var folder: String { directory + "/a-directory" }
        var empty: String { directory + "/empty.jsonl" }
        var binary: String { directory + "/binary.bin" }
        var notALog: String { directory + "/settings.json" }
        var futureVersion: String { directory + "/future.jsonl" }
        var hugeLine: String { directory + "/huge-line.txt" }
        var validJSON: String { directory + "/valid.json" }

        var all: [(name: String, path: String)] {
            [("a missing file", missing), ("a directory", folder), ("an empty file", empty), ("a binary file", binary),
             ("JSON that is not a log", notALog), ("a log from a future format version", futureVersion),
             ("a 100 MB single line", hugeLine)]
        }

        init() throws {
            // Shared by every case of the suite; removed when the test process exits
            // (the 100 MB file must not pile up in /tmp).
            directory = TemporaryDirectory.forThisProcess.subdirectory("bad-input")
            let files = FileManager.default
            try files.createDirectory(atPath: directory + "/a-directory", withIntermediateDirectories: true)
            _ = files.createFile(atPath: directory + "/empty.jsonl", contents: Data())
            var generator = SystemRandomNumberGenerator()
            _ = files.createFile(atPath: directory + "/binary.bin", contents: Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }))
            _ = files.createFile(atPath: directory + "/settings.json", contents: Data(#"{"theme":"dark","fontSize":13}"#.utf8))
            _ = files.createFile(atPath: directory + "/valid.json", contents: Data(#"{"count":1}"#.utf8))
            // A correctly sealed header that claims format version 99.
            var future = Array(#"{"kind":"header","format":"rewind","version":99,"created":0,"process":"app","keyframeInterval":32"#.utf8)
            LogLine.seal(&future, recordStart: 0)
            _ = files.createFile(atPath: directory + "/future.jsonl", contents: Data(future))
            _ = files.createFile(atPath: directory + "/huge-line.txt", contents: Data(repeating: UInt8(ascii: "x"), count: 100 << 20))
        }
    }

    static let files = Result { try BadFiles() }

    /// Each command line, with `FILE` standing for the bad input.
    static let commands: [[String]] = [
        ["FILE"], ["open", "FILE"], ["show", "FILE"], ["show", "FILE", "--at", "3"], ["log", "FILE"], ["stats", "FILE"],
        ["blame", "FILE", "/count"], ["export", "FILE", "--format", "patch"], ["export", "FILE", "--format", "markdown"],
        ["diff", "FILE", "VALID"], ["diff", "VALID", "FILE"], ["import", "FILE", "-o", "OUT"],
    ]

    @Test(arguments: commands)
    func everyBadInputGivesOneLineAndStatus2(command: [String]) throws {
        let files = try Self.files.get()
        for (name, path) in files.all {
            // To `rewind diff` any valid JSON is good input, whatever it holds.
            if command.first == "diff" && (path == files.notALog || path == files.futureVersion) { continue }
            // `rewind DIR` lists the recordings under it (RecordingListTests).
            if command == ["FILE"] && path == files.folder { continue }
            let arguments = command.map { argument in
                switch argument {
                case "FILE": path
                case "VALID": files.validJSON
                case "OUT": files.directory + "/imported.jsonl"
                default: argument
                }
            }
            var streams = CapturedStreams()
            let status = RewindCommandLine.run(arguments, streams: &streams)
            let shown = "rewind " + command.joined(separator: " ") + " with " + name
            #expect(status == 2, "\(shown): exit status")
            #expect(streams.standardOutput.isEmpty, "\(shown): printed \(streams.standardOutput.prefix(200))")
            let lines = streams.standardError.split(separator: "\n")
            #expect(lines.count == 1, "\(shown): stderr was \(streams.standardError.prefix(300))")
            #expect(lines.first?.hasPrefix("rewind") == true, "\(shown): the message says who is speaking")
            #expect((lines.first?.count ?? 0) < 400, "\(shown): the message stays one readable line")
        }
    }

    @Test func theMessagesSayWhatIsWrong() throws {
        let files = try Self.files.get()
        func message(_ path: String) -> String {
            var streams = CapturedStreams()
            _ = RewindCommandLine.run(["log", path], streams: &streams)
            return streams.standardError
        }
        #expect(message(files.missing).contains("no such file"))
        #expect(message(files.folder).contains("is a directory"))
        #expect(message(files.empty).contains("empty file"))
        #expect(message(files.binary).contains("not a Rewind log"))
        #expect(message(files.notALog).contains("not a Rewind log"))
        #expect(message(files.futureVersion).contains("newer Rewind (log format version 99)"))
        #expect(message(files.hugeLine).contains("not a Rewind log"))
    }
}
