import Foundation
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
        guard let written = EntryAsWritten.read(line, trackingCompactness: fields.contains(.payloadJSON), pointers: &pointers) else {
            // Not as a recorder writes it: the reference reads it, and its verdict counts.
            guard let parsed = try? ParsedEntry(line: line, index: 0, lineNumber: 0, sessionStart: nil) else { return nil }
            self.init(parsed.entry, fields: fields)
            return
        }
        var changedPaths: [JSONPointer] = []
        switch written.body {
        case .keyframe(let changed, _):
            // Checked by the template: the parser accepts it.
            if fields.contains(.changedPaths) { changedPaths = EntryRecord.pointers(in: try? JSONParser.parse(buffer: changed)) }
        case .patch(let bytes, let asWritten):
            guard let patch = asWritten ?? Self.referencePatch(bytes) else { return nil }
            if fields.contains(.changedPaths) { changedPaths = patch.operations.map(\.path) }
        }
        var payloadJSON: [UInt8] = []
        if fields.contains(.payloadJSON) {
            guard let compact = Self.compactPayload(written.payload, isCompact: written.payloadIsCompact) else { return nil }
            payloadJSON = compact
        }
        self.init(actionType: pointers.actionType(written.actionType), payloadJSON: payloadJSON, changedPaths: changedPaths)
    }

    /// Reads an entry from the first bytes of its line (`start`; the line may go on past
    /// them) when what `fields` asks for is all before its state or patch
    /// (``EntryAsWritten/readHead(_:trackingCompactness:)``): nil when it is not, and the
    /// caller reads the whole line. For lines far longer than their head: a keyframe's 30 MB state
    /// is neither read from the file nor skimmed for the action type above it.
    init?(head start: UnsafeBufferPointer<UInt8>, fields: Fields, pointers: inout PathPointerCache) {
        guard let head = EntryAsWritten.readHead(start, trackingCompactness: fields.contains(.payloadJSON)) else { return nil }
        var changedPaths: [JSONPointer] = []
        if fields.contains(.changedPaths) {
            // A patch's paths are in the patch, after the head.
            guard let changed = head.keyframeChanged else { return nil }
            changedPaths = EntryRecord.pointers(in: try? JSONParser.parse(buffer: changed))
        }
        var payloadJSON: [UInt8] = []
        if fields.contains(.payloadJSON) {
            guard let compact = Self.compactPayload(head.payload, isCompact: head.payloadIsCompact) else { return nil }
            payloadJSON = compact
        }
        self.init(actionType: pointers.actionType(head.actionType), payloadJSON: payloadJSON, changedPaths: changedPaths)
    }

    /// The payload as `JSONWriter.compact` writes it: its bytes when they already are; nil when it does not parse.
    private static func compactPayload(_ payload: UnsafeBufferPointer<UInt8>, isCompact: Bool) -> [UInt8]? {
        if isCompact { return Array(payload) }
        // Spaces, escapes or decimals: written as the timeline would (checked by the template: it parses).
        guard let value = try? JSONParser.parse(buffer: payload) else { return nil }
        return JSONWriter.compact(value)
    }

    /// An entry's patch as ``ParsedEntry`` reads it, where it is not as a recorder
    /// writes it: the reference; nil when that rejects it (so does `ParsedEntry`,
    /// whose other members the template checked).
    static func referencePatch(_ bytes: UnsafeBufferPointer<UInt8>) -> JSONPatch? {
        (try? JSONParser.parse(buffer: bytes)).flatMap { try? JSONPatch(jsonValue: $0) }
    }
}
