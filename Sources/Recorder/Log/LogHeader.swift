import Foundation

/// The first record of a log (and of every later recording session appended to it).
///
/// ```swift
/// let reader = try LogReader(path: "checkout.jsonl")
/// print(reader.header.stateTypeName ?? "?", reader.header.keyframeInterval)
/// ```
public struct LogHeader: Sendable, Equatable {
    /// Format version; this library writes version 3 and reads versions 1 to 3.
    public var version: Int
    /// When recording started.
    public var created: Date
    /// Name of the process that recorded the log.
    public var processName: String
    /// Swift type names of the recorded state and action (`nil` when nothing was recorded).
    public var stateTypeName: String?
    /// Swift type name of the recorded action (`nil` when nothing was recorded).
    public var actionTypeName: String?
    /// At most this many entries separate two keyframes.
    public var keyframeInterval: Int
    /// The recorder options in effect (queue policy, durability, …), for people reading the log.
    public var options: JSONValue
    /// Free-form metadata given to the recorder (`ActionRecorder.Options.metadata`).
    public var metadata: [String: String]
    /// The state before the first recorded action, when the recorder saw it.
    public var initialState: JSONValue?
    /// True when the state was encoded with `Codable` (so it can be decoded back for replay),
    /// false when it was dumped through reflection.
    public var isStateReplayable: Bool
    /// A random identifier of the recording session (format 2), so that no two
    /// sessions' headers are alike and a line copied from another log never
    /// passes for one of this session's (see docs/FORMAT.md, "Chained records").
    public var sessionID: String? = nil
    /// Where the state holds `Date`s (encoded as seconds since 2001-01-01, `Date`'s
    /// `Codable` default): JSON Pointer patterns in which `*` stands for any array
    /// index or object key, e.g. `["/todos/*/created"]`. The inspector shows the
    /// numbers there as ISO-8601 dates. Empty when the recorder did not say.
    public var datePaths: [String] = []
}

extension LogHeader {
    /// The header as written, without the `kind` and checksum members.
    var jsonObject: JSONObject {
        var object = JSONObject()
        object["format"] = .string(LogLine.formatName)
        object["version"] = .integer(Int64(version))
        object["created"] = .double(LogTime.rounded(created.timeIntervalSince1970))
        object["process"] = .string(processName)
        object["stateType"] = stateTypeName.map(JSONValue.string) ?? .null
        object["actionType"] = actionTypeName.map(JSONValue.string) ?? .null
        object["keyframeInterval"] = .integer(Int64(keyframeInterval))
        object["options"] = options
        object["metadata"] = .object(JSONObject(metadata.sorted { $0.key < $1.key }.map { (key, value) -> (String, JSONValue) in (key, .string(value)) }))
        object["stateReplayable"] = .bool(isStateReplayable)
        if let sessionID { object["session"] = .string(sessionID) }
        if let initialState { object["initialState"] = initialState }
        if !datePaths.isEmpty { object["datePaths"] = .array(datePaths.map(JSONValue.string)) }
        return object
    }

    /// Reads a parsed header record; the message says which member is wrong.
    init(record: JSONValue) throws(LogRecordError) {
        guard record["format"]?.stringValue == LogLine.formatName else {
            throw LogRecordError("the header does not say \"format\":\"rewind\"")
        }
        guard let version = record["version"]?.int64Value else { throw LogRecordError("the header has no version") }
        // Clamped: `Int` is 32 bits on watchOS, and a header from elsewhere may say 2⁶³.
        self.version = Int(clamping: version)
        created = Date(timeIntervalSince1970: record["created"]?.doubleValue ?? 0)
        processName = record["process"]?.stringValue ?? ""
        stateTypeName = record["stateType"]?.stringValue
        actionTypeName = record["actionType"]?.stringValue
        keyframeInterval = Int(clamping: record["keyframeInterval"]?.int64Value ?? 0)
        options = record["options"] ?? [:]
        var metadata: [String: String] = [:]
        if let members = record["metadata"]?.objectValue?.members {
            for (key, value) in members { metadata[key] = value.stringValue ?? value.description }
        }
        self.metadata = metadata
        isStateReplayable = record["stateReplayable"]?.boolValue ?? false
        initialState = record["initialState"]
        // Optional (added after version 1 shipped): patterns that are not strings are left out.
        datePaths = record["datePaths"]?.arrayValue?.compactMap(\.stringValue) ?? []
        sessionID = record["session"]?.stringValue
    }

    /// A new random session identifier: 16 hex digits.
    static func randomSessionID() -> String {
        let value = UInt64.random(in: .min ... .max)
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

/// A record that has a valid checksum but does not hold what its kind requires.
package struct LogRecordError: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

/// Times in the log are seconds since 1970 rounded to microseconds, so they
/// print short (`1764425312.123456`) and `jq 'todate'` reads them.
enum LogTime {
    static func rounded(_ seconds: Double) -> Double { (seconds * 1e6).rounded() / 1e6 }

    /// `seconds` as whole microseconds (``rounded(_:)``'s): what `t` counts (format 3).
    static func microseconds(_ seconds: Double) -> Int64 { Int64(saturating: seconds * 1e6) }

    /// The time `t` microseconds after `start` (a header's `created`, as read), as
    /// ``rounded(_:)`` gives it: the same `Double` the writer had, since both are whole microseconds.
    static func time(microseconds t: Int64, after start: Double) -> Double {
        Double(microseconds(start).addingSaturating(t)) / 1e6
    }
}
