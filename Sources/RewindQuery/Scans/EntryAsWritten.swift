import Foundation
internal import CJSONScan
import Recorder

/// Reading an entry line, the fast path: the record exactly as ``RecordEncoder``
/// writes it, its members matched in ``RecordField/entryOrder`` (in C,
/// `rewind_json_read_template`: a template made here from that order, so the
/// reader follows the encoder wherever a member goes), each value checked as
/// ``ParsedEntry`` (the reference) parses it, or only delimited where that one
/// only delimits it; the patch is read where the template meets it (``SkimmedPatch``,
/// which finds its end by reading it). Nil for any other line, which the reference then reads:
/// other member orders, unknown or repeated members, escapes in the action type,
/// numbers and nesting the checked skim leaves to the parser.
///
/// Where the members' values are, for the scan to read what it needs of them.
/// `REWIND_REFERENCE_READERS=entry` turns it off. Held to the reference by
/// `EntryScanReadingTests` and the `fast-readers` fuzz target.
struct EntryAsWritten {
    var actionType: UnsafeBufferPointer<UInt8>
    var payload: UnsafeBufferPointer<UInt8>
    /// Whether the payload's bytes are what `JSONWriter.compact` writes for it (asked for only when copied).
    var payloadIsCompact: Bool
    var body: Body

    enum Body {
        /// A keyframe: its `changed` list and its state, both as bytes (the state only delimited).
        case keyframe(changed: UnsafeBufferPointer<UInt8>, state: UnsafeBufferPointer<UInt8>)
        /// Any other entry: its patch's bytes, and the patch when it is as a recorder
        /// writes it (``SkimmedPatch``, read where the template meets it); nil leaves the
        /// bytes, only delimited, to the reference.
        case patch(UnsafeBufferPointer<UInt8>, asWritten: JSONPatch?)
    }

    /// Reads `line` as written; `trackingCompactness` asks whether the payload is
    /// compact as written. The patch's paths are taken from and added to `pointers`.
    static func read(_ line: UnsafeBufferPointer<UInt8>, trackingCompactness: Bool, pointers: inout PathPointerCache) -> EntryAsWritten? {
        guard let base = line.baseAddress, !ReferenceReaders.current.contains(.entry) else { return nil }
        // On the stack: this runs once per entry of every scan.
        return withUnsafeTemporaryAllocation(of: rewind_json_span.self, capacity: Part.count) { parts in
            var compact = false
            var cursor = rewind_json_template_cursor(member: 0, position: 0)
            var patch: (bytes: UnsafeBufferPointer<UInt8>, asWritten: JSONPatch?)?
            // An entry that holds a patch starts with its `seq` (format 3); others with their kind.
            let template = line.hasPrefix(LogLine.Kind.patchEntry, at: 0) ? patchEntryTemplate : template
            while true {
                let status = template.withUnsafeBufferPointer { members in
                    rewind_json_read_template(base, line.count, members.baseAddress, members.count, &cursor, parts.baseAddress, parts.count,
                                              trackingCompactness ? Part.payload.rawValue : 0, &compact)
                }
                if status == REWIND_TEMPLATE_MATCHED { break }
                // Paused at the patch, the one member read here: reading it finds its end, where
                // delimiting it first read its bytes twice.
                guard status == REWIND_TEMPLATE_PAUSED, patch == nil else { return nil }
                patch = readPatch(line, at: cursor.position, pointers: &pointers)
                guard let patch else { return nil }
                cursor.position += patch.bytes.count
            }
            func bytes(_ part: Part) -> UnsafeBufferPointer<UInt8>? {
                let span = parts[Int(part.rawValue)]
                return span.found ? UnsafeBufferPointer(start: base + span.start, count: span.length) : nil
            }
            guard let type = bytes(.actionType), let payload = bytes(.payload) else { return nil }
            let body: Body
            switch (bytes(.changed), bytes(.state), patch) {
            case (let changed?, let state?, nil): body = .keyframe(changed: changed, state: state)
            case (nil, nil, let patch?): body = .patch(patch.bytes, asWritten: patch.asWritten)
            default: return nil   // a keyframe without its list, or both: the reference says what that is
            }
            return EntryAsWritten(actionType: UnsafeBufferPointer(rebasing: type.dropFirst().dropLast()), payload: payload,
                                  payloadIsCompact: trackingCompactness && compact, body: body)
        }
    }

    /// The members of an entry before its state or patch, as ``read(_:trackingCompactness:pointers:)``
    /// reads them: everything a scan over many entries needs but the patch's paths.
    struct Head {
        var actionType: UnsafeBufferPointer<UInt8>
        var payload: UnsafeBufferPointer<UInt8>
        var payloadIsCompact: Bool
        /// A keyframe's `changed` list; nil for an entry with a patch.
        var keyframeChanged: UnsafeBufferPointer<UInt8>?
    }

    /// Reads the head of an entry from `start`, the first bytes of its line (the line may go on
    /// past them): the members in ``RecordField/entryOrder`` up to the state or the patch, each
    /// checked as ``read(_:trackingCompactness:pointers:)`` checks it. Nil when they are not as
    /// written, or do not end within `start`: the caller then reads the whole line.
    ///
    /// What follows the head (a keyframe's state, a patch) is not looked at: a 30 MB keyframe's
    /// action type costs what a small entry's does. The line's checksum was checked when it was
    /// indexed, so only a writer that checksums JSON it got wrong makes a line whose head reads
    /// here while ``ParsedEntry`` rejects the rest.
    static func readHead(_ start: UnsafeBufferPointer<UInt8>, trackingCompactness: Bool) -> Head? {
        guard let base = start.baseAddress, !ReferenceReaders.current.contains(.entry) else { return nil }
        return withUnsafeTemporaryAllocation(of: rewind_json_span.self, capacity: Part.count) { parts in
            var compact = false
            var cursor = rewind_json_template_cursor(member: 0, position: 0)
            let headTemplate = start.hasPrefix(LogLine.Kind.patchEntry, at: 0) ? patchEntryHeadTemplate : headTemplate
            let status = headTemplate.members.withUnsafeBufferPointer { members in
                rewind_json_read_template(base, start.count, members.baseAddress, members.count, &cursor, parts.baseAddress, parts.count,
                                          trackingCompactness ? Part.payload.rawValue : 0, &compact)
            }
            guard status == REWIND_TEMPLATE_PAUSED else { return nil }
            func bytes(_ part: Part) -> UnsafeBufferPointer<UInt8>? {
                let span = parts[Int(part.rawValue)]
                return span.found ? UnsafeBufferPointer(start: base + span.start, count: span.length) : nil
            }
            guard let type = bytes(.actionType), let payload = bytes(.payload) else { return nil }
            // Paused at the state (a keyframe, which has its `changed` list) or at the patch (which has none).
            let atState = cursor.member == headTemplate.stateMember + 1
            let changed = bytes(.changed)
            guard atState == (changed != nil) else { return nil }
            return Head(actionType: UnsafeBufferPointer(rebasing: type.dropFirst().dropLast()), payload: payload,
                        payloadIsCompact: trackingCompactness && compact, keyframeChanged: changed)
        }
    }

    /// The patch at `position` of `line`: read as written, its length where it ends;
    /// else only delimited, for the reference. Nil when it does not even end.
    private static func readPatch(_ line: UnsafeBufferPointer<UInt8>, at position: Int,
                                  pointers: inout PathPointerCache) -> (bytes: UnsafeBufferPointer<UInt8>, asWritten: JSONPatch?)? {
        let rest = UnsafeBufferPointer(rebasing: line[position...])
        if let (patch, length) = SkimmedPatch.readCheckedAsWritten(rest, pointers: &pointers) {
            return (UnsafeBufferPointer(rebasing: rest[..<length]), patch)
        }
        let end = rewind_json_skip_unchecked(line.baseAddress, line.count, position)
        guard end >= 0 else { return nil }
        return (UnsafeBufferPointer(rebasing: line[position..<end]), nil)
    }

    /// The parts of a record the template tells where they are.
    private enum Part: UInt8, CaseIterable {
        case none, actionType, payload, changed, state
        static let count = allCases.count
    }

    /// What the template matches: ``RecordField/entryOrder``, each member as the
    /// reference reads it, for a record that starts with its kind. (A switch over every
    /// field: a member added to `RecordField` does not compile until it says how it is read here.)
    // Unchecked: immutable once made, and its prefixes are never written or freed.
    nonisolated(unsafe) private static let template = makeTemplate(withoutKind: false, pausingAtState: false).members
    /// The same for an entry that leaves out its kind and opens with `seq` (an entry holding a patch, format 3).
    // Unchecked: as `template`.
    nonisolated(unsafe) private static let patchEntryTemplate = makeTemplate(withoutKind: true, pausingAtState: false).members

    /// The same members, pausing at the state as at the patch: ``readHead(_:trackingCompactness:)``
    /// stops at whichever comes. `stateMember` is the state's place in `members`.
    // Unchecked: as `template`.
    nonisolated(unsafe) private static let headTemplate = makeTemplate(withoutKind: false, pausingAtState: true)
    // Unchecked: as `template`.
    nonisolated(unsafe) private static let patchEntryHeadTemplate = makeTemplate(withoutKind: true, pausingAtState: true)

    private static func makeTemplate(withoutKind: Bool, pausingAtState: Bool) -> (members: [rewind_json_template_member], stateMember: Int) {
        var members: [rewind_json_template_member] = []
        var stateMember = -1
        func member(_ prefix: [UInt8], _ value: Int, depth: UInt8 = 0, optional: Bool = false, part: Part = .none) {
            // The prefixes live as long as the process (the template is a static).
            let stored = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, prefix.count))
            _ = stored.initialize(from: prefix)
            members.append(rewind_json_template_member(prefix: UnsafePointer(stored.baseAddress), prefix_length: prefix.count,
                                                       value: UInt8(value), depth: depth, optional: optional, part: part.rawValue))
        }
        for field in RecordField.entryOrder {
            switch field {
            case .kind:
                if !withoutKind { member(Array(LogLine.Kind.entry.description.utf8), REWIND_TEMPLATE_NO_VALUE) }
            case .keyframe:
                if !withoutKind { member(field.memberPrefix + Array("true".utf8), REWIND_TEMPLATE_NO_VALUE, optional: true) }
            case .sequence:
                // `ParsedEntry` needs an integer.
                member(withoutKind ? LogLine.patchEntryPrefix : field.memberPrefix, REWIND_TEMPLATE_INTEGER)
            case .time:
                // Where an entry has `t`, it has no `time` (the reference reads either, or neither).
                member(field.memberPrefix, REWIND_TEMPLATE_CHECKED, optional: withoutKind)
            case .timeSinceStart:
                member(field.memberPrefix, REWIND_TEMPLATE_CHECKED, optional: true)
            case .durationNanoseconds:
                member(field.memberPrefix, REWIND_TEMPLATE_CHECKED)
            case .action:
                // The action object, its members in `ActionField`'s order; the type a string without escapes.
                for (position, inner) in ActionField.allCases.enumerated() {
                    let prefix = position == 0 ? field.memberPrefix + Array("{\"\(inner.name)\":".utf8) : inner.memberPrefix
                    switch inner {
                    case .type: member(prefix, REWIND_TEMPLATE_PLAIN_STRING, depth: 1, part: .actionType)
                    case .payload: member(prefix, REWIND_TEMPLATE_CHECKED, depth: 1, part: .payload)
                    // Written only when false (older recorders wrote it always).
                    case .replayable: member(prefix, REWIND_TEMPLATE_CHECKED, depth: 1, optional: true)
                    }
                }
                member(Array("}".utf8), REWIND_TEMPLATE_NO_VALUE)
            case .effectOf:
                member(field.memberPrefix, REWIND_TEMPLATE_CHECKED, optional: true)
            case .values, .trace, .payloadDates:
                // Read only when valid: delimited alone, in the reference too.
                member(field.memberPrefix, REWIND_TEMPLATE_UNCHECKED, optional: true)
            case .changed:
                member(field.memberPrefix, REWIND_TEMPLATE_CHECKED, optional: true, part: .changed)
            case .state:
                // Only delimited by the reference too (parsed when a state is asked for).
                stateMember = members.count
                member(field.memberPrefix, pausingAtState ? REWIND_TEMPLATE_CALLER : REWIND_TEMPLATE_UNCHECKED, optional: true, part: .state)
            case .patch:
                // Read by `read`, which reads the patch in place of delimiting it.
                member(field.memberPrefix, REWIND_TEMPLATE_CALLER, optional: true)
            case .skipped, .reducerError:
                // An import's: its records are read by the reference.
                break
            case .number:
                member(field.memberPrefix, REWIND_TEMPLATE_UNCHECKED, optional: true)
            case .checksum:
                member(field.memberPrefix, REWIND_TEMPLATE_UNCHECKED)
                member(Array("}".utf8), REWIND_TEMPLATE_NO_VALUE)
            case .firstSequence, .dropped, .reason:
                // A gap's, never an entry's.
                break
            }
        }
        return (members, stateMember)
    }
}
