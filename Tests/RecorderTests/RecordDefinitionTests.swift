import Foundation
import Testing
@testable import Recorder

/// One definition of the log record: the recorder's writer and `LogBuilder`
/// (exports, imports, saved branches) write records through the same encoder,
/// with the same members in the same order and the same keyframe policy.
@Suite struct RecordDefinitionTests {
    /// The keys of each record line, in order, and whether it is a keyframe.
    private func shapes(_ lines: [String]) throws -> [(keys: [String], keyframe: Bool)] {
        try lines.filter { !$0.isEmpty }.map { line in
            let members = try #require(Array(line.utf8).withUnsafeBufferPointer { RecordScanner.members($0) })
            let keys = try #require(try JSONParser.parse(Array(line.utf8)).objectValue?.keys)
            return (Array(keys), members.contains { $0.field == .keyframe })
        }
    }

    @Test func aLogBuiltFromValuesHasTheRecordersMembersInTheRecordersOrder() throws {
        let directory = TemporaryDirectory()
        // Same-sized states (toggles and renames of one todo), so both writers' keyframe rules see the same sizes.
        let actions: [TodoAction] = [.add(title: "milk"), .add(title: "eggs")] + (0..<120).map { $0 % 2 == 0 ? .toggle(id: 0) : .toggle(id: 1) }
        try recordTodos(actions, to: directory.file("recorded.jsonl"), options: testOptions(keyframeInterval: 1_024))

        let reader = try LogReader(path: directory.file("recorded.jsonl"))
        var builder = LogBuilder(header: reader.header)
        for index in 0..<reader.entryCount {
            let entry = try reader.entry(at: index)
            builder.append(LogBuilder.Entry(
                sequence: entry.sequence, time: entry.time, durationNanoseconds: Int64(entry.duration * 1e9),
                action: entry.action, effectOf: entry.effectOf, state: try reader.state(at: index)))
        }
        try Data(builder.bytes).write(to: URL(fileURLWithPath: directory.file("built.jsonl")))

        let recorded = try shapes(Array(readLines(directory.file("recorded.jsonl")).dropFirst()))
        let built = try shapes(Array(readLines(directory.file("built.jsonl")).dropFirst()))
        #expect(built.count == recorded.count)
        for (index, (mine, theirs)) in zip(built, recorded).enumerated() {
            #expect(mine.keys == theirs.keys, "entry \(index): the builder writes \(mine.keys), the recorder \(theirs.keys)")
        }
        // One keyframe policy: the builder places keyframes by read-back cost, as the recorder does.
        let builtKeyframes = built.indices.filter { built[$0].keyframe }
        let recordedKeyframes = recorded.indices.filter { recorded[$0].keyframe }
        #expect(builtKeyframes.count > 1, "the builder writes keyframes after the first")
        #expect(builtKeyframes == recordedKeyframes)
        // And `rewind stats` (the index) counts them.
        let rebuilt = try LogReader(path: directory.file("built.jsonl"))
        #expect((0..<rebuilt.entryCount).filter { rebuilt.isKeyframe(at: $0) } == builtKeyframes)
    }

    @Test func everyFieldIsFoundByItsKeyAndUnknownKeysAreNot() {
        for field in RecordField.allCases {
            let found = Array(field.name.utf8).withUnsafeBufferPointer { RecordField(key: $0) }
            #expect(found == field, "\(field.name)")
            #expect(field.memberPrefix == Array(",\"\(field.name)\":".utf8))
        }
        for unknown in ["", "sequence", "Seq", "states", "patches", "x", "reducerErrors"] {
            #expect(Array(unknown.utf8).withUnsafeBufferPointer { RecordField(key: $0) } == nil, "\(unknown)")
        }
    }

    @Test func anImportsExtraMembersAreWrittenBeforeTheFramingAndReadersSkipThem() throws {
        var builder = LogBuilder(header: LogHeader(created: Date(timeIntervalSince1970: 0), processName: "test", initialState: ["n": 0]))
        builder.append(LogBuilder.Entry(time: Date(timeIntervalSince1970: 1), action: LogEntry.Action(type: "tick", payload: .null),
                                        state: ["n": 1], extra: [(.skipped, true), (.reducerError, "boom")]))
        let line = try #require(String(decoding: builder.bytes, as: UTF8.self).split(separator: "\n").last)
        let keys = try #require(try JSONParser.parse(Array(line.utf8)).objectValue?.keys)
        #expect(Array(keys.suffix(4)) == ["skipped", "reducerError", "n", "crc"])
        let directory = TemporaryDirectory()
        try Data(builder.bytes).write(to: URL(fileURLWithPath: directory.file("import.jsonl")))
        let reader = try LogReader(path: directory.file("import.jsonl"))
        #expect(try reader.entry(at: 0).action.name == "tick")
        #expect(try reader.state(at: 0) == ["n": 1])
    }

    /// The record's member order is defined once (`RecordField.entryOrder`,
    /// `gapOrder`): every member has its place there, so a member added to
    /// `RecordField` fails here until it is placed, and the readers that match
    /// records as written (made from the order) follow it.
    @Test func everyMemberHasItsPlaceInTheRecordOrder() {
        let placed = Set(RecordField.entryOrder).union(RecordField.gapOrder)
        #expect(placed == Set(RecordField.allCases), "not placed: \(Set(RecordField.allCases).subtracting(placed))")
        #expect(Set(RecordField.entryOrder).count == RecordField.entryOrder.count && Set(RecordField.gapOrder).count == RecordField.gapOrder.count)
        // Framing first and last, as the index and `LogLine` read it.
        #expect(RecordField.entryOrder.first == .kind && RecordField.entryOrder.suffix(2) == [.number, .checksum])
        #expect(RecordField.gapOrder.first == .kind && RecordField.gapOrder.suffix(2) == [.number, .checksum])
    }

    /// The encoder writes an entry with every member it knows, and a gap, in that order (sealed with `n`, format 2);
    /// an entry that holds a patch without `kind` and with `t` for `time` (format 3).
    @Test func theEncoderWritesMembersInTheRecordOrder() throws {
        let state = Array(#"{"a":1}"#.utf8), payload = Array("null".utf8), patch = Array("[]".utf8)
        var chain = LogChain()
        var lines: [[UInt8]] = []
        let encoder = RecordEncoder()
        var header: [UInt8] = []
        let headerStart = encoder.appendHeaderMembers(LogHeader(created: Date(timeIntervalSince1970: 1), processName: "test"), to: &header)
        LogLine.seal(&header, recordStart: headerStart, chain: &chain)
        for keyframe in [true, false] {
            state.withUnsafeBufferPointer { state in
                payload.withUnsafeBufferPointer { payload in
                    patch.withUnsafeBufferPointer { patch in
                        // Not replayable: `replayable` is written only then, and every member is wanted here.
                        var content = EntryRecordContent(
                            sequence: 1, time: 2, durationNanoseconds: 3, actionType: "a", payload: payload, isReplayable: false,
                            effectOf: 0, values: [:], trace: [], body: keyframe ? .keyframe(state: state, changed: []) : .patch(patch))
                        content.payloadDatePaths = ["/x"]
                        content.extra = [(.reducerError, "boom"), (.skipped, true)]
                        var line: [UInt8] = []
                        let start = encoder.appendEntryMembers(content, to: &line)
                        LogLine.seal(&line, recordStart: start, chain: &chain)
                        lines.append(line)
                    }
                }
            }
        }
        var gap: [UInt8] = []
        let gapStart = RecordEncoder().appendGapMembers(firstSequence: 3, count: 2, reason: "queue full", to: &gap)
        LogLine.seal(&gap, recordStart: gapStart, chain: &chain)
        func fields(_ line: [UInt8]) throws -> [RecordField] {
            try #require(line.dropLast().withUnsafeBufferPointer { RecordScanner.members(UnsafeBufferPointer(rebasing: $0[...])) }).compactMap(\.field)
        }
        #expect(try fields(lines[0]) == RecordField.entryOrder.filter { $0 != .timeSinceStart && $0 != .patch })
        #expect(try fields(lines[1]) == RecordField.entryOrder.filter { ![.kind, .keyframe, .time, .changed, .state].contains($0) })
        #expect(lines[1].starts(with: LogLine.patchEntryPrefix))
        // One second after the header's `created`, in microseconds.
        #expect(try JSONParser.parse(Array(lines[1].dropLast()))["t"] == 1_000_000)
        #expect(try fields(gap) == RecordField.gapOrder)
        // Inside the action object, `ActionField`'s order.
        let action = try #require(try JSONParser.parse(Array(lines[0].dropLast()))["action"]?.objectValue)
        #expect(Array(action.keys) == ActionField.allCases.map(\.name))
    }
}
