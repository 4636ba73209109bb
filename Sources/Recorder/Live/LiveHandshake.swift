/// The first line each side sends on a live-recording connection (docs/LIVE.md):
///
/// ```
/// app → listener   {"kind":"hello","protocol":1,"token":"…","session":"…"}
/// listener → app   {"kind":"welcome","lastSeq":41}        (lastSeq absent: nothing of this session yet)
///                  {"kind":"refused","reason":"wrong token"}  and the listener closes
/// ```
///
/// After the welcome the app sends log records exactly as a file holds them,
/// starting with the session's header; the listener sends nothing more.
package enum LiveHandshake {
    package static let protocolVersion = 1
    /// A hello or reply longer than this is not one.
    package static let maximumLineBytes = 4096

    package struct Hello: Equatable, Sendable {
        package var token: String
        /// Names the recording across reconnections: 16–64 lowercase hex digits.
        package var session: String

        package init(token: String, session: String) {
            self.token = token
            self.session = session
        }
    }

    package enum Reply: Equatable, Sendable {
        /// Accepted; `lastSequence` is the last entry (or gap) the listener already holds for the session.
        case welcome(lastSequence: Int64?)
        case refused(reason: String)
    }

    package static func line(_ hello: Hello) -> [UInt8] {
        line(JSONObject([
            ("kind", "hello"), ("protocol", .integer(Int64(protocolVersion))),
            ("token", .string(hello.token)), ("session", .string(hello.session)),
        ]))
    }

    package static func line(_ reply: Reply) -> [UInt8] {
        switch reply {
        case .welcome(let last):
            var object = JSONObject([("kind", "welcome")])
            if let last { object["lastSeq"] = .integer(last) }
            return line(object)
        case .refused(let reason):
            return line(JSONObject([("kind", "refused"), ("reason", .string(reason))]))
        }
    }

    /// Reads a hello line (without its newline); the error says what is wrong with it.
    package static func hello(from line: some Collection<UInt8>) -> Result<Hello, LiveProtocolError> {
        guard let object = try? JSONParser.parse(line), object["kind"]?.stringValue == "hello" else {
            return .failure(LiveProtocolError("the connection did not start with a Rewind hello"))
        }
        guard object["protocol"]?.int64Value == Int64(protocolVersion) else {
            return .failure(LiveProtocolError("unsupported protocol version \(object["protocol"].map(shortText) ?? "(none)")"))
        }
        guard let token = object["token"]?.stringValue, let session = object["session"]?.stringValue else {
            return .failure(LiveProtocolError("the hello has no token or session"))
        }
        guard isSessionName(session) else { return .failure(LiveProtocolError("the hello's session is not 16–64 hex digits")) }
        return .success(Hello(token: token, session: session))
    }

    package static func reply(from line: some Collection<UInt8>) -> Result<Reply, LiveProtocolError> {
        guard let object = try? JSONParser.parse(line) else { return .failure(LiveProtocolError("the listener's reply is not JSON")) }
        switch object["kind"]?.stringValue {
        case "welcome":
            // The app counts on from it: a listener (or whatever answers in its place) must not
            // make that count overflow.
            guard let last = object["lastSeq"] else { return .success(.welcome(lastSequence: nil)) }
            guard let sequence = last.int64Value, (0...(Int64.max - LogLimits.maximumGapEntries)).contains(sequence) else {
                return .failure(LiveProtocolError("the listener's welcome holds no sequence number an app can go on from"))
            }
            return .success(.welcome(lastSequence: sequence))
        case "refused": return .success(.refused(reason: object["reason"]?.stringValue ?? "no reason given"))
        default: return .failure(LiveProtocolError("the listener's reply is neither welcome nor refused"))
        }
    }

    /// A value a peer sent, for a message: its JSON, cut to 40 characters (whoever
    /// shows the message escapes what it holds for a terminal).
    private static func shortText(_ value: JSONValue) -> String {
        let text = JSONWriter.compactString(value)
        return text.count > 40 ? text.prefix(40) + "…" : text
    }

    /// Session names go into file names, so only hex digits are allowed.
    package static func isSessionName(_ text: String) -> Bool {
        (16...64).contains(text.utf8.count) && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// 128 random bits as 32 hex digits: tokens and session names.
    package static func randomHex() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in
            let value = generator.next() as UInt32
            let hex = String(value, radix: 16)
            return String(repeating: "0", count: 8 - hex.count) + hex
        }.joined()
    }

    private static func line(_ object: JSONObject) -> [UInt8] {
        var bytes = JSONWriter.compact(.object(object))
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }
}

/// A hello or reply that is not what the protocol says.
package struct LiveProtocolError: Error, CustomStringConvertible {
    package var description: String
    init(_ description: String) { self.description = description }
}
