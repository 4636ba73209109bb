/// What a scan over every entry of a log needs of one entry (the inspector's
/// `f` action types, filter, `w` path history and timeline search), read
/// without the state, the patch's values or the rest of a ``LogEntry``.
/// An entry is readable here exactly when ``LogReader/entry(at:)`` reads it.
package struct ScannedEntry: Sendable, Equatable {
    package var actionType: String
    /// The payload as `JSONWriter.compact` writes it; empty unless asked for.
    package var payloadJSON: [UInt8]
    /// The paths the action changed, as ``LogEntry/changedPaths``; empty unless asked for.
    package var changedPaths: [JSONPointer]

    /// What a scan reads besides the action type.
    package struct Fields: OptionSet, Sendable {
        package let rawValue: Int
        package init(rawValue: Int) { self.rawValue = rawValue }
        package static let payloadJSON = Fields(rawValue: 1)
        package static let changedPaths = Fields(rawValue: 2)
    }

    package init(actionType: String, payloadJSON: [UInt8], changedPaths: [JSONPointer]) {
        self.actionType = actionType
        self.payloadJSON = payloadJSON
        self.changedPaths = changedPaths
    }

    /// The fields of a full entry a scan asked for.
    package init(_ entry: LogEntry, fields: Fields) {
        self.init(actionType: entry.action.name, payload: entry.action.payload, changedPaths: entry.changedPaths, fields: fields)
    }

    /// The asked-for `fields` of an entry read in full.
    package init(actionType: String, payload: JSONValue, changedPaths: [JSONPointer], fields: Fields) {
        self.init(actionType: actionType,
                  payloadJSON: fields.contains(.payloadJSON) ? JSONWriter.compact(payload) : [],
                  changedPaths: fields.contains(.changedPaths) ? changedPaths : [])
    }

    /// Reads an entry line; nil when ``ParsedEntry`` rejects it.
    init?(line: UnsafeBufferPointer<UInt8>, fields: Fields) {
        do {
            if let light = try Self.readLightly(line, fields: fields) {
                self = light
                return
            }
        } catch {
            return nil
        }
        // Something the light reading does not judge (an invalid or unusual
        // record): read it the way entry(at:) does, whose verdict counts.
        guard let parsed = try? ParsedEntry(line: line, index: 0, lineNumber: 0) else { return nil }
        self.init(parsed.entry, fields: fields)
    }

    /// The checks of ``ParsedEntry``, made by skimming (``JSONSkimmer``) what
    /// it parses and does not keep. Nil when skimming cannot decide.
    static func readLightly(_ line: UnsafeBufferPointer<UInt8>, fields: Fields) throws(LogRecordError) -> ScannedEntry? {
        let record = try EntryRecord(line)
        guard let sequence = record.member("seq") else { throw LogRecordError("entry has no \"seq\"") }
        guard isSmallInteger(record.bytes(of: sequence)), let action = record.member("action"),
              let (actionType, payload) = skimAction(record.bytes(of: action)) else { return nil }
        var changedPaths: [JSONPointer] = []
        if record.member("state") != nil {
            changedPaths = try record.keyframeChangedPaths()
        } else if let patch = record.member("patch") {
            guard let paths = PatchPaths.read(record.bytes(of: patch), makingPointers: fields.contains(.changedPaths)) else { return nil }
            changedPaths = paths
        } else {
            throw EntryRecord.neitherStateNorPatch
        }
        for key in ["time", "durationNs", "effectOf"] {
            if let member = record.member(key), !JSONSkimmer.isValid(record.bytes(of: member)) { return nil }
        }
        var payloadJSON: [UInt8] = []
        if fields.contains(.payloadJSON) {
            if payload.isCompactAsWritten {
                payloadJSON = payload.bytes.map { Array($0) } ?? Array("null".utf8)
            } else {
                // Spaces, escapes or decimals: write it as the timeline would.
                guard let bytes = payload.bytes, let value = try? JSONParser.parse(buffer: bytes) else { return nil }
                payloadJSON = JSONWriter.compact(value)
            }
        }
        return ScannedEntry(actionType: actionType, payloadJSON: payloadJSON,
                            changedPaths: fields.contains(.changedPaths) ? changedPaths : [])
    }

    /// The action's type and payload bytes (nil when it has none, which reads
    /// as null), when the whole action would parse and its keys are plain; nil otherwise.
    private static func skimAction(_ bytes: UnsafeBufferPointer<UInt8>)
        -> (type: String, payload: (bytes: UnsafeBufferPointer<UInt8>?, isCompactAsWritten: Bool))? {
        guard let members = PatchPaths.plainMembers(bytes) else { return nil }
        var type: String?
        var payload: (bytes: UnsafeBufferPointer<UInt8>?, isCompactAsWritten: Bool) = (nil, true)
        for member in members {
            let value = UnsafeBufferPointer(rebasing: bytes[member.value])
            switch member.key {
            case "type":
                guard let text = PatchPaths.plainString(value) else { return nil }
                type = text
            case "payload":
                var skimmer = JSONSkimmer(value)
                guard skimmer.skipValue(depth: 1), skimmer.position == value.count else { return nil }
                payload = (value, skimmer.isCompactAsWritten)
            default:
                guard JSONSkimmer.isValid(value) else { return nil }
            }
        }
        guard let type else { return nil }
        return (type, payload)
    }

    /// An integer the parser reads as one (so `int64Value` is not nil).
    private static func isSmallInteger(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var skimmer = JSONSkimmer(bytes)
        guard let first = bytes.first, first == UInt8(ascii: "-") || (first >= 0x30 && first <= 0x39) else { return false }
        return skimmer.skipValue(depth: 0) && skimmer.position == bytes.count
            && !bytes.contains(UInt8(ascii: ".")) && !bytes.contains(UInt8(ascii: "e")) && !bytes.contains(UInt8(ascii: "E"))
    }
}

extension EntryRecord {
    func bytes(of member: RecordScanner.Member) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: line[member.value])
    }
}

/// The `path` of each operation of a JSON Patch, read without building the
/// patch: values are skimmed (``JSONSkimmer``), not parsed, and pointers only
/// checked unless asked for.
///
/// Returns a result only when `JSONPatch(jsonValue:)` on the parsed bytes would
/// certainly accept them; nil for anything invalid or unusual (escaped or
/// repeated keys, deep nesting), which the caller then reads in full.
enum PatchPaths {
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, makingPointers: Bool) -> [JSONPointer]? {
        guard let operations = RecordScanner.elements(bytes) else { return nil }
        var paths: [JSONPointer] = []
        if makingPointers { paths.reserveCapacity(operations.count) }
        for range in operations {
            let operation = UnsafeBufferPointer(rebasing: bytes[range])
            guard let members = plainMembers(operation) else { return nil }
            var op: String?, path: String?, from: String?, hasValue = false
            for member in members {
                let value = UnsafeBufferPointer(rebasing: operation[member.value])
                switch member.key {
                case "op": op = plainString(value)
                case "path": path = plainString(value)
                case "from": from = plainString(value)
                default:
                    guard JSONSkimmer.isValid(value) else { return nil }
                    if member.key == "value" { hasValue = true }
                }
            }
            guard let op, let path, isPointer(path) else { return nil }
            switch op {
            case "add", "replace", "test": guard hasValue else { return nil }
            case "move", "copy": guard let from, isPointer(from) else { return nil }
            case "remove": break
            default: return nil
            }
            if makingPointers {
                guard let pointer = try? JSONPointer(parsing: path) else { return nil }
                paths.append(pointer)
            }
        }
        return paths
    }

    /// The members of an object whose keys are plain (printable ASCII without
    /// escapes, so the raw bytes are the key the parser reads) and not repeated.
    static func plainMembers(_ bytes: UnsafeBufferPointer<UInt8>) -> [RecordScanner.Member]? {
        guard let members = RecordScanner.members(bytes) else { return nil }
        for (position, member) in members.enumerated() {
            guard member.key.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") }),
                  !members[..<position].contains(where: { $0.key == member.key }) else { return nil }
        }
        return members
    }

    /// A string value without escapes (the common case), nil for anything else.
    static func plainString(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard bytes.first == UInt8(ascii: "\"") else { return nil }
        var skimmer = JSONSkimmer(bytes)
        guard skimmer.skipString(), skimmer.position == bytes.count, skimmer.isCompactAsWritten else { return nil }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[1..<(bytes.count - 1)]), as: UTF8.self)
    }

    /// What `JSONPointer(parsing:)` accepts, decided from the bytes when they are ASCII.
    private static func isPointer(_ text: String) -> Bool {
        let utf8 = text.utf8
        guard utf8.allSatisfy({ $0 < 0x80 }) else { return (try? JSONPointer(parsing: text)) != nil }
        guard let first = utf8.first else { return true }
        guard first == UInt8(ascii: "/") else { return false }
        var afterTilde = false
        for byte in utf8 {
            if afterTilde {
                guard byte == UInt8(ascii: "0") || byte == UInt8(ascii: "1") else { return false }
                afterTilde = false
            } else if byte == UInt8(ascii: "~") {
                afterTilde = true
            }
        }
        return !afterTilde
    }
}
