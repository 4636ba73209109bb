/// The first line each side sends on a live-recording connection (docs/LIVE.md):
///
/// ```
/// app → listener   {"kind":"hello","protocol":1,"token":"…","session":"…","acks":true}
/// listener → app   {"kind":"welcome","lastSeq":41,"acks":true}   (lastSeq absent: nothing of this session yet)
///                  {"kind":"refused","reason":"wrong token"}      and the listener closes
/// ```
///
/// After the welcome the app sends log records exactly as a file holds them,
/// starting with the session's header. When both sides said `"acks":true`, the
/// listener answers each batch it has written with `{"kind":"received","lastSeq":57}`,
/// so the app knows which entries arrived; otherwise it sends nothing more (an app
/// or a listener from before acknowledgements leaves the member out, and the other
/// side then does without).
package enum LiveHandshake {
    package static let protocolVersion = 1
    /// A hello or reply longer than this is not one.
    package static let maximumLineBytes = 4096

    package struct Hello: Equatable, Sendable {
        package var token: String
        /// Names the recording across reconnections: 16–64 lowercase hex digits.
        package var session: String
        /// The app reads the listener's `received` lines.
        package var acknowledgements: Bool

        package init(token: String, session: String, acknowledgements: Bool = false) {
            self.token = token
            self.session = session
            self.acknowledgements = acknowledgements
        }
    }

    package enum Reply: Equatable, Sendable {
        /// Accepted; `lastSequence` is the last entry (or gap) the listener already holds for the
        /// session; `acknowledgements`: the listener will say what it has written (`received`).
        case welcome(lastSequence: Int64?, acknowledgements: Bool)
        case refused(reason: String)
    }

    package static func line(_ hello: Hello) -> [UInt8] {
        var object = JSONObject([
            ("kind", "hello"), ("protocol", .integer(Int64(protocolVersion))),
            ("token", .string(hello.token)), ("session", .string(hello.session)),
        ])
        if hello.acknowledgements { object["acks"] = true }
        return line(object)
    }

    /// `{"kind":"received","lastSeq":57}`: the listener's log holds the session up to sequence number 57.
    package static func receivedLine(lastSequence: Int64) -> [UInt8] {
        line(JSONObject([("kind", "received"), ("lastSeq", .integer(lastSequence))]))
    }

    /// The sequence number a `received` line (without its newline) acknowledges; nil for any other line.
    package static func received(from line: some Collection<UInt8>) -> Int64? {
        guard let object = try? JSONParser.parse(line), object["kind"]?.stringValue == "received" else { return nil }
        return object["lastSeq"]?.int64Value
    }

    package static func line(_ reply: Reply) -> [UInt8] {
        switch reply {
        case .welcome(let last, let acknowledgements):
            var object = JSONObject([("kind", "welcome")])
            if let last { object["lastSeq"] = .integer(last) }
            if acknowledgements { object["acks"] = true }
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
        return .success(Hello(token: token, session: session, acknowledgements: object["acks"]?.boolValue == true))
    }

    package static func reply(from line: some Collection<UInt8>) -> Result<Reply, LiveProtocolError> {
        guard let object = try? JSONParser.parse(line) else { return .failure(LiveProtocolError("the listener's reply is not JSON")) }
        switch object["kind"]?.stringValue {
        case "welcome":
            let acknowledgements = object["acks"]?.boolValue == true
            // The app counts on from it: a listener (or whatever answers in its place) must not
            // make that count overflow.
            guard let last = object["lastSeq"] else { return .success(.welcome(lastSequence: nil, acknowledgements: acknowledgements)) }
            guard let sequence = last.int64Value, (0...(Int64.max - LogLimits.maximumGapEntries)).contains(sequence) else {
                return .failure(LiveProtocolError("the listener's welcome holds no sequence number an app can go on from"))
            }
            return .success(.welcome(lastSequence: sequence, acknowledgements: acknowledgements))
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
