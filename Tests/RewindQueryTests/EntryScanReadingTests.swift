import Foundation
import Testing
@testable import Recorder
import RewindJSON
@testable import RewindQuery

/// `LogReader.scanEntries` (one read per run of records, light parsing) must
/// find exactly what `entry(at:)` finds, one entry at a time: the same action
/// types, payloads and changed paths, and the same entries unreadable.
@Suite struct EntryScanReadingTests {
    static let allFields: ScannedEntry.Fields = [.payloadJSON, .changedPaths]

    /// What `entry(at:)` says, in the scan's terms (nil when it throws).
    static func perEntry(_ reader: LogReader, _ index: Int, fields: ScannedEntry.Fields = allFields) -> ScannedEntry? {
        (try? reader.entry(at: index)).map { ScannedEntry($0, fields: fields) }
    }

    static func scanned(_ reader: LogReader, _ indices: [Int], fields: ScannedEntry.Fields = allFields) -> [ScannedEntry?] {
        var found: [ScannedEntry?] = []
        reader.scanEntries(indices, fields: fields) { index, entry in
            #expect(index == indices[found.count])
            found.append(entry)
            return true
        }
        return found
    }

    /// Records written by hand: what a recorder writes, and what only a broken
    /// or foreign writer would (each with a valid checksum, so only parsing judges it).
    static let records: [(text: String, readable: Bool)] = [
        (#"{"kind":"entry","keyframe":true,"seq":0,"time":1764400000.5,"durationNs":1000,"action":{"type":"todo/add","payload":{"add":{"title":"Buy milk"}},"replayable":true},"state":{"todos":[{"title":"Buy milk"}]},"changed":["/todos/0","not a pointer","/a~1b"]"#, true),
        (#"{"kind":"entry","seq":1,"time":1764400001,"durationNs":900,"action":{"type":"todo/toggle","payload":{"toggle":{"id":0}},"replayable":true},"patch":[{"op":"replace","path":"/todos/0/done","value":true},{"op":"add","path":"/todos/-","value":{"title":"x","tags":["a",{"b":null}]}}]"#, true),
        (#"{"kind":"entry","seq":2,"time":1764400002,"durationNs":900,"action":{"type":"todo/move","payload":null},"effectOf":1,"patch":[{"op":"move","from":"/a","path":"/b"},{"op":"copy","from":"/b","path":"/c~0d"},{"op":"remove","path":"/c"},{"op":"test","path":"/b","value":-0.5e3}]"#, true),
        // A payload that is not compact as written: spaces, escapes, decimals, -0, a repeated key, wide characters.
        (#"{"kind":"entry","seq":3,"time":1764400003,"durationNs":1,"action":{"type":"label/set","payload":{ "text" : "caf\u00e9 \"quoted\" \/", "n": 1.50, "n": -0, "wide":"日本語", "big":12345678901234567890}},"patch":[]"#, true),
        (#"{"kind":"entry","seq":4,"time":"noon","action":{"type":"no/payload"},"patch":[{"op":"remove","path":""}]"#, true),
        // Escaped keys and strings where the light reading looks: the full reading decides.
        (#"{"kind":"entry","seq":5,"time":1764400005,"action":{"type":"todo\/escaped","payload":{}},"patch":[{"op":"re\u0070lace","p\u0061th":"/todos/0","value":1}]"#, true),
        (#"{"kind":"entry","seq":6,"time":1764400006,"action":{"type":"todo/add","payload":{"add":{"title":"Deep"}}},"patch":[{"op":"add","path":"/deep","value":"# + String(repeating: "[", count: 300) + String(repeating: "]", count: 300) + "}]", true),
        (#"{"kind":"entry","seq":7.0,"time":1e400,"action":{"type":"odd/numbers","payload":[1e400,0.1,123456789012345678901]},"patch":[{"op":"add","path":"/n","value":1E+2}]"#, true),
        // Unreadable: both readings must reject these.
        (#"{"kind":"entry","seq":8,"action":{"type":"op/unknown"},"patch":[{"op":"frobnicate","path":"/a"}]"#, false),
        (#"{"kind":"entry","seq":9,"action":{"type":"pointer/bad"},"patch":[{"op":"remove","path":"a/b"}]"#, false),
        (#"{"kind":"entry","seq":10,"action":{"type":"pointer/bad-escape"},"patch":[{"op":"remove","path":"/a~2"}]"#, false),
        (#"{"kind":"entry","seq":11,"action":{"type":"value/invalid"},"patch":[{"op":"add","path":"/a","value":tru}]"#, false),
        (#"{"kind":"entry","seq":12,"action":{"type":"value/missing"},"patch":[{"op":"add","path":"/a"}]"#, false),
        (#"{"kind":"entry","seq":13,"action":{"type":"from/missing"},"patch":[{"op":"move","path":"/a"}]"#, false),
        (#"{"kind":"entry","action":{"type":"seq/missing"},"patch":[]"#, false),
        (#"{"kind":"entry","seq":15,"action":{"payload":1},"patch":[]"#, false),
        (#"{"kind":"entry","seq":16,"action":{"type":"payload/lone-surrogate","payload":"\ud800"},"patch":[]"#, false),
        (#"{"kind":"entry","seq":17,"action":{"type":"payload/leading-zero","payload":012},"patch":[]"#, false),
        (#"{"kind":"entry","seq":18,"action":{"type":"neither"}"#, false),
        (#"{"kind":"entry","seq":19,"time":01,"action":{"type":"time/invalid"},"patch":[]"#, false),
        (#"{"kind":"entry","seq":20,"action":{"type":"too/deep"},"patch":[{"op":"add","path":"/deep","value":"# + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "}]", false),
        (#"{"kind":"entry","seq":21,"action":{"type":"patch/not-an-array"},"patch":{"op":"remove","path":"/a"}"#, false),
        (#"{"kind":"entry","seq":22,"action":{"type":"patch/trailing-comma"},"patch":[{"op":"remove","path":"/a"},]"#, false),
    ]

    static func writeLog(in directory: TemporaryDirectory) -> String {
        var bytes: [UInt8] = []
        func append(_ text: [UInt8]) {
            let start = bytes.count
            bytes += text
            LogLine.seal(&bytes, recordStart: start)
        }
        append(Array(#"{"kind":"header","format":"rewind","version":1,"created":1764400000,"process":"test","stateType":"S","actionType":"A","keyframeInterval":4,"options":{},"metadata":{}"#.utf8))
        for (position, record) in records.enumerated() {
            append(Array(record.text.utf8))
            if position == 2 {
                // A damaged line (its checksum fails) and a gap record between entries.
                let damagedStart = bytes.count
                append(Array(#"{"kind":"entry","seq":99,"action":{"type":"damaged"},"patch":[]"#.utf8))
                bytes[damagedStart + 30] ^= 0x01
                append(Array(#"{"kind":"gap","firstSeq":3,"dropped":2"#.utf8))
            }
        }
        // Invalid UTF-8 in a payload string, checksum valid.
        append(Array(#"{"kind":"entry","seq":23,"action":{"type":"payload/bad-utf8","payload":"a"#.utf8) + [0xC3, 0x28] + Array(#""},"patch":[]"#.utf8))
        // Two bytes that are not UTF-8 inside a long string (the skimmer checks 16 bytes at a time).
        append(Array(#"{"kind":"entry","seq":24,"action":{"type":"payload/bad-utf8-long","payload":"0123456789"#.utf8) + [0xFF, 0xFF] + Array(#"abcdefghijklmnop"},"patch":[]"#.utf8))
        let path = directory.file("scan.jsonl")
        writeBytes(bytes, to: path)
        return path
    }

    @Test func scanningFindsWhatReadingEachEntryFinds() throws {
        let directory = TemporaryDirectory()
        let reader = try LogReader(path: Self.writeLog(in: directory))
        #expect(reader.damage.count == 1)
        #expect(reader.gaps.count == 1)
        let expectedReadable = Self.records.map(\.readable) + [false, false]
        #expect(reader.entryCount == expectedReadable.count)

        let all = Array(0..<reader.entryCount)
        let perEntry = all.map { Self.perEntry(reader, $0) }
        // The test means something only if the per-entry reading agrees with the table.
        #expect(perEntry.map { $0 != nil } == expectedReadable)
        #expect(perEntry[0]?.changedPaths.map(\.description) == ["/todos/0", "/a~1b"])
        #expect(perEntry[2]?.changedPaths.map(\.description) == ["/b", "/c~0d", "/c", "/b"])
        #expect(perEntry[3].map { String(decoding: $0.payloadJSON, as: UTF8.self) }?.hasPrefix(#"{"text":"café \"quoted\" /","n":-0,"wide":"日本語","big":"#) == true)  // -0 stays -0
        #expect(perEntry[5]?.actionType == "todo/escaped")

        #expect(Self.scanned(reader, all) == perEntry)
        // Other orders and sparse runs (a backward search, a filtered timeline), and indexes out of range.
        let backward = Array(all.reversed())
        #expect(Self.scanned(reader, backward) == backward.map { perEntry[$0] })
        let sparse = [7, 0, 23, 3, -1, 5, 24, reader.entryCount]
        #expect(Self.scanned(reader, sparse) == sparse.map { perEntry.indices.contains($0) ? perEntry[$0] : nil })
        // Asking for less gives the type alone, for the same entries.
        for fields: ScannedEntry.Fields in [[], .payloadJSON, .changedPaths] {
            #expect(Self.scanned(reader, all, fields: fields) == all.map { Self.perEntry(reader, $0, fields: fields) })
        }
    }

    /// A line far longer than an entry's head (a keyframe of a huge state, a huge patch) is
    /// read from its first bytes when what the scan asks for is there, and whole otherwise
    /// (a patch's paths, a payload longer than the head): the same answers either way.
    @Test func aLongLineIsScannedFromItsHead() throws {
        let directory = TemporaryDirectory()
        let list = "[" + (0..<40_000).map(String.init).joined(separator: ",") + "]"
        #expect(list.utf8.count > 3 * LogReader.entryHeadBytes)
        let records = [
            #"{"kind":"entry","keyframe":true,"seq":0,"time":1764400000,"durationNs":10,"action":{"type":"list/load","payload":{"count":40000}},"changed":["/list"],"state":{"list":"# + list + "}",
            #"{"kind":"entry","seq":1,"time":1764400001,"durationNs":10,"action":{"type":"list/replace","payload":{ "spaced" : 1.50 }},"patch":[{"op":"replace","path":"/list","value":"# + list + "}]",
            #"{"kind":"entry","keyframe":true,"seq":2,"time":1764400002,"durationNs":10,"action":{"type":"list/set","payload":"# + list + #"},"changed":["/list"],"state":{"list":"# + list + "}",
            #"{"kind":"entry","seq":3,"time":1764400003,"durationNs":10,"action":{"type":"list/clear","payload":null},"patch":[{"op":"replace","path":"/list","value":[]}]"#,
        ]
        var bytes: [UInt8] = []
        for record in [#"{"kind":"header","format":"rewind","version":1,"created":1764400000,"process":"test","stateType":"S","actionType":"A","keyframeInterval":4,"options":{},"metadata":{}"#] + records {
            let start = bytes.count
            bytes += Array(record.utf8)
            LogLine.seal(&bytes, recordStart: start)
        }
        let path = directory.file("long.jsonl")
        writeBytes(bytes, to: path)
        let reader = try LogReader(path: path)
        let all = Array(0..<reader.entryCount)
        #expect(all.count == 4)
        for fields: ScannedEntry.Fields in [[], .payloadJSON, .changedPaths, Self.allFields] {
            let perEntry = all.map { Self.perEntry(reader, $0, fields: fields) }
            #expect(perEntry.allSatisfy { $0 != nil })
            #expect(Self.scanned(reader, all, fields: fields) == perEntry)
        }

        // The keyframe's state is not read for its action type: bytes of it that no longer even
        // end (changed after indexing, which checked the line) do not keep the scan from the type,
        // where reading the whole line finds it unreadable.
        let handle = try #require(FileHandle(forWritingAtPath: path))
        let marker = Array(#""state":"#.utf8)
        let stateOffset = try #require((0...(bytes.count - marker.count)).first { bytes[$0..<($0 + marker.count)].elementsEqual(marker) })
        try handle.seek(toOffset: UInt64(stateOffset + 50_000))
        try handle.write(contentsOf: Data(repeating: UInt8(ascii: "["), count: 1_000))
        try handle.close()
        #expect((try? reader.entry(at: 0)) == nil)
        #expect(Self.scanned(reader, [0], fields: [.payloadJSON, .changedPaths]).first??.actionType == "list/load")
        #expect(Self.scanned(reader, [0], fields: [.payloadJSON, .changedPaths]).first??.changedPaths.map(\.description) == ["/list"])
    }

    @Test func aRecordedLogScansLikeItReads() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("todos.jsonl")
        try RecordedTodoLog.write(count: 300, seed: 11, keyframeInterval: 7, to: path)
        let reader = try LogReader(path: path)
        let all = Array(0..<reader.entryCount)
        let perEntry = all.map { Self.perEntry(reader, $0) }
        #expect(perEntry.allSatisfy { $0 != nil })
        #expect(Set(perEntry.compactMap { $0?.actionType }).count > 3)
        #expect(Self.scanned(reader, all) == perEntry)
    }

    /// The speed comes from reading records as written: what a recorder writes
    /// (format 2, with `"n"`, and every optional member) must not fall back to the
    /// reference (every entry here would, if the template missed a member).
    @Test func aRecordersRecordsAreReadAsWritten() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("todos.jsonl")
        try RecordedTodoLog.write(count: 100, seed: 3, keyframeInterval: 9, to: path)
        let lines = readLines(path).dropFirst().filter { !$0.isEmpty }
        #expect(lines.count == 100)
        #expect(lines.allSatisfy { $0.contains(#","n":"#) }, "format 2")
        var keyframes = 0, patchesAsWritten = 0
        var pointers = PathPointerCache()
        for line in lines {
            let bytes = Array(line.utf8)
            let written = bytes.withUnsafeBufferPointer { EntryAsWritten.read($0, trackingCompactness: true, pointers: &pointers) }
            #expect(written != nil, "\(line)")
            switch written?.body {
            case .keyframe?: keyframes += 1
            // Read in the same pass as the rest of the record, not handed on to be read again.
            case .patch(_, .some)?: patchesAsWritten += 1
            default: break
            }
        }
        #expect(keyframes > 5)
        #expect(keyframes + patchesAsWritten == lines.count)
        // `replayable`, written only when false; older recorders wrote `true` on every action.
        for member in [#","replayable":false"#, #","replayable":true"#] {
            let line = lines.first { $0.contains(#"}},"patch""#) }!.replacingOccurrences(of: #"}},"patch""#, with: "}\(member)},\"patch\"")
            #expect(line.contains(member))
            #expect(Array(line.utf8).withUnsafeBufferPointer { EntryAsWritten.read($0, trackingCompactness: false, pointers: &pointers) } != nil, "\(line)")
        }
        // Every member an entry may have, as the encoder writes them.
        for line in Self.linesWithEveryMember() {
            let written = line.withUnsafeBufferPointer { EntryAsWritten.read($0, trackingCompactness: false, pointers: &pointers) }
            #expect(written != nil, "\(String(decoding: line, as: UTF8.self))")
            if case .patch(let bytes, let asWritten)? = written?.body {
                #expect(asWritten == (try? JSONPatch(jsonValue: JSONParser.parse(buffer: bytes))))
            }
            // Its head alone, as a long line's is read: the same members, up to the state or the patch.
            let head = line.withUnsafeBufferPointer { EntryAsWritten.readHead($0, trackingCompactness: true) }
            #expect(head.map { String(decoding: $0.actionType, as: UTF8.self) } == "todo/add")
            #expect(head.map { String(decoding: $0.payload, as: UTF8.self) } == #"{"x":"é"}"#)
            if case .keyframe(let changed, _)? = written?.body {
                #expect(head?.keyframeChanged.map(Array.init) == Array(changed))
            } else {
                #expect(head != nil && head?.keyframeChanged == nil)
            }
        }
    }

    /// Entry records from the encoder with every optional member it writes, keyframe and patch, chained (format 2),
    /// before the encoder has written a header (a patch entry with `time`) and after (with `t`, format 3).
    static func linesWithEveryMember() -> [[UInt8]] {
        let state = Array(#"{"a":[1,2]}"#.utf8), payload = Array(#"{"x":"é"}"#.utf8), patch = Array(#"[{"op":"add","path":"/a/-","value":3}]"#.utf8)
        var lines: [[UInt8]] = []
        // A session's chain starts at its header: the entries after it are numbered 1, 2 (format 2).
        var chain = LogChain()
        var header = Array(#"{"kind":"header""#.utf8)
        LogLine.seal(&header, recordStart: 0, chain: &chain)
        let encoder = RecordEncoder()
        for (keyframe, afterHeader) in [(true, false), (false, false), (true, true), (false, true)] {
            if afterHeader && keyframe {
                var header: [UInt8] = []
                encoder.appendHeaderMembers(LogHeader(created: Date(timeIntervalSince1970: 1_764_400_000), processName: "test"), to: &header)
            }
            state.withUnsafeBufferPointer { state in
                payload.withUnsafeBufferPointer { payload in
                    patch.withUnsafeBufferPointer { patch in
                        var content = EntryRecordContent(
                            sequence: 7, time: 1_764_400_000.25, durationNanoseconds: 12, actionType: "todo/add", payload: payload,
                            isReplayable: true, effectOf: 6, values: ["uuid": ["x"]], trace: ["main.swift:1"],
                            body: keyframe ? .keyframe(state: state, changed: [ArraySlice("/a".utf8)]) : .patch(patch))
                        content.payloadDatePaths = ["/x"]
                        var line: [UInt8] = []
                        let start = encoder.appendEntryMembers(content, to: &line)
                        LogLine.seal(&line, recordStart: start, chain: &chain)
                        lines.append(Array(line.dropLast()))   // without the newline, as the reader hands lines over
                    }
                }
            }
        }
        return lines
    }

    /// A recorder's records are read by matching its member order; a record
    /// that differs anywhere (a byte changed, a member added where the recorder
    /// puts optional ones, or anywhere else) must still read exactly as
    /// `entry(at:)` reads it, or not at all when that fails.
    @Test(arguments: [allFields, []])
    func recordsAsARecorderWritesThemAndAnyChangeToThemReadAsTheParserReadsThem(fields: ScannedEntry.Fields) throws {
        var agreed = 0, rejected = 0
        for line in try Self.recorderLinesAndChanges() {
            var pointers = PathPointerCache()
            let scanned = line.withUnsafeBufferPointer { ScannedEntry(line: $0, fields: fields, pointers: &pointers) }
            let parsed = line.withUnsafeBufferPointer { try? ParsedEntry(line: $0, index: 0, lineNumber: 0, sessionStart: nil) }
            #expect(scanned == parsed.map { ScannedEntry($0.entry, fields: fields) }, "\(String(decoding: line, as: UTF8.self))")
            if parsed == nil { rejected += 1 } else { agreed += 1 }
        }
        #expect(agreed > 600 && rejected > 600, "both verdicts are reached (\(agreed) read, \(rejected) not)")
    }

    /// Every byte of a recorder's record changed in turn (its low bit, and its case
    /// bit): a member's name or punctuation that differs in any one byte, at any
    /// place of the bytes the template compares a word at a time, must read as
    /// `entry(at:)` reads it, never as the member the template expected.
    @Test func aRecordChangedInAnyOneByteReadsAsTheParserReadsIt() {
        var agreed = 0, rejected = 0
        for original in Self.linesWithEveryMember() {
            for position in original.indices {
                for flip: UInt8 in [0x01, 0x20] {
                    var line = original
                    line[position] ^= flip
                    var pointers = PathPointerCache()
                    let scanned = line.withUnsafeBufferPointer { ScannedEntry(line: $0, fields: Self.allFields, pointers: &pointers) }
                    let parsed = line.withUnsafeBufferPointer { try? ParsedEntry(line: $0, index: 0, lineNumber: 0, sessionStart: nil) }
                    #expect(scanned == parsed.map { ScannedEntry($0.entry, fields: Self.allFields) },
                            "byte \(position) xor \(flip): \(String(decoding: line, as: UTF8.self))")
                    if parsed == nil { rejected += 1 } else { agreed += 1 }
                }
            }
        }
        #expect(agreed > 100 && rejected > 1_000, "both verdicts are reached (\(agreed) read, \(rejected) not)")
    }

    /// A recorder's records, the same with optional members and odd values in
    /// place, and random one-byte changes of each (replaced, inserted, deleted).
    static func recorderLinesAndChanges() throws -> [[UInt8]] {
        let directory = TemporaryDirectory()
        let path = directory.file("todos.jsonl")
        try RecordedTodoLog.write(count: 60, seed: 23, keyframeInterval: 5, to: path)
        var lines = readLines(path).dropFirst().filter { !$0.isEmpty }.map { Array($0.utf8) }
        // The optional members, where the recorder writes them (after the action).
        let optional = [#","effectOf":3"#, #","values":{"uuid":["x"]}"#, #","trace":["main.swift:1"]"#,
                        #","effectOf":3,"values":{"d":[1.5]},"trace":[]"#, #","effectOf":-1.5"#, #","effectOf":"x""#]
        for (number, extra) in optional.enumerated() {
            var line = lines[number * 7 % lines.count]
            let actionEnd = line.indices.first { line[$0...].starts(with: Array(#"},"patch""#.utf8)) || line[$0...].starts(with: Array(#"},"changed""#.utf8)) }!
            line.insert(contentsOf: Array(extra.utf8), at: actionEnd + 1)
            lines.append(line)
        }
        // `replayable` as recorders write it for a reflection dump (false) and as older ones wrote it always (true).
        var withReplayable: [[UInt8]] = []
        for (number, member) in [#","replayable":false"#, #","replayable":true"#].enumerated() {
            var line = lines[number * 5 % lines.count]
            let actionEnd = line.indices.first { line[$0...].starts(with: Array(#"},"patch""#.utf8)) || line[$0...].starts(with: Array(#"},"changed""#.utf8)) }!
            line.insert(contentsOf: Array(member.utf8), at: actionEnd)
            withReplayable.append(line)
        }
        lines += withReplayable
        // Values replaced where the member order still matches: each must be judged as the parser judges it.
        let replacements: [(member: String, values: [String])] = [
            (#""seq":"#, ["1.5", #""1""#, "1e2", "-0", "-3", "123456789012345678901", "0123", "-01"]),
            (#""time":"#, ["tru", #""x""#, "1.5e400", "-", "[]", "1.5e1", "1.5e10", "12345678901234567.5", "1.", "-0.0"]),
            (#""durationNs":"#, ["-", "{}", "1.0", "null", "[1,[2,{\"a\":[]}]]", "[ 1 , 2 ]", "{\"a\" :1}"]),
            (#""replayable":"#, ["tru", "null", "\"x", "\"\\u00e9\"", "\"\\ud83d\\ude00\"", "\"\\ud83d\"", "\"\\ude00\"", "\"é\"",
                                 "\"\u{1}\"", "\"\\x\""]),
            (#""type":"#, ["1", #""a\u0041""#, #""\u00""#, #""é""#]),
        ]
        for original in lines.prefix(12) + withReplayable {
            let text = String(decoding: original, as: UTF8.self)
            for (member, values) in replacements {
                guard let range = text.range(of: member) else { continue }
                let valueEnd = text[range.upperBound...].firstIndex { $0 == "," || $0 == "}" }!
                for value in values { lines.append(Array((text[..<range.upperBound] + value + text[valueEnd...]).utf8)) }
            }
        }
        var generator = SplitMix64(seed: 77)
        let significant = Array(#"{}[],:" "#.utf8) + [UInt8(ascii: "0"), UInt8(ascii: "a"), 0x09, 0xC3, 0x80, 0xFF, 0x01, UInt8(ascii: "\\")]
        var all: [[UInt8]] = []
        for original in lines {
            all.append(original)
            for _ in 1..<25 {
                var line = original
                let position = Int(generator.next() % UInt64(line.count))
                switch generator.next() % 3 {
                case 0: line[position] = significant[Int(generator.next() % UInt64(significant.count))]
                case 1: line.insert(significant[Int(generator.next() % UInt64(significant.count))], at: position)
                default: line.remove(at: position)
                }
                all.append(line)
            }
        }
        return all
    }

    @Test func stoppingEarlyReadsNoFurther() throws {
        let directory = TemporaryDirectory()
        let reader = try LogReader(path: Self.writeLog(in: directory))
        var seen: [Int] = []
        reader.scanEntries(Array(0..<reader.entryCount), fields: []) { index, _ in
            seen.append(index)
            return index < 2
        }
        #expect(seen == [0, 1, 2])
    }
}
