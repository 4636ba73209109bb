import Recorder

/// One line a client sent `rewind mcp`, read as JSON-RPC 2.0.
enum JSONRPCMessage {
    /// A call that wants an answer; `id` is a string or an integer, echoed in the answer.
    case request(id: JSONValue, method: String, params: JSONObject)
    /// A call that wants none (`notifications/cancelled`).
    case notification(method: String, params: JSONObject)
    /// An answer from the client. The server sends no requests, so there is nothing to match it to.
    case response
    /// Not a message the server can serve; answered with `error` (and the id, when it could be read).
    case invalid(id: JSONValue, error: JSONRPCError)

    /// Reads one line (without its newline).
    init(line: [UInt8]) {
        let value: JSONValue
        do {
            value = try JSONParser.parse(line)
        } catch {
            self = .invalid(id: .null, error: JSONRPCError(.parseError, "the line is not JSON: \(error.description)"))
            return
        }
        guard case .object(let message) = value else {
            // Batches were taken out of the protocol in 2025-06-18; every revision the server speaks has one message a line.
            let what = value.arrayValue != nil ? "a batch (an array) of messages; send one message a line" : "not a JSON-RPC message (an object)"
            self = .invalid(id: .null, error: JSONRPCError(.invalidRequest, "the line is " + what))
            return
        }
        let id = message["id"]
        if let id, !Self.isValidID(id) {
            self = .invalid(id: .null, error: JSONRPCError(.invalidRequest, "a request id is a string or an integer, not \(JSONWriter.compactString(id))"))
            return
        }
        guard message["jsonrpc"]?.stringValue == "2.0" else {
            self = .invalid(id: id ?? .null, error: JSONRPCError(.invalidRequest, #"the message has no "jsonrpc": "2.0""#))
            return
        }
        guard let methodValue = message["method"] else {
            if id != nil, message["result"] != nil || message["error"] != nil {
                self = .response
            } else {
                self = .invalid(id: id ?? .null, error: JSONRPCError(.invalidRequest, "the message has no method"))
            }
            return
        }
        guard let method = methodValue.stringValue else {
            self = .invalid(id: id ?? .null, error: JSONRPCError(.invalidRequest, "the method is not a string"))
            return
        }
        var params = JSONObject()
        if let given = message["params"] {
            guard case .object(let object) = given else {
                self = .invalid(id: id ?? .null, error: JSONRPCError(.invalidParams, "the params of \(method) are not an object"))
                return
            }
            params = object
        }
        if let id {
            self = .request(id: id, method: method, params: params)
        } else {
            self = .notification(method: method, params: params)
        }
    }

    /// MCP takes JSON-RPC's ids but not `null`: a string or a whole number.
    private static func isValidID(_ id: JSONValue) -> Bool {
        switch id {
        case .string, .integer: true
        default: false
        }
    }

    /// `{"jsonrpc":"2.0","id":…,"result":…}` as one line.
    static func result(_ result: JSONObject, id: JSONValue) -> [UInt8] {
        line(JSONObject([("jsonrpc", "2.0"), ("id", id), ("result", .object(result))]))
    }

    /// `{"jsonrpc":"2.0","id":…,"error":{"code":…,"message":…}}` as one line.
    static func error(_ error: JSONRPCError, id: JSONValue) -> [UInt8] {
        line(JSONObject([("jsonrpc", "2.0"), ("id", id), ("error", error.jsonValue)]))
    }

    /// Compact JSON never holds a raw newline (strings escape theirs), so each message is one line.
    private static func line(_ object: JSONObject) -> [UInt8] {
        JSONWriter.compact(.object(object)) + [UInt8(ascii: "\n")]
    }
}

/// A JSON-RPC error: the code, one sentence a person can act on, and data a program can.
struct JSONRPCError: Error, Equatable {
    enum Code: Int {
        case parseError = -32700
        case invalidRequest = -32600
        case methodNotFound = -32601
        /// Bad params, an unknown tool, arguments that do not fit the tool's schema.
        case invalidParams = -32602
        case internalError = -32603
        /// The request's protocol version is not one the server speaks (2026-07-28, `data.supported` lists them).
        case unsupportedProtocolVersion = -32022
    }

    var code: Code
    var message: String
    var data: JSONValue?

    init(_ code: Code, _ message: String, data: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    var jsonValue: JSONValue {
        var object = JSONObject([("code", .integer(Int64(code.rawValue))), ("message", .string(message))])
        if let data { object["data"] = data }
        return .object(object)
    }
}
