import Foundation
import Recorder
import Testing
@testable import Inspector

/// `rewind testgen -o` writes two files, the test and its fixture beside it:
/// neither may land on the recording it reads, and a refusal writes nothing.
@Suite struct TestgenOutputSafetyTests {
    let directory = TemporaryDirectory()
    let log: String
    let recording: Data

    init() throws {
        log = directory.file("todos.jsonl")
        try FileManager.default.copyItem(atPath: SampleLogs.path("todos"), toPath: log)
        recording = try Data(contentsOf: URL(fileURLWithPath: log))
    }

    func testgen(_ arguments: [String]) -> (status: Int32, output: String, error: String) {
        var streams = CapturedStreams()
        let status = RewindCommandLine.run(["testgen"] + arguments, streams: &streams)
        return (status, streams.standardOutput, streams.standardError)
    }

    /// The names in `folder` (the test's directory when not given), sorted.
    func names(in folder: String? = nil) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder ?? directory.path)) ?? []).sorted()
    }

    func expectRecordingUnchanged(at path: String, _ comment: Comment) throws {
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == recording, comment)
    }

    @Test func theTestIsNeverWrittenOverTheRecording() throws {
        let result = testgen([log, "--from", "2", "-o", log])
        #expect(result.status == 2)
        #expect(result.error == "rewind testgen: \(log) is the input \(log); refusing to overwrite it\n")
        try expectRecordingUnchanged(at: log, "the recording is still the recording")
        #expect(names() == ["todos.jsonl"], "no fixture written beside it")
    }

    @Test func norThroughAnotherNameForIt() throws {
        let symbolic = directory.file("Todos.swift")
        #expect(symlink(log, symbolic) == 0)
        let throughSymlink = testgen([log, "--from", "2", "-o", symbolic])
        #expect(throughSymlink.status == 2)
        #expect(throughSymlink.error == "rewind testgen: \(symbolic) is a symbolic link to \(log); refusing to replace the file it points to (give that path instead)\n")

        let hard = directory.file("Hard.swift")
        #expect(link(log, hard) == 0)
        let throughHardLink = testgen([log, "--from", "2", "-o", hard])
        #expect(throughHardLink.status == 2)
        #expect(throughHardLink.error == "rewind testgen: \(hard) is the input \(log); refusing to overwrite it\n")

        try expectRecordingUnchanged(at: log, "the recording is still the recording")
        #expect(names() == ["Hard.swift", "Todos.swift", "todos.jsonl"], "no fixture written beside them")
    }

    @Test func theFixtureIsNeverWrittenOverTheRecording() throws {
        // `-o rec.swift` puts the fixture at rec.fixture.jsonl: here, the recording itself.
        let input = directory.file("rec.fixture.jsonl")
        #expect(rename(log, input) == 0)
        let result = testgen([input, "--from", "2", "--to", "3", "-o", directory.file("rec.swift")])
        #expect(result.status == 2)
        #expect(result.error == "rewind testgen: \(input) is the input \(input); refusing to overwrite it\n")
        try expectRecordingUnchanged(at: input, "the recording was not cut to entries 2–3")
        #expect(names() == ["rec.fixture.jsonl"], "no test written without its fixture")
    }

    @Test func aTestPathThatCannotBeWrittenLeavesNoStrayFixture() throws {
        let folder = directory.subdirectory("Tests")
        let result = testgen([log, "--from", "2", "-o", folder])
        #expect(result.status == 2)
        #expect(result.error == "rewind testgen: \(folder) is a directory\n")
        #expect(names() == ["Tests", "todos.jsonl"], "no Tests.fixture.jsonl beside the folder")
        #expect(names(in: folder).isEmpty)
    }

    @Test func anEmptyTestNameIsRefusedBeforeAnythingIsWritten() throws {
        // The fixture of `-o ''` would be `.fixture.jsonl` in the working directory.
        let strayFixture = FileManager.default.currentDirectoryPath + "/.fixture.jsonl"
        let existedBefore = FileManager.default.fileExists(atPath: strayFixture)
        defer { if !existedBefore { unlink(strayFixture) } }
        let result = testgen([log, "--from", "2", "-o", ""])
        #expect(result.status == 2)
        #expect(result.error == "rewind testgen: -o takes the name of the test file to write, not ''\n")
        #expect(existedBefore || !FileManager.default.fileExists(atPath: strayFixture), "no .fixture.jsonl left behind")
    }

    @Test func aMissingFolderIsOneLineNamingTheTestFile() throws {
        let testPath = directory.file("no-such-folder/TodosTests.swift")
        let result = testgen([log, "--from", "2", "-o", testPath])
        #expect(result.status == 2)
        #expect(result.error == "rewind testgen: cannot write \(testPath): No such file or directory\n")
        #expect(names() == ["todos.jsonl"])
    }

    @Test func anExistingTestAndFixtureAreReplacedWhole() throws {
        let testPath = directory.file("TodosTests.swift")
        try directory.write(["TodosTests.swift": "old test\n", "TodosTests.fixture.jsonl": "old fixture\n"])
        let result = testgen([log, "--from", "2", "-o", testPath])
        #expect(result.status == 0, "\(result.error)")
        #expect(try String(contentsOfFile: testPath, encoding: .utf8).hasPrefix("// Generated by `rewind testgen todos.jsonl"))
        #expect(try LogReader(path: directory.file("TodosTests.fixture.jsonl")).entryCount > 0)
        #expect(names() == ["TodosTests.fixture.jsonl", "TodosTests.swift", "todos.jsonl"], "no temporary file left")
        try expectRecordingUnchanged(at: log, "the recording is untouched")
    }
}
