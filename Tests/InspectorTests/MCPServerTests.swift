import Foundation
import Testing
@testable import Inspector
import Recorder

/// A client speaking the Model Context Protocol over pipes to the real `rewind mcp` (the
/// executable built beside the tests), one JSON-RPC message a line each way.
final class MCPTestClient {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffered: [UInt8] = []
    private var nextID = 1
    /// Answers read while waiting for another, by id.
    private var early: [String: JSONObject] = [:]

    static let meta: JSONValue = .object(JSONObject([
        ("io.modelcontextprotocol/protocolVersion", .string("2026-07-28")),
        ("io.modelcontextprotocol/clientCapabilities", .object(JSONObject())),
        ("io.modelcontextprotocol/clientInfo", .object(JSONObject([("name", "MCPServerTests"), ("version", "1")]))),
    ]))

    /// The `rewind` executable `swift build` put beside the test bundle.
    static var rewindExecutable: String {
        var folder = URL(fileURLWithPath: Bundle.main.executablePath ?? CommandLine.arguments[0]).deletingLastPathComponent()
        while folder.path != "/", !FileManager.default.isExecutableFile(atPath: folder.appendingPathComponent("rewind").path) {
            folder = folder.deletingLastPathComponent()
        }
        return folder.appendingPathComponent("rewind").path
    }

    init(directories: [String] = [], in folder: String) throws {
        process.executableURL = URL(fileURLWithPath: Self.rewindExecutable)
        process.arguments = ["mcp"] + directories
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    /// Writes one line as it is (a test may send what no client should).
    func send(line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    func send(_ message: JSONObject) {
        send(line: JSONWriter.compactString(.object(message)))
    }

    /// Sends a request and returns the answer with its id (a `result` or an `error` object).
    @discardableResult
    func request(_ method: String, _ params: JSONObject = JSONObject(), modern: Bool = true) throws -> JSONObject {
        let id = issueID()
        var params = params
        if modern, params["_meta"] == nil { params["_meta"] = Self.meta }
        send(JSONObject([("jsonrpc", "2.0"), ("id", .integer(Int64(id))), ("method", .string(method)), ("params", .object(params))]))
        return try answer(to: .integer(Int64(id)))
    }

    func issueID() -> Int {
        defer { nextID += 1 }
        return nextID
    }

    /// A 2026-07-28 `tools/call`: the `result` object, or the JSON-RPC error's.
    func call(_ tool: String, _ arguments: JSONObject) throws -> JSONObject {
        try request("tools/call", JSONObject([("name", .string(tool)), ("arguments", .object(arguments))]))
    }

    /// The answer with `id`, keeping others that arrive first.
    func answer(to id: JSONValue) throws -> JSONObject {
        let key = JSONWriter.compactString(id)
        while early[key] == nil {
            let message = try #require(try nextMessage(), "the server ended without answering \(key)")
            early[JSONWriter.compactString(message["id"] ?? .null)] = message
        }
        return early.removeValue(forKey: key)!
    }

    /// The next line the server writes, as an object; nil at its end.
    func nextMessage() throws -> JSONObject? {
        while true {
            if let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffered[..<newline])
                buffered.removeFirst(newline + 1)
                guard case .object(let message) = try JSONParser.parse(line) else {
                    Issue.record("not an object: \(String(decoding: line, as: UTF8.self))")
                    return nil
                }
                return message
            }
            // A hang guard, not a timing check: a server that says nothing for a minute has failed.
            var descriptor = pollfd(fd: output.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 60_000) == 1 else {
                Issue.record("the server said nothing for 60 s")
                return nil
            }
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { return nil }
            buffered += data
        }
    }

    /// Closes the server's standard input and returns every message it writes before it exits, and its status.
    func finish() throws -> (messages: [JSONObject], status: Int32) {
        try input.fileHandleForWriting.close()
        var messages = Array(early.values)
        while let message = try nextMessage() { messages.append(message) }
        process.waitUntilExit()
        return (messages, process.terminationStatus)
    }
}

/// `rewind mcp` as a coding agent meets it: both eras of the protocol, every tool on logs the
/// current recorder wrote, and the bad input (unknown tool, bad arguments, paths outside the
/// directories, damaged and huge logs).
@Suite struct MCPServerTests {
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("sample-logs").path

    /// A folder the server reads, holding a copy of the sample logs; `outside` is a folder beside it.
    static func workspace() throws -> (folder: String, outside: String) {
        let root = TemporaryDirectory.forThisProcess.subdirectory("mcp-\(UUID().uuidString)")
        let folder = root + "/served", outside = root + "/outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: samples, toPath: folder)
        return (folder, outside)
    }

    func rewind(_ arguments: String...) -> (status: Int32, output: String) {
        var streams = CapturedStreams()
        let status = RewindCommandLine.run(arguments, streams: &streams)
        return (status, streams.standardOutput)
    }

    static func text(_ result: JSONObject) -> String {
        result["content"]?.arrayValue?.compactMap { $0["text"]?.stringValue }.joined() ?? ""
    }

    // MARK: The protocol

    @Test func aHandshakeEraClientInitializesListsToolsAndPings() throws {
        let (folder, _) = try Self.workspace()
        let client = try MCPTestClient(in: folder)
        let initialized = try client.request("initialize", JSONObject([
            ("protocolVersion", "2025-06-18"), ("capabilities", .object(JSONObject())),
            ("clientInfo", .object(JSONObject([("name", "test"), ("version", "1")]))),
        ]), modern: false)
        let result = try #require(initialized["result"]?.objectValue)
        #expect(result["protocolVersion"] == "2025-06-18")
        #expect(result["capabilities"]?["tools"] != nil)
        #expect(result["serverInfo"]?["name"] == "rewind")
        #expect(result["instructions"]?.stringValue?.contains("list_recordings") == true)
        client.send(JSONObject([("jsonrpc", "2.0"), ("method", "notifications/initialized")]))
        #expect(try client.request("ping", modern: false)["result"] == .object(JSONObject()))

        let listed = try #require(try client.request("tools/list", modern: false)["result"]?["tools"]?.arrayValue)
        #expect(listed.compactMap { $0["name"]?.stringValue } == RecordingTools.all.map(\.name))
        for tool in listed {
            #expect(tool["inputSchema"]?["type"] == "object")
            #expect(tool["inputSchema"]?["additionalProperties"] == false)
            #expect(tool["annotations"]?["readOnlyHint"] == true)
            #expect(tool["description"]?.stringValue?.isEmpty == false)
        }
        // Handshake-era results carry no 2026-07-28 fields.
        let call = try #require(try client.request("tools/call", JSONObject([
            ("name", "stats"), ("arguments", .object(JSONObject([("recording", "todos.jsonl")]))),
        ]), modern: false)["result"]?.objectValue)
        #expect(call["resultType"] == nil)
        #expect(call["structuredContent"]?["entries"] == 12)
        #expect(try client.finish().status == 0)
    }

    @Test func initializeWithAVersionTheServerDoesNotSpeakGetsItsNewestHandshakeVersion() throws {
        let (folder, _) = try Self.workspace()
        let client = try MCPTestClient(in: folder)
        let answer = try client.request("initialize", JSONObject([("protocolVersion", "2099-01-01"), ("capabilities", .object(JSONObject()))]), modern: false)
        #expect(answer["result"]?["protocolVersion"] == "2025-11-25")
    }

    @Test func aModernClientDiscoversTheServerAndEveryResultSaysWhoAnswered() throws {
        let (folder, _) = try Self.workspace()
        let client = try MCPTestClient(in: folder)
        let discovered = try #require(try client.request("server/discover")["result"]?.objectValue)
        #expect(discovered["supportedVersions"] == ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"])
        #expect(discovered["resultType"] == "complete")
        #expect(discovered["capabilities"]?["tools"] != nil)
        #expect(discovered["ttlMs"]?.int64Value ?? -1 >= 0)
        #expect(discovered["cacheScope"] == "private")
        #expect(discovered["_meta"]?["io.modelcontextprotocol/serverInfo"]?["name"] == "rewind")
        let listed = try #require(try client.request("tools/list")["result"]?.objectValue)
        #expect(listed["resultType"] == "complete")
        #expect(listed["cacheScope"] == "public")
        #expect(listed["tools"]?.arrayValue?.count == RecordingTools.all.count)
        // No handshake came first, and none is needed: every request stands alone.
        let stats = try client.call("stats", JSONObject([("recording", "todos.jsonl")]))
        #expect(stats["result"]?["resultType"] == "complete")
        #expect(stats["result"]?["isError"] == false)
    }

    @Test func requestsThatAreWrongInThemselvesGetJSONRPCErrorsThatSayWhy() throws {
        let (folder, _) = try Self.workspace()
        let client = try MCPTestClient(in: folder)
        let unsupported = try client.request("tools/list", JSONObject([("_meta", .object(JSONObject([
            ("io.modelcontextprotocol/protocolVersion", "2030-01-01"), ("io.modelcontextprotocol/clientCapabilities", .object(JSONObject())),
        ])))]), modern: false)
        #expect(unsupported["error"]?["code"] == -32022)
        #expect(unsupported["error"]?["data"]?["requested"] == "2030-01-01")
        #expect(unsupported["error"]?["data"]?["supported"]?.arrayValue?.first == "2026-07-28")

        let noCapabilities = try client.request("tools/list", JSONObject([("_meta", .object(JSONObject([
            ("io.modelcontextprotocol/protocolVersion", "2026-07-28"),
        ])))]), modern: false)
        #expect(noCapabilities["error"]?["code"] == -32602)
        #expect(noCapabilities["error"]?["message"]?.stringValue?.contains("clientCapabilities") == true)

        let beforeInitialize = try client.request("tools/list", modern: false)
        #expect(beforeInitialize["error"]?["code"] == -32600)
        #expect(beforeInitialize["error"]?["message"]?.stringValue?.contains("initialize") == true)

        #expect(try client.request("resources/list")["error"]?["code"] == -32601)
        #expect(try client.request("ping")["error"]?["code"] == -32601)   // taken out of the protocol in 2026-07-28

        let unknownTool = try client.call("rewrite_history", JSONObject())
        #expect(unknownTool["error"]?["code"] == -32602)
        #expect(unknownTool["error"]?["message"]?.stringValue?.hasPrefix("Unknown tool: rewrite_history") == true)

        for (arguments, expected) in [
            (JSONObject(), "show_state needs the argument 'recording'"),
            (JSONObject([("recording", "todos.jsonl"), ("entry", "three")]), "show_state: entry is a whole number, not \"three\""),
            (JSONObject([("recording", "todos.jsonl"), ("entry", -1)]), "show_state: entry is at least 0, not -1"),
            (JSONObject([("recording", "todos.jsonl"), ("at", 3)]), "show_state has no argument 'at'"),
            (JSONObject([("recording", "todos.jsonl"), ("max_bytes", 10)]), "show_state: max_bytes is at least 1024, not 10"),
        ] {
            let answer = try client.call("show_state", arguments)
            #expect(answer["error"]?["code"] == -32602)
            #expect(answer["error"]?["message"]?.stringValue?.hasPrefix(expected) == true, "\(answer)")
        }

        client.send(line: "{not json")
        client.send(line: #"[{"jsonrpc":"2.0","id":90,"method":"tools/list"}]"#)
        client.send(line: #"{"jsonrpc":"2.0","id":null,"method":"tools/list"}"#)
        let (messages, status) = try client.finish()
        #expect(messages.map { $0["error"]?["code"] } == [-32700, -32600, -32600])
        #expect(messages.allSatisfy { $0["id"] == .null })
        #expect(status == 0)
    }

    // MARK: The tools, against the command line

    @Test func showStateAndFindAnswerWhatTheCommandLineAnswers() throws {
        let (folder, _) = try Self.workspace()
        let client = try MCPTestClient(in: folder)
        let todos = folder + "/todos.jsonl"
        for entry in [0, 1, 6, 12] {
            let result = try #require(try client.call("show_state", JSONObject([("recording", "todos.jsonl"), ("entry", .integer(Int64(entry)))]))["result"]?.objectValue)
            let shown = rewind("show", todos, "--at", String(entry))
            #expect(result["isError"] == false)
            #expect(Self.text(result) + "\n" == shown.output)
            #expect(result["structuredContent"]?["value"] == (try JSONParser.parse(shown.output)))
        }
        let part = try client.call("show_state", JSONObject([("recording", .string(todos)), ("path", "/stats")]))
        #expect(part["result"]?["structuredContent"]?["value"] == ["total": 1, "done": 0])

        let found = try #require(try client.call("find", JSONObject([("target", "todos.jsonl"), ("query", "/stats/done >= 1")]))["result"]?.objectValue)
        let lines = rewind("find", todos, "/stats/done >= 1").output.split(separator: "\n")
        #expect(Self.text(found) == lines.joined(separator: "\n"))
        #expect(found["structuredContent"]?["matches"]?.arrayValue?.compactMap { $0["entry"]?.int64Value }
                == lines.compactMap { RecordingTools.leadingNumber($0).map(Int64.init) })
        #expect(found["structuredContent"]?["matched"] == true)

        let none = try #require(try client.call("find", JSONObject([("target", "todos.jsonl"), ("query", #"/filter == "none""#)]))["result"]?.objectValue)
        #expect(none["isError"] == false)
        #expect(none["structuredContent"]?["matched"] == false)
        #expect(Self.text(none) == "No entry of todos.jsonl matches /filter == \"none\"")

        let counted = try #require(try client.call("find", JSONObject([("target", "."), ("query", "/todos length > 1"), ("count", true)]))["result"]?["structuredContent"]?.objectValue)
        #expect(counted["count"] == 27)
        #expect(counted["counts"] == [
            ["recording": "./todos-format1.jsonl", "count": 9], ["recording": "./todos-format2.jsonl", "count": 9], ["recording": "./todos.jsonl", "count": 9],
        ])
        let one = try client.call("find", JSONObject([("target", "todos.jsonl"), ("query", "/todos length > 1"), ("count", true)]))
        #expect(one["result"]?["structuredContent"]?["count"] == 9)
        #expect(one["result"]?["structuredContent"]?["counts"] == nil)

        let directory = try #require(try client.call("find", JSONObject([("target", "."), ("query", "/todos length > 3"), ("first", true)]))["result"]?.objectValue)
        #expect(directory["structuredContent"]?["matches"] == [
            ["recording": "./todos-format1.jsonl", "entry": 7], ["recording": "./todos-format2.jsonl", "entry": 7], ["recording": "./todos.jsonl", "entry": 7],
        ])
    }

    @Test func logDiffBisectBlameStatsAndListRecordingsAnswerWhatTheCommandLineAnswers() throws {
        let (folder, _) = try Self.workspace()
        let client = try MCPTestClient(in: folder)
        let todos = folder + "/todos.jsonl"
        let log = try #require(try client.call("log", JSONObject([("recording", "todos.jsonl"), ("from", 3), ("to", 5)]))["result"]?.objectValue)
        #expect(Self.text(log) + "\n" == rewind("log", todos, "--from", "3", "--to", "5", "--width", "120").output)
        #expect(log["structuredContent"]?["entries"] == [3, 4, 5])

        let patch = try #require(try client.call("diff", JSONObject([("recording", "todos.jsonl"), ("from", 4), ("to", 6), ("format", "patch")]))["result"]?.objectValue)
        let exported = try JSONParser.parse(rewind("export", todos, "--from", "5", "--to", "6", "--format", "patch").output)
        #expect(patch["structuredContent"]?["patch"] == exported)
        let tree = try #require(try client.call("diff", JSONObject([("recording", "todos.jsonl"), ("from", 5), ("to", 5)]))["result"]?.objectValue)
        #expect(Self.text(tree) == "no differences")
        #expect(tree["structuredContent"]?["identical"] == true)

        let bisect = try #require(try client.call("bisect", JSONObject([("recording", "todos.jsonl"), ("invariant", "/stats/done == 0")]))["result"]?.objectValue)
        let bisected = rewind("bisect", todos, "/stats/done == 0")
        #expect(bisected.status == 1)
        #expect(Self.text(bisect) + "\n" == bisected.output)
        #expect(bisect["structuredContent"]?["brokenAt"] == 5)
        #expect(bisect["structuredContent"]?["holds"] == false)

        let blame = try #require(try client.call("blame", JSONObject([("recording", "todos.jsonl"), ("path", "/filter")]))["result"]?.objectValue)
        #expect(Self.text(blame) + "\n" == rewind("blame", todos, "/filter").output)
        #expect(blame["structuredContent"]?["changes"] == [6, 10, 12])

        let stats = try #require(try client.call("stats", JSONObject([("recording", "todos.jsonl")]))["result"]?["structuredContent"]?.objectValue)
        var expected = try #require(try JSONParser.parse(rewind("stats", todos, "--format", "json").output).objectValue)
        expected["file"] = "todos.jsonl"
        #expect(stats == expected)

        let listed = try #require(try client.call("list_recordings", JSONObject())["result"]?["structuredContent"]?.objectValue)
        #expect(listed["total"] == 6)
        #expect(listed["recordings"]?.arrayValue?.compactMap { $0["relativePath"]?.stringValue }.sorted()
                == ["garage.jsonl", "player.jsonl", "search.jsonl", "todos-format1.jsonl", "todos-format2.jsonl", "todos.jsonl"])
    }

    @Test func testgenReturnsTheTestAndItsFixtureAndWritesNothing() throws {
        let (folder, _) = try Self.workspace()
        let before = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        let client = try MCPTestClient(in: folder)
        let arguments = JSONObject([("recording", "todos.jsonl"), ("from", 2), ("to", 4), ("reducer", "TodoDomain.reduce"), ("test_file", "CheckoutTests.swift")])
        let test = try #require(try client.call("testgen", arguments)["result"]?.objectValue)
        var fixtureArguments = arguments
        fixtureArguments["part"] = "fixture"
        let fixture = try #require(try client.call("testgen", fixtureArguments)["result"]?.objectValue)
        #expect(test["structuredContent"]?["testFile"] == "CheckoutTests.swift")
        #expect(test["structuredContent"]?["fixtureFile"] == "CheckoutTests.fixture.jsonl")
        #expect(test["structuredContent"]?["steps"] == 3)
        #expect(Self.text(test).contains("struct CheckoutTests"))
        #expect(Self.text(test).contains(#"FixtureReplay(fixture: "CheckoutTests.fixture.jsonl", reducer: TodoDomain.reduce)"#))
        #expect(Self.text(fixture).split(separator: "\n").count == 4)
        _ = try client.finish()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == before)
    }

    // MARK: Bad input the tools meet

    @Test func pathsOutsideTheDirectoriesAreRefusedThroughLinksToo() throws {
        let (folder, outside) = try Self.workspace()
        try FileManager.default.copyItem(atPath: folder + "/todos.jsonl", toPath: outside + "/secret.jsonl")
        try FileManager.default.createSymbolicLink(atPath: folder + "/link.jsonl", withDestinationPath: outside + "/secret.jsonl")
        try FileManager.default.createSymbolicLink(atPath: folder + "/out", withDestinationPath: outside)
        let client = try MCPTestClient(in: folder)
        for (tool, arguments) in [
            ("show_state", JSONObject([("recording", .string(outside + "/secret.jsonl"))])),
            ("show_state", JSONObject([("recording", "../outside/secret.jsonl")])),
            ("log", JSONObject([("recording", "link.jsonl")])),
            ("find", JSONObject([("target", "out"), ("query", "exists /todos")])),
            ("list_recordings", JSONObject([("directory", "out")])),
            ("testgen", JSONObject([("recording", "out/secret.jsonl")])),
        ] {
            let result = try #require(try client.call(tool, arguments)["result"]?.objectValue)
            #expect(result["isError"] == true, "\(tool) \(arguments)")
            #expect(Self.text(result).contains("is outside the directories this server reads (.)"), "\(Self.text(result))")
        }
        let missing = try #require(try client.call("stats", JSONObject([("recording", "nothing.jsonl")]))["result"]?.objectValue)
        #expect(missing["isError"] == true)
        #expect(Self.text(missing) == "nothing.jsonl: no such file or directory (list_recordings shows what there is)")
    }

    @Test func aDamagedLogIsReportedNotFatal() throws {
        let (folder, _) = try Self.workspace()
        var lines = try String(contentsOfFile: folder + "/todos.jsonl", encoding: .utf8).components(separatedBy: "\n")
        lines[3] = lines[3].replacingOccurrences(of: "Call the bank", with: "Call the bonk")
        try lines.joined(separator: "\n").write(toFile: folder + "/damaged.jsonl", atomically: true, encoding: .utf8)
        try "not a log\n".write(toFile: folder + "/notes.jsonl", atomically: true, encoding: .utf8)
        let client = try MCPTestClient(in: folder)
        let stats = try #require(try client.call("stats", JSONObject([("recording", "damaged.jsonl")]))["result"]?.objectValue)
        #expect(stats["isError"] == false)
        #expect(stats["structuredContent"]?["damagedRecords"] == 1)
        let damagedEntry = try #require(try client.call("show_state", JSONObject([("recording", "damaged.jsonl"), ("entry", 3)]))["result"]?.objectValue)
        #expect(damagedEntry["isError"] == true)
        #expect(Self.text(damagedEntry) == "rewind show: entry 3 of damaged.jsonl is a damaged record (line 4: checksum mismatch or not a complete record)")
        let listing = try #require(try client.call("log", JSONObject([("recording", "damaged.jsonl")]))["result"]?.objectValue)
        #expect(listing["isError"] == false)
        #expect(listing["structuredContent"]?["notes"] == ["rewind: damaged.jsonl: line 4 is damaged (checksum mismatch or not a complete record); skipped"])
        let notALog = try #require(try client.call("log", JSONObject([("recording", "notes.jsonl")]))["result"]?.objectValue)
        #expect(notALog["isError"] == true)
        #expect(Self.text(notALog).hasPrefix("rewind: "))
    }

    /// A log the current recorder wrote whose listing and last state are far over one result.
    static func hugeLog(in folder: String) throws -> String {
        let path = folder + "/huge.jsonl"
        var options = ActionRecorder.Options()
        options.clock = .fixed(start: 1_764_000_000, step: 0.25)
        let recorder = try ActionRecorder(file: path, options: options)
        let reducer = recorder.recording { (state: inout [String], action: String) in
            state.append(action + " " + String(repeating: "x", count: 40))
        }
        var state: [String] = []
        for number in 1...3_000 { reducer(&state, "item\(number)") }
        try recorder.close()
        return path
    }

    @Test func aHugeLogsResultsAreCutAtMaxBytesAndTheRestReadsOnWithOffset() throws {
        let (folder, _) = try Self.workspace()
        let huge = try Self.hugeLog(in: folder)
        let client = try MCPTestClient(in: folder)
        let whole = rewind("log", huge, "--width", "120").output
        #expect(whole.utf8.count > 100_000)
        var pages: [String] = []
        var offset: JSONValue = 0
        while offset != .null {
            let result = try #require(try client.call("log", JSONObject([("recording", "huge.jsonl"), ("max_bytes", 32_768), ("offset", offset)]))["result"]?.objectValue)
            let structured = try #require(result["structuredContent"]?.objectValue)
            let text = Self.text(result)
            let body = text.components(separatedBy: "\n[cut at ").first ?? text
            #expect(body.utf8.count <= 32_768)
            #expect(JSONWriter.compact(.object(result)).count < 2 * 32_768 + 16_384)
            pages.append(body + "\n")
            if let next = structured["nextOffset"], next != .null {
                #expect(text.hasSuffix("call again with offset: \(next.int64Value ?? -1) for the rest]"))
            }
            offset = structured["nextOffset"] ?? .null
        }
        #expect(pages.count > 3)
        #expect(pages.joined() == whole)

        // The default bound holds for every tool that can say a lot.
        for (tool, arguments) in [
            ("show_state", JSONObject([("recording", "huge.jsonl")])),
            ("find", JSONObject([("target", "huge.jsonl"), ("query", "exists /0")])),
            ("diff", JSONObject([("recording", "huge.jsonl"), ("from", 0), ("to", 3000)])),
            ("testgen", JSONObject([("recording", "huge.jsonl"), ("to", 300), ("part", "fixture")])),
        ] {
            let result = try #require(try client.call(tool, arguments)["result"]?.objectValue, "\(tool)")
            #expect(result["isError"] == false, "\(tool): \(Self.text(result))")
            #expect(result["structuredContent"]?["nextOffset"]?.int64Value ?? 0 > 0, "\(tool)")
            #expect(JSONWriter.compact(.object(result)).count < 2 * RecordingTools.defaultMaxBytes + 16_384, "\(tool)")
        }
        let tooFar = try #require(try client.call("show_state", JSONObject([("recording", "huge.jsonl"), ("offset", 100_000_000)]))["result"]?.objectValue)
        #expect(tooFar["isError"] == true)
        #expect(Self.text(tooFar).hasPrefix("offset 100000000 is past the end of the output"))
    }

    @Test func aCancelledCallGetsNoAnswerAndTheServerGoesOn() throws {
        let (folder, _) = try Self.workspace()
        _ = try Self.hugeLog(in: folder)
        let client = try MCPTestClient(in: folder)
        // A search over every entry's whole state takes seconds: the cancellation arrives while it runs.
        let cancelled = client.issueID()
        client.send(JSONObject([("jsonrpc", "2.0"), ("id", .integer(Int64(cancelled))), ("method", "tools/call"), ("params", .object(JSONObject([
            ("name", "find"), ("arguments", .object(JSONObject([("target", "huge.jsonl"), ("query", #"/2999 == "nothing""#), ("changes", true)]))),
            ("_meta", MCPTestClient.meta),
        ])))]))
        client.send(JSONObject([("jsonrpc", "2.0"), ("method", "notifications/cancelled"),
                                ("params", .object(JSONObject([("requestId", .integer(Int64(cancelled))), ("reason", "the user changed their mind")])))]))
        #expect(try client.request("tools/list")["result"] != nil)
        let (messages, status) = try client.finish()
        #expect(!messages.contains { $0["id"] == .integer(Int64(cancelled)) })
        #expect(status == 0)
    }

    @Test func closingStandardInputCancelsTheCallsStillRunningAndEndsTheServer() throws {
        let (folder, _) = try Self.workspace()
        _ = try Self.hugeLog(in: folder)
        let client = try MCPTestClient(in: folder)
        #expect(try client.request("tools/list")["result"] != nil)
        let running = client.issueID()
        client.send(JSONObject([("jsonrpc", "2.0"), ("id", .integer(Int64(running))), ("method", "tools/call"), ("params", .object(JSONObject([
            ("name", "find"), ("arguments", .object(JSONObject([("target", "huge.jsonl"), ("query", #"/2999 == "nothing""#), ("changes", true)]))),
            ("_meta", MCPTestClient.meta),
        ])))]))
        let (messages, status) = try client.finish()
        #expect(messages.isEmpty)
        #expect(status == 0)
    }

    @Test func callsRunSideBySideAndEachGetsItsAnswer() throws {
        let (folder, _) = try Self.workspace()
        let client = try MCPTestClient(in: folder)
        var ids: [Int] = []
        for recording in ["todos.jsonl", "garage.jsonl", "player.jsonl", "search.jsonl"] {
            let id = client.issueID()
            ids.append(id)
            client.send(JSONObject([("jsonrpc", "2.0"), ("id", .integer(Int64(id))), ("method", "tools/call"), ("params", .object(JSONObject([
                ("name", "stats"), ("arguments", .object(JSONObject([("recording", .string(recording))]))), ("_meta", MCPTestClient.meta),
            ])))]))
        }
        for (id, recording) in zip(ids, ["todos.jsonl", "garage.jsonl", "player.jsonl", "search.jsonl"]) {
            #expect(try client.answer(to: .integer(Int64(id)))["result"]?["structuredContent"]?["file"] == .string(recording))
        }
    }

    @Test func withoutDirectoriesItReadsTheCurrentOneAndTheTestRecordings() throws {
        let (folder, _) = try Self.workspace()
        let recordings = folder + "/.build/rewind-recordings"
        try FileManager.default.createDirectory(atPath: recordings, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: folder + "/garage.jsonl", toPath: recordings + "/CarTests.jsonl")
        let client = try MCPTestClient(in: folder)
        let listed = try #require(try client.call("list_recordings", JSONObject())["result"]?["structuredContent"]?.objectValue)
        #expect(listed["directories"] == [".", ".build/rewind-recordings"])
        #expect(listed["recordings"]?.arrayValue?.contains { $0["path"]?.stringValue?.hasSuffix("/.build/rewind-recordings/CarTests.jsonl") == true } == true)
    }

    @Test func aDirectoryThatDoesNotExistIsOneLineAtStartup() {
        var streams = CapturedStreams()
        let status = RewindCommandLine.run(["mcp", "/no/such/folder"], streams: &streams)
        #expect(status == 2)
        #expect(streams.standardError == "rewind mcp: /no/such/folder: no such directory\n")
        #expect(streams.standardOutput == "")
    }

    // MARK: Pieces

    @Test func aPageIsCutAfterAWholeLineOrBeforeAUTF8Sequence() {
        let lines = Array("one\ntwo\nthree\n".utf8)
        let page = OutputPage(lines, offset: 10, limit: 9)
        #expect(page.text == "one\ntwo\n")
        #expect(page.nextOffset == 18)
        let accents = Array("ééééé".utf8)   // two bytes each
        let cut = OutputPage(accents, offset: 0, limit: 5)
        #expect(cut.text == "éé")
        #expect(cut.nextOffset == 4)
        #expect(OutputPage(Array("short".utf8), offset: 0, limit: 9).nextOffset == nil)
    }

    @Test func aReportTooLargeForOneResultLosesItsLongestListsAndSaysHowMuch() {
        let object = JSONObject([
            ("entries", 4000),
            ("gaps", .array((0..<1000).map { .object(JSONObject([("firstEntry", .integer(Int64($0))), ("reason", "the queue was full")])) })),
            ("actionsByType", .object(JSONObject((0..<10).map { ("type\($0)", .integer(Int64($0))) }))),
        ])
        let fitted = RecordingTools.fitted(object, within: 2048)
        #expect(JSONWriter.compact(.object(fitted)).count <= 2048)
        #expect(fitted["entries"] == 4000)
        let kept = fitted["gaps"]?.arrayValue?.count ?? 0
        #expect(kept > 0 && Int(fitted["gapsOmitted"]?.int64Value ?? 0) == 1000 - kept)
        #expect(fitted["actionsByType"]?.objectValue?.count == 10)
    }
}
