import Foundation
import Testing
@testable import Inspector

@Suite struct DiffCommandTests {
    let folder = TemporaryDirectory()

    /// Writes the documents to the test's folder and returns their paths.
    private func files(_ contents: [String: String]) throws -> [String: String] { try folder.write(contents) }

    private func run(_ arguments: [String]) -> (status: Int32, output: String, error: String) {
        var streams = CapturedStreams()
        let status = RewindCommandLine.run(arguments, streams: &streams)
        return (status, streams.standardOutput, streams.standardError)
    }

    @Test func equalDocumentsExitZero() throws {
        let paths = try files(["a.json": #"{"a": [1, 2], "b": null}"#, "b.json": #"{"b":null,"a":[1,2.0]}"#])
        let result = run(["diff", paths["a.json"]!, paths["b.json"]!])
        #expect(result.status == 0)
        #expect(result.output == "no differences\n")
        #expect(result.error.isEmpty)
    }

    @Test func differentDocumentsExitOneWithATreeDiff() throws {
        let paths = try files(["a.json": #"{"count": 1, "name": "x"}"#, "b.json": #"{"count": 2, "name": "x"}"#])
        let result = run(["diff", paths["a.json"]!, paths["b.json"]!])
        #expect(result.status == 1)
        #expect(result.output == """
              {
            -   "count": 1
            +   "count": 2
                … (1 unchanged)
              }

            """)
    }

    @Test func patchAndUnifiedFormats() throws {
        let paths = try files(["a.json": #"[1, 2, 3]"#, "b.json": #"[1, 3]"#])
        let patch = run(["diff", paths["a.json"]!, paths["b.json"]!, "--format", "patch"])
        #expect(patch.status == 1)
        #expect(patch.output == """
            [
              {
                "op": "remove",
                "path": "/1"
              }
            ]

            """)
        let unified = run(["diff", "--format=unified", paths["a.json"]!, paths["b.json"]!])
        #expect(unified.status == 1)
        #expect(unified.output == """
            --- \(paths["a.json"]!)
            +++ \(paths["b.json"]!)
            @@ -1,5 +1,4 @@
             [
               1,
            -  2,
               3
             ]

            """)
    }

    @Test func invalidJSONIsOneLineWithFileLineAndColumn() throws {
        let paths = try files(["good.json": "{}", "bad.json": "{\n  \"a\": 1,\n}"])
        let result = run(["diff", paths["good.json"]!, paths["bad.json"]!])
        #expect(result.status == 2)
        #expect(result.output.isEmpty)
        #expect(result.error == "rewind diff: \(paths["bad.json"]!):3:1: expected a string key in an object\n")
    }

    @Test func missingFilesAndBadArgumentsExitTwo() throws {
        let paths = try files(["a.json": "1"])
        let missing = run(["diff", paths["a.json"]!, "/nonexistent/b.json"])
        #expect(missing.status == 2)
        #expect(missing.error == "rewind diff: /nonexistent/b.json: no such file\n")

        let unknownFlag = run(["diff", paths["a.json"]!, paths["a.json"]!, "--colour"])
        #expect(unknownFlag.status == 2)
        #expect(unknownFlag.error == """
            rewind diff: unknown option '--colour'
            usage: rewind diff A.json B.json [--format tree|patch|unified]
            See 'rewind diff --help'.

            """)

        let badFormat = run(["diff", paths["a.json"]!, paths["a.json"]!, "--format", "xml"])
        #expect(badFormat.status == 2)
        #expect(badFormat.error.hasPrefix("rewind diff: unknown format 'xml' (expected one of: tree, patch, unified)\nusage: rewind diff"))

        let oneFile = run(["diff", paths["a.json"]!])
        #expect(oneFile.status == 2)
        #expect(oneFile.error.hasPrefix("rewind diff: missing B.json\nusage: rewind diff A.json B.json"))
    }
}
