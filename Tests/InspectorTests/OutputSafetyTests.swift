import Foundation
import SampleDomains
import Testing
@testable import Inspector
@testable import Recorder

/// Issue 15, points 5, 6 and 7 (import): output that must not destroy
/// anything, a failing standard output, and an empty import.
@Suite struct OutputSafetyTests {
    let directory: TemporaryDirectory
    let log: String

    init() throws {
        directory = TemporaryDirectory()
        log = directory.file("app.jsonl")
        try FileManager.default.copyItem(atPath: SampleLogs.path("todos"), toPath: log)
    }

    func run(_ arguments: [String]) -> (status: Int32, output: String, error: String) {
        var streams = CapturedStreams()
        let status = RewindCommandLine.run(arguments, streams: &streams)
        return (status, streams.standardOutput, streams.standardError)
    }

    func fileType(_ path: String) -> mode_t {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode & S_IFMT : 0
    }

    // MARK: 5. Output that must not destroy anything

    @Test func exportOverItsInputLogIsRefused() throws {
        let before = try Data(contentsOf: URL(fileURLWithPath: log))
        let result = run(["export", log, "-o", log])
        #expect(result.status == 2)
        #expect(result.error == "rewind export: \(log) is the input \(log); refusing to overwrite it\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: log)) == before)

        // Another name for the same file too.
        let hardLink = directory.file("same.jsonl")
        #expect(link(log, hardLink) == 0)
        #expect(run(["export", log, "--format", "jsonl", "-o", hardLink]).status == 2)
        #expect(try Data(contentsOf: URL(fileURLWithPath: log)) == before)
    }

    @Test func aSymbolicLinkToAFileIsNotFollowedOrReplaced() throws {
        let target = directory.file("notes.txt")
        try Data("keep me\n".utf8).write(to: URL(fileURLWithPath: target))
        let output = directory.file("report.md")
        #expect(symlink(target, output) == 0)
        let result = run(["export", log, "-o", output])
        #expect(result.status == 2)
        #expect(result.error == "rewind export: \(output) is a symbolic link to \(target); refusing to replace the file it points to (give that path instead)\n")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep me\n")
        #expect(fileType(output) == S_IFLNK)

        let dangling = directory.file("dangling.md")
        #expect(symlink(directory.file("nowhere/file"), dangling) == 0)
        #expect(run(["export", log, "-o", dangling]).status == 2)
        #expect(fileType(dangling) == S_IFLNK)
    }

    @Test func aFIFOIsWrittenThroughAndStaysAFIFO() throws {
        let fifo = directory.file("report.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        // Nobody reading: refused at once, not waited on.
        let unread = run(["export", log, "-o", fifo])
        #expect(unread.status == 2)
        #expect(unread.error == "rewind export: \(fifo) is a FIFO that nobody is reading\n")

        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        defer { close(reader) }
        let result = run(["export", log, "-o", fifo])   // the report fits in the pipe's buffer
        #expect(result.status == 0, "\(result.error)")
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let count = buffer.withUnsafeMutableBytes { read(reader, $0.baseAddress!, $0.count) }
        #expect(String(decoding: buffer[..<max(0, count)], as: UTF8.self).hasPrefix("# "))
        #expect(fileType(fifo) == S_IFIFO)
    }

    /// A character device to write to: as root, a private null device node (so
    /// that a broken build replacing it harms nothing; as root one once replaced
    /// the system's /dev/null); otherwise /dev/null, which only root could replace.
    func nullDevice() -> String? {
        guard getuid() == 0 else { return "/dev/null" }
        #if os(Linux)
        let node = directory.file("null-device")
        // Device 1:3 (null), in glibc's encoding of small numbers: major << 8 | minor.
        return mknod(node, S_IFCHR | 0o600, dev_t(1 << 8 | 3)) == 0 ? node : nil
        #else
        return nil
        #endif
    }

    @Test func aDeviceIsWrittenThroughAndARegularFileReplacedWhole() throws {
        if let device = nullDevice() {
            #expect(run(["export", log, "-o", device]).status == 0)
            #expect(fileType(device) == S_IFCHR)
            if device != "/dev/null" { unlink(device) }
        }

        let output = directory.file("report.md")
        try Data("old report that is longer than nothing\n".utf8).write(to: URL(fileURLWithPath: output))
        #expect(run(["export", log, "-o", output]).status == 0)
        #expect(try String(contentsOfFile: output, encoding: .utf8).hasPrefix("# "))
        #expect(fileType(output) == S_IFREG)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["app.jsonl", "report.md"], "no temporary file left")
    }

    @Test func importOverItsInputIsRefused() throws {
        let export = directory.file("devtools.json")
        #expect(run(["export", log, "--format", "redux-devtools", "-o", export]).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: export))
        let result = run(["import", export, "-o", export])
        #expect(result.status == 2)
        #expect(result.error == "rewind import: \(export) is the input \(export); refusing to overwrite it\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: export)) == before)
    }

    @Test func savingABranchNeverWritesThroughALinkUnderTheChosenName() throws {
        var (model, replayLog, runner) = try ReplayKeysTests.model()
        let target = replayLog.directory + "/elsewhere.jsonl"
        #expect(symlink(target, replayLog.directory + "/log-branch.jsonl") == 0)   // dangling
        model.type("jj")
        model.type("a")
        _ = model.send(.enter)
        model.type("sy", running: runner)                // save, and answer yes
        let saved = replayLog.directory + "/log-branch-2.jsonl"
        #expect(model.overlays.message == "Saved the branch (4 entries) to \(saved)")
        #expect(!FileManager.default.fileExists(atPath: target), "nothing created through the link")
        #expect(try LogReader(path: saved).entryCount == 4)
    }

    // MARK: 7. `import` of an empty file; a log converted to CRLF

    @Test func statsSaysALogWasConvertedToCRLF() throws {
        #expect(!run(["stats", log]).output.contains("line endings"))
        let converted = try String(contentsOfFile: log, encoding: .utf8).replacingOccurrences(of: "\n", with: "\r\n")
        try converted.write(toFile: log, atomically: false, encoding: .utf8)
        let result = run(["stats", log])
        #expect(result.status == 0)
        #expect(result.output.contains("damaged records:  0\ngaps:             0\nline endings:     CRLF (converted after recording; records were read without the carriage returns)\n"))
    }

    @Test func importOfAnEmptyFileSaysItIsEmpty() throws {
        let empty = try #require(directory.write(["empty.json": ""])["empty.json"])
        let result = run(["import", empty, "-o", directory.file("out.jsonl")])
        #expect(result.status == 2)
        #expect(result.error == "rewind import: \(empty): empty file, not a Redux DevTools export\n")
    }

    // MARK: 6. A failing standard output

    /// Runs a command with standard output on `descriptor` and standard error captured.
    func runWithStandardOutput(_ descriptor: Int32, _ arguments: [String]) -> (status: Int32, error: String) {
        var errorPipe: [Int32] = [0, 0]
        #expect(pipe(&errorPipe) == 0)
        var streams = StandardStreams(outputDescriptor: descriptor, errorDescriptor: errorPipe[1])
        let status = RewindCommandLine.run(arguments, standardStreams: &streams)
        close(errorPipe[1])
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { read(errorPipe[0], $0.baseAddress!, $0.count) }
        close(errorPipe[0])
        return (status, String(decoding: buffer[..<max(0, count)], as: UTF8.self))
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "needs /dev/full (Linux), which Darwin lacks")) func aFullDiskOnStandardOutputIsOneLineAndStatus2() throws {  // portability: skipped at run time where /dev/full is missing (Darwin)
        let full = open("/dev/full", O_WRONLY)  // portability: skipped at run time where /dev/full is missing (Darwin)
        defer { close(full) }
        for command in [["log", log], ["show", log], ["export", log]] {
            let result = runWithStandardOutput(full, command)
            #expect(result.status == 2, "\(command[0])")
            #expect(result.error == "rewind: cannot write to standard output: No space left on device\n", "\(command[0])")
        }
    }

    @Test func aClosedPipeOnStandardOutputEndsQuietly() throws {
        // As when SIGPIPE is ignored (otherwise it ends the process, quietly too).
        let previous = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, previous) }
        var output: [Int32] = [0, 0]
        #expect(pipe(&output) == 0)
        close(output[0])
        let result = runWithStandardOutput(output[1], ["log", log])
        close(output[1])
        #expect(result.status == 0)
        #expect(result.error == "")
    }
}
