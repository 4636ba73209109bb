import Foundation

/// One recorded reducer call: the action and what it changed.
///
/// ```swift
/// let entry = try reader.entry(at: 3)
/// print(entry.action.name, entry.changedPaths.map(\.description))   // primary.brakeTapped ["/primary/speed"]
/// ```
public struct LogEntry: Sendable, Equatable {
    /// Position among the readable entries of the log, from 0.
    public var index: Int
    /// One-based line number in the file.
    public var lineNumber: Int
    /// The recorder's sequence number: the order in which the reducer ran, from 0 in each session.
    public var sequence: Int64
    /// Wall-clock time when the reducer returned.
    public var time: Date
    /// How long the reducer took, in seconds.
    public var duration: Double
    public var action: RecordedAction
    /// When an effect sent this action: the sequence number of the entry whose effect it was.
    public var effectOf: Int64?
    /// True when the record holds the whole state rather than a patch.
    public var isKeyframe: Bool
    /// The JSON Pointers the action changed (the patch's paths).
    public var changedPaths: [JSONPointer]
}

/// An action as recorded: its case path, its payload and whether it can be decoded back.
public struct RecordedAction: Sendable, Equatable {
    /// The enum case path, `primary.brakeTapped` for `.primary(.brakeTapped)`, or the type name
    /// for struct actions.
    public var name: String
    /// The action as JSON (its `Codable` encoding, or a reflection dump).
    public var payload: JSONValue
    /// True when the action was encoded with `Codable` and can be decoded for replay.
    public var isReplayable: Bool
}

/// An entry record, read member by member: the state of a keyframe is only
/// delimited here and parsed when a state is asked for.
struct ParsedEntry {
    var entry: LogEntry
    /// Where the whole state is in the line, for keyframes.
    var stateRange: Range<Int>?
    /// Patch from the previous entry's state otherwise.
    var patch: JSONPatch?

    init(line: UnsafeBufferPointer<UInt8>, index: Int, lineNumber: Int) throws(LogRecordError) {
        guard let members = RecordScanner.members(line) else { throw LogRecordError("the record is not a JSON object") }
        func value(_ key: String) throws(LogRecordError) -> JSONValue? {
            guard let member = members.first(where: { $0.key == key }) else { return nil }
            do {
                return try JSONParser.parse(buffer: UnsafeBufferPointer(rebasing: line[member.value]))
            } catch {
                throw LogRecordError("member \"\(key)\": \(error)")
            }
        }
        guard let sequence = try value("seq")?.int64Value else { throw LogRecordError("entry has no \"seq\"") }
        guard let action = try value("action"), let name = action["type"]?.stringValue else {
            throw LogRecordError("entry has no \"action\" with a \"type\"")
        }
        let recorded = RecordedAction(
            name: name, payload: action["payload"] ?? .null, isReplayable: action["replayable"]?.boolValue ?? false)
        var changedPaths: [JSONPointer] = []
        if let state = members.first(where: { $0.key == "state" }) {
            stateRange = state.value
            for path in try value("changed")?.arrayValue ?? [] {
                if let text = path.stringValue, let pointer = try? JSONPointer(parsing: text) { changedPaths.append(pointer) }
            }
        } else if let patchValue = try value("patch") {
            do {
                let patch = try JSONPatch(jsonValue: patchValue)
                self.patch = patch
                changedPaths = patch.operations.map(\.path)
            } catch {
                throw LogRecordError("entry patch is not a valid JSON Patch: \(error)")
            }
        } else {
            throw LogRecordError("entry has neither \"state\" nor \"patch\"")
        }
        entry = LogEntry(
            index: index, lineNumber: lineNumber, sequence: sequence,
            time: Date(timeIntervalSince1970: try value("time")?.doubleValue ?? 0),
            duration: Double(try value("durationNs")?.int64Value ?? 0) / 1e9,
            action: recorded, effectOf: try value("effectOf")?.int64Value,
            isKeyframe: stateRange != nil, changedPaths: changedPaths)
    }
}
