import Foundation
import Testing
@testable import Inspector
@testable import Recorder

/// Smaller things a directory of recordings from elsewhere shows (issue 37): a log reached
/// through a link, a file nobody may read, and a log with a deleted line.
@Suite struct HostileDirectoryTests {
    private func run(_ arguments: [String]) -> (status: Int32, output: String, error: String) { RewindCommandLine.captured(arguments) }

    static let log = [HandMadeLog.header(), HandMadeLog.keyframe(seq: "0", state: #"{"a":1}"#),
                      HandMadeLog.patch(seq: "1", patch: #"[{"op":"replace","path":"/a","value":2}]"#)]

    @Test func findSearchesTheLinkedLogsThatLsLists() throws {
        let directory = TemporaryDirectory()
        let elsewhere = TemporaryDirectory()
        try Data(HandMadeLog.bytes(Self.log)).write(to: URL(fileURLWithPath: elsewhere.file("shop.jsonl")))
        #expect(symlink(elsewhere.file("shop.jsonl"), directory.file("linked.jsonl")) == 0)
        // A link to a folder above is not walked (no loop), by either command.
        #expect(symlink(directory.path, directory.file("loop")) == 0)
        #expect(run(["ls", directory.path]).output.contains("linked.jsonl"))
        let found = run(["find", directory.path, "/a == 2"])
        #expect(found.status == 0, "\(found.error)")
        #expect(found.output.hasPrefix(directory.file("linked.jsonl") + "    2   +1.000s  set {}"), "\(found.output)")
    }

    /// `rewind ls ARGUMENTS` as a user who cannot read what root could: in this process, or,
    /// as root (who reads everything), the built `rewind` run as nobody.
    private func listAsAnotherUser(_ arguments: [String]) throws -> String {
        guard getuid() == 0 else { return run(["ls"] + arguments).output }
        let rewind = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("rewind").path
        let setpriv = try #require(["/usr/bin/setpriv", "/bin/setpriv"].first { FileManager.default.isExecutableFile(atPath: $0) },
                                   "as root, this needs setpriv(1) to run rewind as another user")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: setpriv)
        process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", rewind, "ls"] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text
    }

    @Test func aFileThatCannotBeReadIsDatedByItsModificationTime() throws {
        let directory = TemporaryDirectory()
        #expect(chmod(directory.path, 0o755) == 0, "another user may look into it")
        let path = directory.file("locked.jsonl")
        try Data(HandMadeLog.bytes(Self.log)).write(to: URL(fileURLWithPath: path))
        var times = [timespec(tv_sec: 1_767_258_000, tv_nsec: 0), timespec(tv_sec: 1_767_258_000, tv_nsec: 0)]
        utimensat(AT_FDCWD, path, &times, 0)
        #expect(chmod(path, 0) == 0)
        defer { chmod(path, 0o600) }
        let listing = try listAsAnotherUser([directory.path])
        #expect(listing.contains("2026-01-01 09:00:00"), "\(listing)")
        #expect(!listing.contains("1970"))
        #expect(listing.contains("(cannot read: Permission denied)"))
        let json = try JSONParser.parse(try listAsAnotherUser([directory.path, "--format", "json"]))
        #expect(json["recordings"]?[0]?["created"] == .double(1_767_258_000))
    }

    @Test func aFileThatCannotBeLookedAtHasNoDate() {
        let summary = RecordingCatalog.summary("/nonexistent-\(UUID().uuidString)/gone.jsonl", relativePath: "gone.jsonl")
        #expect(summary.created == nil)
        #expect(RecordingListFormat.row(summary).hasPrefix("        ?                  "), "\(RecordingListFormat.row(summary))")
    }

    @Test func aLineAfterADeletedRecordIsSaidToBeReadNotSkipped() throws {
        var lines = HandMadeLog.bytes(Self.log + [HandMadeLog.patch(seq: "2", patch: #"[{"op":"replace","path":"/a","value":3}]"#)])
            .split(separator: 0x0A).map(Array.init)
        lines.remove(at: 2)   // record 2 (entry 2)
        let path = try HandMadeLog.write([])
        try Data(lines.joined(separator: [0x0A]) + [0x0A]).write(to: URL(fileURLWithPath: path))
        let result = run(["log", path])
        #expect(result.output == "  1   +0.000s  add {}\n  3   +1.000s  set {}  changed /a\n")
        #expect(result.error == "rewind: app.jsonl: line 3: record 2 is missing before this line (deleted or moved); line 3 itself was read\n")
    }
}
