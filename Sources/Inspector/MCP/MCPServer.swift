import Foundation
import Recorder

/// `rewind mcp`: a Model Context Protocol server over stdio, serving ``RecordingTools``.
///
/// Speaks both eras of the protocol, as a dual-era server may:
/// - **2026-07-28** (the current revision): no handshake; every request carries its protocol
///   version and the client's capabilities in `_meta`, `server/discover` says what the server
///   supports, results carry `resultType` and the server's identity.
/// - **2025-11-25 and earlier**: `initialize` (the version negotiated), then
///   `notifications/initialized`, `ping`, `tools/list` and `tools/call`.
///
/// One JSON-RPC message a line on standard input, one a line on standard output (nothing else
/// is ever written there; commands' own output reaches the client only inside results).
/// Tool calls run concurrently, each on a thread of its own; `notifications/cancelled` ends the
/// command a call is running and no answer is sent for it. At the end of standard input the
/// server cancels the calls still running and exits.
final class MCPServer: @unchecked Sendable {
    static let currentVersion = "2026-07-28"
    /// The handshake-era revisions `initialize` accepts, newest first.
    static let handshakeVersions = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]
    static var supportedVersions: [String] { [currentVersion] + handshakeVersions }

    private let directories: ReadableDirectories
    private let executable: String
    private let output: Int32
    private let writeLock = NSLock()
    private let stateLock = NSLock()
    /// The version `initialize` settled on; nil until a handshake-era client has sent it.
    private var negotiatedVersion: String?
    /// Calls running now, by request id (as compact JSON: `"7"` and `7` are different ids).
    private var running: [String: ToolContext] = [:]
    private let calls = DispatchGroup()

    init(directories: ReadableDirectories, executable: String = ChildCommand.currentExecutable, output: Int32 = STDOUT_FILENO) {
        self.directories = directories
        self.executable = executable
        self.output = output
    }

    /// Serves messages from `input` until it ends; returns the exit status.
    func serve(input: Int32 = STDIN_FILENO) -> Int32 {
        var lines = LineReader(descriptor: input)
        while let line = lines.next() {
            switch line {
            case .line(let bytes): handle(bytes)
            case .tooLong: send(JSONRPCMessage.error(JSONRPCError(.invalidRequest, "the line is longer than \(LineReader.longestLine >> 20) MB"), id: .null))
            }
        }
        // The client closing standard input is its way to shut the server down: calls still running
        // are cancelled (their commands ended, no answers sent) rather than waited for.
        for call in stateLock.withLock({ Array(running.values) }) { call.cancel() }
        calls.wait()
        return 0
    }

    func handle(_ line: [UInt8]) {
        // A line of nothing but spaces (or a CR a Windows client left) is no message.
        guard line.contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\t") }) else { return }
        switch JSONRPCMessage(line: line) {
        case .invalid(let id, let error):
            send(JSONRPCMessage.error(error, id: id))
        case .response:
            break
        case .notification(let method, let params):
            notified(method, params)
        case .request(let id, let method, let params):
            request(id: id, method: method, params: params)
        }
    }

    private func notified(_ method: String, _ params: JSONObject) {
        switch method {
        case "notifications/cancelled":
            // Unknown or finished ids are ignored, as the protocol asks.
            guard let id = params["requestId"] else { return }
            let call = stateLock.withLock { running[JSONWriter.compactString(id)] }
            call?.cancel()
        default:
            // `notifications/initialized` and anything else: nothing to answer (notifications never are).
            break
        }
    }

    private func request(id: JSONValue, method: String, params: JSONObject) {
        let meta = params["_meta"]?.objectValue
        // `initialize` selects the handshake era, whatever else the request carries.
        if method != "initialize", let requested = meta?["io.modelcontextprotocol/protocolVersion"] {
            modernRequest(id: id, method: method, params: params, meta: meta ?? JSONObject(), requested: requested)
            return
        }
        switch method {
        case "initialize":
            initialize(id: id, params: params)
        case "ping":
            send(JSONRPCMessage.result(JSONObject(), id: id))
        case "server/discover":
            send(JSONRPCMessage.error(JSONRPCError(.invalidParams, missingMeta("io.modelcontextprotocol/protocolVersion")), id: id))
        default:
            guard stateLock.withLock({ negotiatedVersion != nil }) else {
                send(JSONRPCMessage.error(JSONRPCError(.invalidRequest, "\(method) before initialize: send initialize first, "
                    + "or give the protocol version (\(Self.currentVersion)) in the request's _meta"), id: id))
                return
            }
            operation(id: id, method: method, params: params, modern: false)
        }
    }

    /// A 2026-07-28 request: its version and capabilities come with it, nothing from earlier requests counts.
    private func modernRequest(id: JSONValue, method: String, params: JSONObject, meta: JSONObject, requested: JSONValue) {
        guard let version = requested.stringValue else {
            send(JSONRPCMessage.error(JSONRPCError(.invalidParams, "_meta io.modelcontextprotocol/protocolVersion is not a string"), id: id))
            return
        }
        guard version == Self.currentVersion else {
            let data = JSONValue.object(JSONObject([
                ("supported", .array(Self.supportedVersions.map(JSONValue.string))), ("requested", .string(version)),
            ]))
            send(JSONRPCMessage.error(JSONRPCError(.unsupportedProtocolVersion,
                "Unsupported protocol version \(version): this server speaks \(Self.supportedVersions.joined(separator: ", "))", data: data), id: id))
            return
        }
        guard meta["io.modelcontextprotocol/clientCapabilities"]?.objectValue != nil else {
            send(JSONRPCMessage.error(JSONRPCError(.invalidParams, missingMeta("io.modelcontextprotocol/clientCapabilities")), id: id))
            return
        }
        if method == "server/discover" {
            var result = JSONObject([
                ("supportedVersions", .array(Self.supportedVersions.map(JSONValue.string))),
                ("capabilities", capabilities),
                ("instructions", .string(instructions)),
                // The instructions name this machine's directories: not for caches shared between users.
                ("ttlMs", .integer(3_600_000)),
                ("cacheScope", "private"),
            ])
            modernFields(&result)
            send(JSONRPCMessage.result(result, id: id))
            return
        }
        operation(id: id, method: method, params: params, modern: true)
    }

    private func missingMeta(_ key: String) -> String {
        "the request's _meta has no \(key) (protocol \(Self.currentVersion) carries it on every request; or send initialize first)"
    }

    private func initialize(id: JSONValue, params: JSONObject) {
        guard let requested = params["protocolVersion"]?.stringValue else {
            send(JSONRPCMessage.error(JSONRPCError(.invalidParams, "initialize needs params.protocolVersion"), id: id))
            return
        }
        // The version asked for when the server speaks it, else its newest handshake-era one (the client may then hang up).
        let version = Self.handshakeVersions.contains(requested) ? requested : Self.handshakeVersions[0]
        stateLock.withLock { negotiatedVersion = version }
        send(JSONRPCMessage.result(JSONObject([
            ("protocolVersion", .string(version)),
            ("capabilities", capabilities),
            ("serverInfo", serverInfo),
            ("instructions", .string(instructions)),
        ]), id: id))
    }

    /// `tools/list` and `tools/call`, in either era.
    private func operation(id: JSONValue, method: String, params: JSONObject, modern: Bool) {
        switch method {
        case "tools/list":
            if params["cursor"] != nil {
                send(JSONRPCMessage.error(JSONRPCError(.invalidParams, "the tool list has one page: there is no cursor to continue from"), id: id))
                return
            }
            var result = JSONObject([("tools", .array(RecordingTools.all.map(\.listing)))])
            if modern {
                result["ttlMs"] = .integer(3_600_000)
                result["cacheScope"] = "public"
                modernFields(&result)
            }
            send(JSONRPCMessage.result(result, id: id))
        case "tools/call":
            call(id: id, params: params, modern: modern)
        default:
            send(JSONRPCMessage.error(JSONRPCError(.methodNotFound, "no method \(method): this server offers tools only "
                + "(tools/list, tools/call\(modern ? ", server/discover" : ", ping"))"), id: id))
        }
    }

    private func call(id: JSONValue, params: JSONObject, modern: Bool) {
        guard let name = params["name"]?.stringValue else {
            send(JSONRPCMessage.error(JSONRPCError(.invalidParams, "tools/call needs params.name, the tool to call"), id: id))
            return
        }
        guard let tool = RecordingTools.tool(named: name) else {
            send(JSONRPCMessage.error(JSONRPCError(.invalidParams,
                "Unknown tool: \(name) (the tools: \(RecordingTools.all.map(\.name).joined(separator: ", ")))"), id: id))
            return
        }
        var arguments = JSONObject()
        if let given = params["arguments"], given != .null {
            guard case .object(let object) = given else {
                send(JSONRPCMessage.error(JSONRPCError(.invalidParams, "\(name): arguments are an object"), id: id))
                return
            }
            arguments = object
        }
        let checked: ToolArguments
        switch tool.check(arguments) {
        case .success(let value): checked = value
        case .failure(let error):
            send(JSONRPCMessage.error(error, id: id))
            return
        }
        let key = JSONWriter.compactString(id)
        let context = ToolContext(directories: directories, executable: executable)
        let taken = stateLock.withLock { () -> Bool in
            guard running[key] == nil else { return true }
            running[key] = context
            return false
        }
        if taken {
            send(JSONRPCMessage.error(JSONRPCError(.invalidRequest, "request id \(key) is already in use by a call still running"), id: id))
            return
        }
        calls.enter()
        // 8 MiB of stack, as the recorder's threads have: `diff` and `testgen` work on deep states here.
        Platform.startThread(named: "rewind.mcp.call") { [self] in
            defer { calls.leave() }
            let result = tool.run(checked, context)
            stateLock.withLock { running[key] = nil }
            // A cancelled call gets no answer.
            guard !context.isCancelled else { return }
            var object = result.jsonObject
            if modern { modernFields(&object) }
            send(JSONRPCMessage.result(object, id: id))
        }
    }

    /// What every 2026-07-28 result carries: its type and who answered.
    private func modernFields(_ result: inout JSONObject) {
        result["resultType"] = "complete"
        result["_meta"] = .object(JSONObject([("io.modelcontextprotocol/serverInfo", serverInfo)]))
    }

    private var capabilities: JSONValue {
        .object(JSONObject([("tools", .object(JSONObject([("listChanged", false)])))]))
    }

    private var serverInfo: JSONValue {
        .object(JSONObject([
            ("name", "rewind"), ("title", "Rewind"), ("version", .string(CommandTable.version)),
            ("description", "Reads Rewind recordings: the actions and states of Swift apps built on reducers"),
        ]))
    }

    private var instructions: String {
        """
        Rewind recordings are JSON Lines logs of an app's reducer: each entry is an action and the state after it. \
        This server reads the recordings under \(directories.shown.joined(separator: ", ")) and writes nothing. \
        Start with list_recordings; log lists a recording's entries, show_state and diff read states, find and \
        bisect search them with queries such as '/cart/total < 0', blame follows one value, stats says what a \
        recording holds (gaps, damage), testgen turns a range of entries into a Swift test. Entries keep the \
        numbers they were recorded with (from 1; 0 is the state before the first). A result cut at max_bytes \
        gives nextOffset: call again with offset to read on.
        """
    }

    private func send(_ bytes: [UInt8]) {
        // One message a write, under the lock: answers from concurrent calls never interleave.
        _ = writeLock.withLock { OutputFile.writeAll(bytes, to: output) }
    }
}

/// Lines from a descriptor, read in large chunks; a line longer than ``longestLine`` is skipped (reported once).
struct LineReader {
    enum Line {
        case line([UInt8])
        case tooLong
    }

    static let longestLine = 64 << 20

    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    private var ended = false
    private var skipping = false

    init(descriptor: Int32) { self.descriptor = descriptor }

    mutating func next() -> Line? {
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffer[start..<newline])
                start = newline + 1
                if skipping {
                    skipping = false
                    continue
                }
                return .line(line)
            }
            if ended {
                guard start < buffer.count, !skipping else { return nil }
                let line = Array(buffer[start...])
                start = buffer.count
                return .line(line)
            }
            if buffer.count - start > Self.longestLine {
                // Keep reading to the end of this line, dropping it.
                buffer.removeAll(keepingCapacity: true)
                start = 0
                if !skipping {
                    skipping = true
                    return .tooLong
                }
            }
            if start > 0 {
                buffer.removeFirst(start)
                start = 0
            }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 {
                ended = true
            } else {
                buffer += chunk[0..<count]
            }
        }
    }
}
