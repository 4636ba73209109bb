import Foundation
import Testing
@testable import Recorder
@testable import Inspector

@Suite struct ImportCommandTests {
    private func importFile(_ text: String, in directory: TemporaryDirectory) -> (status: Int32, error: String, log: String) {
        let input = directory.file("export-\(UUID().uuidString).json")
        let output = directory.file("imported-\(UUID().uuidString).jsonl")
        try? Data(text.utf8).write(to: URL(fileURLWithPath: input))
        var streams = CapturedStreams()
        let status = RewindCommandLine.run(["import", input, "-o", output], streams: &streams)
        return (status, streams.standardError, output)
    }

    /// A lifted state as the Redux DevTools extension exports it: `@@INIT`, three
    /// actions (the second skipped), `computedStates` aligned with `stagedActionIds`.
    static let liftedState = """
        {"monitorState":{},"nextActionId":4,
         "actionsById":{
          "0":{"type":"PERFORM_ACTION","action":{"type":"@@INIT"},"timestamp":1764400000000},
          "1":{"type":"PERFORM_ACTION","action":{"type":"counter/increment","payload":2},"timestamp":1764400000500},
          "2":{"type":"PERFORM_ACTION","action":{"type":"counter/increment","payload":40},"timestamp":1764400001000},
          "3":{"type":"PERFORM_ACTION","action":{"type":"user/rename","name":"Ann","source":"form"},"timestamp":1764400002000}},
         "stagedActionIds":[0,1,2,3],"skippedActionIds":[2],"currentStateIndex":3,
         "committedState":{"count":0,"user":"?"},
         "computedStates":[{"state":{"count":0,"user":"?"}},{"state":{"count":2,"user":"?"}},
                           {"state":{"count":2,"user":"?"}},{"state":{"count":2,"user":"Ann"}}]}
        """

    @Test func theLiftedStateImportsWithComputedStatesAndSkippedActionsMarked() throws {
        let directory = TemporaryDirectory()
        let result = importFile(Self.liftedState, in: directory)
        #expect(result.status == 0, "\(result.error)")
        let reader = try LogReader(path: result.log)
        #expect(reader.entryCount == 3)
        #expect(reader.header.initialState == ["count": 0, "user": "?"])
        #expect(try reader.entry(at: 0).action == LogEntry.Action(type: "counter/increment", payload: 2))
        #expect(try reader.entry(at: 2).action == LogEntry.Action(type: "user/rename", payload: ["name": "Ann", "source": "form"]))
        #expect(try reader.state(at: 0) == ["count": 2, "user": "?"])
        #expect(try reader.state(at: 1) == ["count": 2, "user": "?"])
        #expect(try reader.state(at: 2) == ["count": 2, "user": "Ann"])
        #expect(try reader.entry(at: 1).time == Date(timeIntervalSince1970: 1_764_400_001))
        #expect(reader.header.metadata["rewind.import.currentStateIndex"] == "3")
        // The skipped action is kept and its record says so.
        let records = try String(contentsOfFile: result.log, encoding: .utf8).split(separator: "\n").map { try JSONParser.parse(String($0)) }
        #expect(records.map { $0["skipped"] } == [nil, nil, true, nil])
    }

    @Test func theLiftedStateInsideAPayloadStringImportsToo() throws {
        let directory = TemporaryDirectory()
        let wrapped = JSONWriter.compactString(["payload": .string(Self.liftedState)])
        let result = importFile(wrapped, in: directory)
        #expect(result.status == 0, "\(result.error)")
        #expect(try LogReader(path: result.log).state(at: 2) == ["count": 2, "user": "Ann"])
    }

    @Test func thePairWithoutStatesRecordsThePreloadedStateAndSaysSo() throws {
        let directory = TemporaryDirectory()
        let file = JSONWriter.compactString([
            "payload": #"[{"type":"cart/add","payload":{"sku":"A1"}},{"type":"cart/clear"}]"#,
            "preloadedState": #"{"cart":[]}"#,
        ])
        let result = importFile(file, in: directory)
        #expect(result.status == 0, "\(result.error)")
        let reader = try LogReader(path: result.log)
        #expect(reader.entryCount == 2)
        #expect(try reader.entry(at: 0).action == LogEntry.Action(type: "cart/add", payload: ["sku": "A1"]))
        #expect(try reader.entry(at: 1).action == LogEntry.Action(type: "cart/clear", payload: .null))
        #expect(try reader.state(at: 1) == ["cart": []])
        #expect(reader.header.metadata["rewind.import.states"]?.hasPrefix("not recorded: the export holds the actions and the preloaded state only") == true)
    }

    @Test(arguments: [
        ("{not json", "is not JSON"),
        ("[1,2]", "the file holds a JSON array, not a Redux DevTools export (an object with \"payload\" or \"actionsById\")"),
        (#"{"actions":[]}"#, "the file has neither \"payload\" (with \"preloadedState\") nor \"actionsById\": not a Redux DevTools export"),
        (#"{"payload":[{"type":"a"}]}"#, "\"payload\" must be a string of JSON text, not a JSON array"),
        (#"{"payload":"[{\"type\":\"a\"}"}"#, "\"payload\" is not JSON text"),
        (#"{"payload":"[{\"type\":\"a\"}]"}"#, "the export has no \"preloadedState\""),
        (#"{"payload":"[{\"kind\":\"a\"}]","preloadedState":"{}"}"#, "action 0 in \"payload\" has no \"type\""),
        (#"{"payload":"{\"x\":1}","preloadedState":"{}"}"#, "\"payload\" holds neither an array of actions nor a lifted state with \"actionsById\""),
        (#"{"actionsById":{},"computedStates":[]}"#, "the lifted state has no \"stagedActionIds\" array"),
        (#"{"actionsById":{},"stagedActionIds":[0],"computedStates":[{"state":1}]}"#, "\"actionsById\" has no action 0, which \"stagedActionIds\" lists"),
        (#"{"actionsById":{"0":{"action":{"type":"a"}}},"stagedActionIds":[0],"computedStates":[]}"#, "\"computedStates\" must be an array with one entry per staged action (1)"),
        (#"{"actionsById":{"0":{"action":{"type":"a"}}},"stagedActionIds":[0]}"#, "the lifted state has neither \"computedStates\" nor \"committedState\""),
    ])
    func malformedExportsAreOneLineNamingWhatIsMissing(text: String, message: String) throws {
        let directory = TemporaryDirectory()
        let result = importFile(text, in: directory)
        #expect(result.status == 2)
        #expect(result.error.hasPrefix("rewind import: "))
        #expect(result.error.contains(message), "\(result.error)")
        #expect(result.error.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: result.log))
    }

    @Test func aMissingFileOrOutputIsStatus2() throws {
        let directory = TemporaryDirectory()
        var streams = CapturedStreams()
        #expect(RewindCommandLine.run(["import", directory.file("nope.json"), "-o", directory.file("out.jsonl")], streams: &streams) == 2)
        #expect(streams.standardError == "rewind import: cannot read \(directory.file("nope.json")): no such file\n")
        streams = CapturedStreams()
        #expect(RewindCommandLine.run(["import", directory.file("nope.json")], streams: &streams) == 2)
        #expect(streams.standardError.hasPrefix("rewind import: -o <out.jsonl> is required"))
    }
}
