import Foundation
import Testing
import Recorder
@testable import Inspector

/// The command line shows, diffs, exports and blames numbers and strings
/// exactly: no rounding, no "Infinity" for 1e400, -0 is not 0, NFC is not NFD.
@Suite struct ExactValuesCommandTests {
    private func run(_ arguments: [String]) -> (status: Int32, output: String, error: String) {
        var streams = CapturedStreams()
        let status = RewindCommandLine.run(arguments, streams: &streams)
        return (status, streams.standardOutput, streams.standardError)
    }

    @Test func diffKeepsLiteralsBeyondADoubleAndNegativeZero() throws {
        let directory = TemporaryDirectory()
        let paths = try directory.write([
            "a.json": #"{"big": 1e400, "id": 18446744073709551615, "zero": 0.0}"#,
            "b.json": #"{"big": 1e401, "id": 18446744073709551614, "zero": -0.0}"#,
        ])
        let tree = run(["diff", paths["a.json"]!, paths["b.json"]!])
        #expect(tree.status == 1)
        #expect(tree.output == """
              {
            -   "big": 1e400
            +   "big": 1e401
            -   "id": 18446744073709551615
            +   "id": 18446744073709551614
            -   "zero": 0
            +   "zero": -0
              }

            """)
        let patch = run(["diff", paths["a.json"]!, paths["b.json"]!, "--format", "patch"])
        #expect(patch.status == 1)
        let operations = try JSONParser.parse(patch.output)
        #expect(JSONWriter.compactString(operations) == #"[{"op":"replace","path":"/big","value":1e401},"#
                + #"{"op":"replace","path":"/id","value":18446744073709551614},{"op":"replace","path":"/zero","value":-0}]"#)
    }

    @Test func diffCallsTheSameNumberInAnotherNotationEqual() throws {
        let directory = TemporaryDirectory()
        let paths = try directory.write(["a.json": "[1e400, 0.5, 18446744073709551615]", "b.json": "[10E399, 5e-1, 1.8446744073709551615e19]"])
        let result = run(["diff", paths["a.json"]!, paths["b.json"]!])
        #expect(result.status == 0)
        #expect(result.output == "no differences\n")
    }

    @Test func diffTellsComposedFromDecomposedStrings() throws {
        let directory = TemporaryDirectory()
        let paths = try directory.write(["a.json": "{\"name\": \"caf\u{E9}\"}", "b.json": "{\"name\": \"cafe\u{301}\"}"])
        let result = run(["diff", paths["a.json"]!, paths["b.json"]!, "--format", "patch"])
        #expect(result.status == 1)
        let value = try JSONParser.parse(result.output)[0]?["value"]?.stringValue
        #expect(value.map { Array($0.unicodeScalars) } == Array("cafe\u{301}".unicodeScalars))
    }

    struct Account: Codable {
        var id = UInt64.max
        var balance = Decimal(string: "1234567890123456789.0123456789012345678")!
        var offset = -0.0
        var reading = Double.nan
        var count = 0
    }

    enum Deposit: Codable { case one }

    /// A log recorded with the real recorder: three actions that change only `count`.
    private func recordAccount(in directory: TemporaryDirectory) throws -> String {
        let path = directory.file("account.jsonl")
        var options = ActionRecorder.Options()
        options.clock = .fixed(start: 1_764_000_000, step: 0.5)
        let recorder = try ActionRecorder(file: path, options: options)
        let reducer = recorder.recording { (state: inout Account, _: Deposit) in state.count += 1 }
        var state = Account()
        for _ in 0..<3 { reducer(&state, .one) }
        try recorder.close()
        return path
    }

    @Test func showAndLogPrintRecordedValuesExactly() throws {
        let directory = TemporaryDirectory()
        let log = try recordAccount(in: directory)
        let shown = run(["show", log])
        #expect(shown.status == 0)
        #expect(shown.output == """
            {
              "id": 18446744073709551615,
              "balance": 1234567890123456789.0123456789012345678,
              "offset": -0,
              "reading": "NaN",
              "count": 3
            }

            """)
        // NaN is the same value on every entry: only `count` changes.
        let entries = run(["log", log]).output.split(separator: "\n")
        #expect(entries.count == 3)
        #expect(entries.dropFirst().allSatisfy { $0.hasSuffix("changed /count") })
        #expect(run(["blame", log, "/reading"]).output == "No entry in account.jsonl changed /reading\n")
        #expect(run(["blame", log, "/count"]).output.split(separator: "\n").count == 3)
    }

    @Test func aReduxDevToolsRoundTripKeepsEveryDigit() throws {
        let directory = TemporaryDirectory()
        let log = try recordAccount(in: directory)
        let export = directory.file("account.redux.json")
        let imported = directory.file("account-imported.jsonl")
        #expect(run(["export", log, "--format", "redux-devtools", "-o", export]).status == 0)
        let result = run(["import", export, "-o", imported])
        #expect(result.status == 0 && result.error.isEmpty, "\(result.error)")
        let original = try LogReader(path: log)
        let reader = try LogReader(path: imported)
        for index in 0..<original.entryCount {
            #expect(try JSONWriter.compactString(reader.state(at: index)) == JSONWriter.compactString(original.state(at: index)))
        }
        #expect(try JSONWriter.compactString(reader.state(at: 2))
                == #"{"id":18446744073709551615,"balance":1234567890123456789.0123456789012345678,"offset":-0,"reading":"NaN","count":3}"#)
    }
}
