import Foundation
internal import CJSONScan
import Recorder

/// Every reading job's fast path against its reference, on the same bytes
/// (docs/ARCHITECTURE.md, "Reading: one reference, one fast path"): what the
/// `fast-readers` fuzz target (the `Fuzz/` package, which sees no `package`
/// declarations: public only to it) asks of any bytes, and what the tests ask of
/// their seeds. A fast path may always decline (the reference then reads); where
/// it answers, it must answer as the reference does.
@_spi(Fuzzing) public enum FastPathAgreement {
    /// Where the fast paths and their references disagree about `bytes` (each
    /// read as an entry line, a patch, a document, a string's inside, a pointer
    /// and a checksummed buffer), one line each; empty when they agree.
    public static func disagreements(_ bytes: UnsafeBufferPointer<UInt8>) -> [String] {
        var found: [String] = []
        func check(_ agrees: Bool, _ what: @autoclosure () -> String) { if !agrees { found.append(what()) } }

        // An entry line: the template (and the patch reader) against `ParsedEntry`.
        let fields: ScannedEntry.Fields = [.payloadJSON, .changedPaths]
        var pointers = PathPointerCache()
        let scanned = ScannedEntry(line: bytes, fields: fields, pointers: &pointers)
        let parsed = try? ParsedEntry(line: bytes, index: 0, lineNumber: 0, sessionStart: nil)
        check(scanned == parsed.map { ScannedEntry($0.entry, fields: fields) }, "entry line: the scan reads \(String(describing: scanned)), the reference \(String(describing: parsed?.entry))")
        // A state scan needs the keyframe's state too, which `ParsedEntry` only delimits.
        let state = parsed?.stateRange.flatMap { try? JSONParser.parse(buffer: UnsafeBufferPointer(rebasing: bytes[$0])) }
        let referenceReadable = parsed != nil && (parsed?.stateRange == nil || state != nil)
        var record = StateRecord()
        let readable = record.read(bytes, pointers: &pointers)
        check(readable == referenceReadable, "entry line: a state scan says readable \(readable)")
        if readable, let parsed {
            check(record.patch == parsed.patch, "entry line: a state scan reads the patch \(String(describing: record.patch))")
            check(record.state == state, "entry line: a state scan reads the state \(String(describing: record.state))")
        }

        // A patch: as written against the parser and `JSONPatch(jsonValue:)`.
        let value = try? JSONParser.parse(buffer: bytes)
        if let patch = SkimmedPatch.read(bytes) {
            check(patch == value.flatMap { try? JSONPatch(jsonValue: $0) }, "patch: read as written as \(patch.jsonValue)")
        }

        // A document: the checked skim and the tape against the parser.
        if let base = bytes.baseAddress {
            var compact = false
            let end = rewind_json_skip_checked(base, bytes.count, 0, 0, &compact)
            if end >= 0 {
                let skimmed = try? JSONParser.parse(buffer: UnsafeBufferPointer(rebasing: bytes[..<end]))
                check(skimmed != nil, "checked skim: accepts \(end) bytes the parser rejects")
                if compact, let skimmed {
                    check(JSONWriter.compact(skimmed).elementsEqual(bytes[..<end]), "checked skim: calls \(end) bytes compact as written")
                }
            }
        }
        switch LazyJSONDocument.read(bytes) {
        case .lazy(let document)?:
            check(document.whole == value && value != nil, "tape: keeps a document the parser reads as \(String(describing: value))")
            if let value {
                for path in samplePaths(value) {
                    check(document.value(atTokens: path) == value.value(atTokens: path), "tape: the value at \(path)")
                }
            }
        case .parsed(let parsedValue)?:
            check(parsedValue == value, "tape: parsed as \(parsedValue)")
        case nil:
            check(value == nil, "tape: refuses a document the parser reads")
        }

        // A document held lazily (a huge state in the inspector), containers of a few bytes held as
        // their children's nodes: every answer as the parser's tree's, and the same documents refused.
        for threshold in [0, 16] {
            let node = Result { () throws(JSONParseError) in try JSONNode.reading(Array(bytes), 0..<bytes.count, containersOver: threshold) }
            switch (node, value) {
            case (.success(let node), let value?):
                if let found = node.disagreement(with: value) { check(false, "lazy node: \(found)") }
            case (.failure, nil):
                break
            case (.success, nil):
                check(false, "lazy node: reads a document the parser rejects")
            case (.failure(let error), _?):
                check(false, "lazy node: refuses a document the parser reads (\(error))")
            }
        }

        // A string's inside: the plain run and UTF-8 against their definitions.
        if let base = bytes.baseAddress {
            let fast = rewind_json_plain_run(base, bytes.count), reference = rewind_json_plain_run_reference(base, bytes.count)
            check(fast.plain == reference.plain && fast.hasHighByte == reference.hasHighByte,
                  "plain run: ends at \(fast.plain) (\(fast.hasHighByte)), the definition at \(reference.plain) (\(reference.hasHighByte))")
            let valid = rewind_json_valid_utf8(base, bytes.count)
            check(valid == String(decoding: bytes, as: UTF8.self).utf8.elementsEqual(bytes), "UTF-8: valid \(valid)")
        }

        // A pointer: split as ASCII bytes against character by character.
        let text = String(decoding: bytes, as: UTF8.self)
        if text.first == "/", let fast = JSONPointer.asciiTokens(text) {
            check(fast == (try? JSONPointer.tokens(text)), "pointer: split as bytes into \(fast)")
        }
        if let base = bytes.baseAddress, rewind_json_valid_utf8(base, bytes.count) {
            let fromBytes = JSONPointer(validUTF8: bytes)
            check(fromBytes == (try? JSONPointer(parsing: text)), "pointer: read from its bytes as \(String(describing: fromBytes))")
        }

        // CRC-32: carry-less multiplication against the tables.
        let crc = CRC32.checksum(UnsafeRawBufferPointer(bytes)), tables = CRC32.tableChecksum(UnsafeRawBufferPointer(bytes))
        check(crc == tables, "CRC-32: \(crc), the tables \(tables)")
        return found
    }

    /// Paths into `value` (every one a few levels deep, and some beside them) to look up.
    private static func samplePaths(_ value: JSONValue, under prefix: [String] = [], depth: Int = 0) -> [[String]] {
        var paths = [prefix, prefix + ["missing"], prefix + ["0"]]
        guard depth < 4 else { return paths }
        switch value {
        case .object(let object):
            for (key, member) in object.members.prefix(8) { paths += samplePaths(member, under: prefix + [key], depth: depth + 1) }
        case .array(let elements):
            for (index, element) in elements.prefix(8).enumerated() { paths += samplePaths(element, under: prefix + [String(index)], depth: depth + 1) }
        default:
            break
        }
        return paths
    }
}
