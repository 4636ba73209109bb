import Foundation
internal import CQueryScan
import Recorder

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

    /// Reads an entry line, its changed paths made through `pointers` (a scan's
    /// paths repeat: each is split into a pointer once); nil when ``ParsedEntry`` rejects it.
    init?(line: UnsafeBufferPointer<UInt8>, fields: Fields, pointers: inout PathPointerCache) {
        if let light = Self.readLightly(line, fields: fields, pointers: &pointers) {
            self = light
            return
        }
        // Something the light reading does not judge (an invalid or unusual
        // record): read it the way entry(at:) does, whose verdict counts.
        guard let parsed = try? ParsedEntry(line: line, index: 0, lineNumber: 0) else { return nil }
        self.init(parsed.entry, fields: fields)
    }

    /// The checks of ``ParsedEntry``, made in one pass over the line by
    /// skimming (``JSONSkimmer``) what it parses and does not keep; a keyframe's
    /// state is only delimited, as there. Nil when skimming cannot decide
    /// (repeated or escaped keys, anything missing or invalid).
    ///
    /// `stateMembers`, when given, receives where the `state`, `patch` and
    /// `changed` members' values are (a state scan parses them next).
    /// Changed paths are made through `pointers`.
    ///
    /// `headInC: false` reads the record's head in Swift too (for the tests that hold the two to each other).
    static func readLightly(_ line: UnsafeBufferPointer<UInt8>, fields: Fields,
                            stateMembers: UnsafeMutablePointer<StateMembers>? = nil,
                            pointers: inout PathPointerCache, headInC: Bool = true) -> ScannedEntry? {
        var skimmer = JSONSkimmer(line)
        // Whether the payload is compact as written matters only to a scan that copies it.
        skimmer.tracksCompactness = fields.contains(.payloadJSON)
        var seen = RecordFields()
        var actionType: String?
        var payload: (bytes: UnsafeBufferPointer<UInt8>?, isCompactAsWritten: Bool) = (nil, true)
        var changed: UnsafeBufferPointer<UInt8>?
        var patchPaths: [JSONPointer]?

        /// The patch member's value (at the skimmer), as the member walk reads it.
        func readPatch(_ skimmer: inout JSONSkimmer) -> Bool {
            let start = skimmer.position
            if let stateMembers, !fields.contains(.changedPaths),
               let (patch, length) = SkimmedPatch.readCheckedAsWritten(UnsafeBufferPointer(rebasing: line[start...]), pointers: &pointers) {
                // A state scan's patch as a recorder writes it: checked and built in one pass, not two.
                skimmer.position = start + length
                stateMembers.pointee.patch = UnsafeBufferPointer(rebasing: line[start..<skimmer.position])
                stateMembers.pointee.readPatch = patch
                patchPaths = []
                return true
            }
            patchPaths = PatchPaths.read(&skimmer, makingPointers: fields.contains(.changedPaths), pointers: &pointers)
            stateMembers?.pointee.patch = UnsafeBufferPointer(rebasing: line[start..<skimmer.position])
            return patchPaths != nil
        }

        // The members in the order and spelling `RecordEncoder` writes them, each value checked
        // as the walk below checks it, without finding each key's field: a scan reads every record,
        // and the walk's per-member work was a tenth of a query's time. Anything else: the walk decides.
        var asWritten = JSONSkimmer(line)
        asWritten.tracksCompactness = skimmer.tracksCompactness
        func member(_ prefix: StaticString) -> Bool {
            guard line.hasPrefix(prefix, at: asWritten.position) else { return false }
            asWritten.position += prefix.utf8CodeUnitCount
            return true
        }
        func readAsWritten() -> Bool {
            var head = rewind_record_head()
            if headInC, !asWritten.tracksCompactness, let base = line.baseAddress, rewind_record_read_head(base, line.count, &head) == 1 {
                // The head in C (`CheckedSkim.c`, the same checks): the part of every record that
                // costs most to read here. (Compactness is not tracked there: only a payload copy needs it.)
                actionType = pointers.actionType(UnsafeBufferPointer(start: base + head.type_start, count: head.type_length))
                payload = (UnsafeBufferPointer(start: base + head.payload_start, count: head.payload_length), true)
                asWritten.position = head.end
            } else if !readHeadAsWritten() {
                return false
            }
            return readRestAsWritten()
        }
        func readHeadAsWritten() -> Bool {
            // `LogLine.Kind.entry`, then what makes it `LogLine.Kind.keyframe`. (Not `a || b` anywhere
            // here: its autoclosure would capture `member`, and with it the skimmer, checked at run time.)
            guard member(LogLine.Kind.entry) else { return false }
            _ = member(#","keyframe":true"#)
            guard member(#","seq":"#), let sequence = asWritten.skimValue(depth: 0), isSmallInteger(sequence.bytes),
                  member(#","time":"#), asWritten.skimValue(depth: 0) != nil,
                  member(#","durationNs":"#), asWritten.skimValue(depth: 0) != nil,
                  member(#","action":{"type":"#), let type = asWritten.skimValue(depth: 1),
                  let typeText = JSONSkimmer.plainText(type.bytes),
                  member(#","payload":"#), let payloadValue = asWritten.skimValue(depth: 1) else { return false }
            // `replayable` is written only when false (older recorders wrote it always).
            if member(#","replayable":"#) {
                guard asWritten.skimValue(depth: 1) != nil else { return false }
            }
            guard member("}") else { return false }
            actionType = pointers.actionType(typeText)
            payload = (payloadValue.bytes, payloadValue.isCompactAsWritten)
            if member(#","effectOf":"#) {
                guard asWritten.skimValue(depth: 0) != nil else { return false }
            }
            return true
        }
        func readRestAsWritten() -> Bool {
            if member(#","values":"#) {
                guard asWritten.skipUnchecked() else { return false }
            }
            if member(#","trace":"#) {
                guard asWritten.skipUnchecked() else { return false }
            }
            if member(#","payloadDates":"#) {
                guard asWritten.skipUnchecked() else { return false }
            }
            if member(#","changed":"#) {
                guard let value = asWritten.skimValue(depth: 0), member(#","state":"#) else { return false }
                changed = value.bytes
                stateMembers?.pointee.changed = value.bytes
                let start = asWritten.position
                guard asWritten.skipUnchecked() else { return false }
                stateMembers?.pointee.state = UnsafeBufferPointer(rebasing: line[start..<asWritten.position])
                seen = RecordFields(.sequence, .action, .changed, .state)
            } else if member(#","patch":"#) {
                guard readPatch(&asWritten) else { return false }
                seen = RecordFields(.sequence, .action, .patch)
            } else {
                return false
            }
            if member(#","n":"#) {
                guard asWritten.skipUnchecked() else { return false }
            }
            guard member(#","crc":"#), asWritten.skipUnchecked(), member("}"), asWritten.position == line.count else { return false }
            return true
        }
        if readAsWritten() {
            return finish(seen: seen, actionType: actionType, payload: payload, changed: changed, patchPaths: patchPaths, fields: fields)
        }
        // Not as written: start again with the walk, from nothing.
        (seen, actionType, payload, changed, patchPaths) = (RecordFields(), nil, (nil, true), nil, nil)
        if let stateMembers { stateMembers.pointee = StateMembers() }

        let walked = skimmer.walkMembers(depth: -1) { key, skimmer in
            guard let key else { return false }
            guard let field = RecordField(key: key) else {
                // Members this version does not know are only delimited, in ParsedEntry too.
                return skimmer.skipUnchecked()
            }
            // ParsedEntry reads the first of a repeated member: leave those to it.
            switch field {
            case .sequence:
                guard seen.insertFirst(field), let value = skimmer.skimValue(depth: 0) else { return false }
                return isSmallInteger(value.bytes)
            case .action:
                guard seen.insertFirst(field) else { return false }
                return skimAction(&skimmer, type: &actionType, payload: &payload, texts: &pointers)
            case .state:
                let start = skimmer.position
                guard seen.insertFirst(field) && skimmer.skipUnchecked() else { return false }
                stateMembers?.pointee.state = UnsafeBufferPointer(rebasing: line[start..<skimmer.position])
                return true
            case .patch:
                guard seen.insertFirst(field) else { return false }
                return readPatch(&skimmer)
            case .changed:
                guard seen.insertFirst(field), let value = skimmer.skimValue(depth: 0) else { return false }
                changed = value.bytes
                stateMembers?.pointee.changed = value.bytes
                return true
            case .time, .durationNanoseconds, .effectOf:
                return seen.insertFirst(field) && skimmer.skimValue(depth: 0) != nil
            case .kind, .number, .checksum, .keyframe, .values, .trace, .payloadDates, .skipped, .reducerError,
                 .firstSequence, .dropped, .reason:
                // Members ParsedEntry does not judge (optional ones are ignored when unreadable) are only delimited there too.
                return skimmer.skipUnchecked()
            }
        }
        guard walked else { return nil }
        return finish(seen: seen, actionType: actionType, payload: payload, changed: changed, patchPaths: patchPaths, fields: fields)
    }

    /// What the members read give: the entry, or nil when one it needs is missing or unreadable.
    private static func finish(seen: RecordFields, actionType: String?, payload: (bytes: UnsafeBufferPointer<UInt8>?, isCompactAsWritten: Bool),
                               changed: UnsafeBufferPointer<UInt8>?, patchPaths: [JSONPointer]?, fields: Fields) -> ScannedEntry? {
        guard seen.contains(.sequence), let actionType else { return nil }
        var changedPaths: [JSONPointer] = []
        if seen.contains(.state) {
            // Only when asked for: `changed` was skimmed checked, so the parser accepts it.
            if fields.contains(.changedPaths) {
                guard let value = try? changed.map({ try JSONParser.parse(buffer: $0) }) ?? nil as JSONValue? else { return nil }
                changedPaths = EntryRecord.pointers(in: value)
            }
        } else if let patchPaths {
            changedPaths = patchPaths
        } else {
            return nil
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

    /// Skims the action: its type (a plain string) and payload bytes (nil when
    /// it has none, which reads as null). False when it would not parse, has no
    /// plain type, or repeats or escapes a key (the full reading settles those).
    private static func skimAction(_ skimmer: inout JSONSkimmer, type: inout String?,
                                   payload: inout (bytes: UnsafeBufferPointer<UInt8>?, isCompactAsWritten: Bool),
                                   texts: inout PathPointerCache) -> Bool {
        var seenType = false, seenPayload = false
        let valid = skimmer.skimMembers(depth: 0) { key, value, isCompact in
            guard let key else { return false }
            if key.equals(ActionField.type.key) {
                guard !seenType else { return false }
                seenType = true
                type = JSONSkimmer.plainText(value).map { texts.actionType($0) }
                return type != nil
            }
            if key.equals(ActionField.payload.key) {
                guard !seenPayload else { return false }
                seenPayload = true
                payload = (value, isCompact)
            }
            return true
        }
        return valid && type != nil
    }

    /// An integer the parser reads as one (so `int64Value` is not nil), given a
    /// value `skimValue` accepted (so a whole, valid JSON value: a number of at
    /// most 18 digits when it starts like one, no second skim needed).
    private static func isSmallInteger(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first, first == UInt8(ascii: "-") || (first >= 0x30 && first <= 0x39) else { return false }
        return !bytes.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
    }
}

/// Where ``ScannedEntry/readLightly(_:fields:stateMembers:pointers:)`` found the
/// members that hold an entry's state, for a state scan to parse.
struct StateMembers {
    var state: UnsafeBufferPointer<UInt8>?
    var patch: UnsafeBufferPointer<UInt8>?
    /// The patch, when the skim could build it while checking it (``SkimmedPatch/readCheckedAsWritten(_:pointers:)``).
    var readPatch: JSONPatch?
    var changed: UnsafeBufferPointer<UInt8>?
}

/// The `path` of each operation of a JSON Patch, read without building the
/// patch: values are skimmed (``JSONSkimmer``), not parsed, and pointers only
/// checked unless asked for.
///
/// Returns a result only when `JSONPatch(jsonValue:)` on the parsed bytes would
/// certainly accept them; nil for anything invalid or unusual (escaped or
/// repeated keys, deep nesting), which the caller then reads in full.
enum PatchPaths {
    /// Reads the patch at the skimmer's position and moves past it, its paths made through `pointers`.
    static func read(_ skimmer: inout JSONSkimmer, makingPointers: Bool, pointers: inout PathPointerCache) -> [JSONPointer]? {
        var paths: [JSONPointer] = []
        let valid = skimmer.skimElements(depth: 0) { skimmer in
            // The texts of "op", "path" and "from" (plain strings), and whether there is a "value".
            var op: UnsafeBufferPointer<UInt8>?, path: UnsafeBufferPointer<UInt8>?, from: UnsafeBufferPointer<UInt8>?
            var seen: UInt8 = 0
            let operation = skimmer.skimMembers(depth: 1) { key, value, _ in
                guard let key else { return false }
                let member: UInt8
                if key.equals("op") {
                    member = 1
                    op = JSONSkimmer.plainText(value)
                    if op == nil { return false }
                } else if key.equals("path") {
                    member = 2
                    path = JSONSkimmer.plainText(value)
                    if path == nil { return false }
                } else if key.equals("from") {
                    member = 4
                    from = JSONSkimmer.plainText(value)
                    if from == nil { return false }
                } else if key.equals("value") {
                    member = 8
                } else {
                    return true
                }
                // Repeated: the parsed object would keep the last one; leave that to the full reading.
                guard seen & member == 0 else { return false }
                seen |= member
                return true
            }
            guard operation, let op, let path, isPointer(path) else { return false }
            if op.equals("add") || op.equals("replace") || op.equals("test") {
                guard seen & 8 != 0 else { return false }
            } else if op.equals("move") || op.equals("copy") {
                guard let from, isPointer(from) else { return false }
            } else if !op.equals("remove") {
                return false
            }
            if makingPointers {
                guard let pointer = pointers.pointer(path, making: Self.pointer) else { return false }
                paths.append(pointer)
            }
            return true
        }
        return valid ? paths : nil
    }

    /// `JSONPointer(parsing:)`, without its per-character work for the plain
    /// ASCII paths recorders write.
    private static func pointer(_ text: UnsafeBufferPointer<UInt8>) -> JSONPointer? {
        guard text.allSatisfy({ $0 < 0x80 && $0 != UInt8(ascii: "~") }), text.first == UInt8(ascii: "/") else {
            return try? JSONPointer(parsing: String(decoding: text, as: UTF8.self))
        }
        return JSONPointer(tokens: text.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
            .map { String(decoding: UnsafeBufferPointer(rebasing: $0), as: UTF8.self) })
    }

    /// What `JSONPointer(parsing:)` accepts, decided from the bytes when they are ASCII.
    private static func isPointer(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard text.allSatisfy({ $0 < 0x80 }) else { return (try? JSONPointer(parsing: String(decoding: text, as: UTF8.self))) != nil }
        guard let first = text.first else { return true }
        guard first == UInt8(ascii: "/") else { return false }
        var afterTilde = false
        for byte in text {
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
