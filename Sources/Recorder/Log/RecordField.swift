import Foundation

/// The members of Rewind's entry and gap records (docs/FORMAT.md, "Entry" and
/// "Gap"), named once for every writer and reader: the recorder's writer,
/// ``LogBuilder`` (exports, imports, saved branches), the live stream's
/// backlog, the index and the readers of an entry (``ParsedEntry``, the reference;
/// ``StateStep``; RewindQuery's `EntryAsWritten`, the fast path made from ``entryOrder``).
///
/// Readers find a member's field with ``init(key:)`` and switch on it, rather
/// than comparing key strings one by one; writers put ``memberPrefix`` (`,"key":`)
/// before each value, in ``entryOrder`` (or ``gapOrder``).
package enum RecordField: Int, CaseIterable, Sendable {
    // Every record.
    /// `"kind"`: the record's kind, its first member; an entry that holds a patch leaves it
    /// out (format 3) and starts with `seq` instead (docs/FORMAT.md, "Records").
    case kind
    /// `"n"`: the record's number in its session (format 2), written by ``LogLine/seal(_:recordStart:chain:)``.
    case number
    /// `"crc"`: the record's checksum, always its last member.
    case checksum

    // Entries.
    /// `true` on keyframes, right after `kind`, so the index knows them from the prefix.
    case keyframe
    /// `"seq"`: the order in which the reducer ran, from 0 in each session.
    case sequence
    /// Wall-clock seconds since 1970 when the reducer returned.
    case time
    /// `"t"`: the same time as microseconds after the session header's `created` (format 3's
    /// patch entries, where it takes the place of `time`: ten bytes an entry less).
    case timeSinceStart
    /// `"durationNs"`: how long the reducer took.
    case durationNanoseconds
    /// `{"type":…,"payload":…}`, and `"replayable":false` when it is not (``ActionField``).
    case action
    /// The sequence number of the entry whose effect sent this action.
    case effectOf
    /// The outside values the reducer read through `Recorded`.
    case values
    /// Where the action was dispatched.
    case trace
    /// `"payloadDates"`: where the action's payload holds `Date`s, as JSON Pointer patterns
    /// (`["/tick/_0"]`, `*` for any array index or dictionary key), so readers show them as dates.
    case payloadDates
    /// A keyframe's list of the paths the action changed.
    case changed
    /// A keyframe's whole state.
    case state
    /// The RFC 6902 patch from the previous entry's state.
    case patch
    /// `true` on an imported action Redux DevTools had skipped (its state is the one before it).
    case skipped
    /// The error an imported Redux DevTools action's reducer threw.
    case reducerError

    // Gaps.
    /// `"firstSeq"`: the sequence number of the first missing entry.
    case firstSequence
    /// How many entries are missing.
    case dropped
    /// Why they are missing.
    case reason

    /// The member's key, as written.
    package var key: StaticString {
        switch self {
        case .kind: "kind"
        case .number: "n"
        case .checksum: "crc"
        case .keyframe: "keyframe"
        case .sequence: "seq"
        case .time: "time"
        case .timeSinceStart: "t"
        case .durationNanoseconds: "durationNs"
        case .action: "action"
        case .effectOf: "effectOf"
        case .values: "values"
        case .trace: "trace"
        case .payloadDates: "payloadDates"
        case .changed: "changed"
        case .state: "state"
        case .patch: "patch"
        case .skipped: "skipped"
        case .reducerError: "reducerError"
        case .firstSequence: "firstSeq"
        case .dropped: "dropped"
        case .reason: "reason"
        }
    }

    /// The members of an entry record, in the order ``RecordEncoder`` writes them:
    /// the one definition of that order. The encoder writes by it, and the reader
    /// that matches records as written (RewindQuery's `EntryAsWritten`) is made
    /// from it. A keyframe has `kind`, `time`, `changed` and `state`; any other entry
    /// leaves out `kind`, has `t` for `time` and a `patch`; `number` and `checksum` are
    /// the framing ``LogLine`` seals every record with.
    /// `RecordDefinitionTests` fails when a member is added to `RecordField` without
    /// its place here (or in ``gapOrder``).
    package static let entryOrder: [RecordField] = [
        .kind, .keyframe, .sequence, .time, .timeSinceStart, .durationNanoseconds, .action, .effectOf, .values, .trace, .payloadDates,
        .changed, .state, .patch, .skipped, .reducerError, .number, .checksum,
    ]

    /// The members of a gap record, in the order ``RecordEncoder`` writes them.
    package static let gapOrder: [RecordField] = [.kind, .firstSequence, .dropped, .reason, .number, .checksum]

    /// The key as a `String`, for readers of parsed records.
    package var name: String { key.description }

    /// `,"key":`: what a writer puts before the member's value.
    package var memberPrefix: [UInt8] { Self.memberPrefixes[rawValue] }

    private static let memberPrefixes: [[UInt8]] = allCases.map { Array(",\"\($0.name)\":".utf8) }

    /// The field whose key is `key` (the bytes between the quotes, unescaped);
    /// nil for members this version does not know, which readers skip.
    package init?(key: UnsafeBufferPointer<UInt8>) {
        guard let field = Self.byLength[min(key.count, Self.byLength.count - 1)].first(where: { key.equals($0.key) }) else {
            return nil
        }
        self = field
    }

    /// The fields by key length, so a lookup compares one or two keys.
    private static let byLength: [[RecordField]] = {
        var table = [[RecordField]](repeating: [], count: 16)
        for field in allCases { table[field.key.utf8CodeUnitCount].append(field) }
        return table
    }()
}

/// The members of an entry's `action` object.
package enum ActionField: Int, CaseIterable, Sendable {
    /// The enum case path (`cart.checkout`) or the type name.
    case type
    /// The action as JSON.
    case payload
    /// False when the payload does not decode back into the action (a reflection dump);
    /// written only then: absent means true.
    case replayable

    package var key: StaticString {
        switch self {
        case .type: "type"
        case .payload: "payload"
        case .replayable: "replayable"
        }
    }

    package var name: String { key.description }

    /// `,"key":`: what a writer puts before the member's value (the first, `type`, opens the object instead).
    package var memberPrefix: [UInt8] { Self.memberPrefixes[rawValue] }

    private static let memberPrefixes: [[UInt8]] = allCases.map { Array(",\"\($0.name)\":".utf8) }

    package init?(key: UnsafeBufferPointer<UInt8>) {
        guard let field = Self.allCases.first(where: { key.equals($0.key) }) else { return nil }
        self = field
    }
}

/// A set of record fields: which members a reader has seen.
package struct RecordFields: OptionSet, Sendable {
    package let rawValue: UInt32
    package init(rawValue: UInt32) { self.rawValue = rawValue }
    package init(_ field: RecordField) { rawValue = 1 << UInt32(field.rawValue) }
    /// The members named.
    @inlinable package init(_ fields: RecordField...) { rawValue = fields.reduce(0) { $0 | 1 << UInt32($1.rawValue) } }

    /// Adds `field`; false when it was already there (a repeated member).
    package mutating func insertFirst(_ field: RecordField) -> Bool {
        insert(RecordFields(field)).inserted
    }

    package func contains(_ field: RecordField) -> Bool { contains(RecordFields(field)) }
}

// Inlinable: the record readers of RewindQuery match every record's members with these.
extension UnsafeBufferPointer<UInt8> {
    /// True when these are the bytes of `text`.
    @inlinable package func equals(_ text: StaticString) -> Bool {
        guard count == text.utf8CodeUnitCount else { return false }
        return count == 0 || memcmp(baseAddress!, text.utf8Start, count) == 0
    }

    /// True when the bytes of `text` come at `position` (the record readers' "as written" matching).
    @inlinable package func hasPrefix(_ text: StaticString, at position: Int) -> Bool {
        let length = text.utf8CodeUnitCount
        guard position >= 0, position + length <= count else { return false }
        return length == 0 || memcmp(baseAddress! + position, text.utf8Start, length) == 0
    }
}
