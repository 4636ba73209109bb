import Foundation
import Testing
@testable import Recorder

/// Issue 15, points 3 and 7: damage a per-line checksum cannot see (lines
/// duplicated, swapped, deleted, spliced in from another log), and smaller holes.
@Suite struct LogIntegrityTests {
    let directory = TemporaryDirectory()

    /// A log of 16 entries with a keyframe every 4, and the state after each entry.
    func recordLog(_ name: String, seed: UInt64 = 41) throws -> (path: String, states: [JSONValue]) {
        let path = directory.file(name)
        let states = try recordTodos(randomTodoActions(count: 16, seed: seed), to: path, options: testOptions(keyframeInterval: 4))
        return (path, try states.map { try JSONEncoding.value(of: $0) })
    }

    /// Every state the reader serves is the one its entry's sequence number had when recorded.
    func expectNoWrongState(_ reader: LogReader, _ states: [JSONValue], sourceLocation: SourceLocation = #_sourceLocation) throws {
        for index in 0..<reader.entryCount {
            let sequence = Int(try reader.entry(at: index).sequence)
            if let state = try? reader.state(at: index) {
                #expect(state == states[sequence], "entry \(index) (seq \(sequence)) has a wrong state", sourceLocation: sourceLocation)
            }
        }
    }

    func rewrite(_ path: String, _ change: (inout [String]) -> Void) {
        var lines = readLines(path)
        lines.removeLast()   // after the final newline
        change(&lines)
        writeBytes(Array((lines.joined(separator: "\n") + "\n").utf8), to: path)
    }

    // MARK: 3. Duplicated, swapped, deleted and foreign lines

    @Test func aDuplicatedLineIsReportedAndSkippedAndEveryStateStaysRight() throws {
        let (path, states) = try recordLog("duplicated.jsonl")
        rewrite(path) { $0.insert($0[6], at: 7) }   // entry 5's record (a patch) twice
        let reader = try LogReader(path: path)
        #expect(reader.damage.map(\.description) == ["line 8: record 6 of this session again, after record 6 (a duplicated or moved line)"])
        #expect(reader.entryCount == 16)
        for index in 0..<16 { #expect(try reader.state(at: index) == states[index]) }
    }

    @Test func swappedLinesAreReportedAndNoWrongStateIsServed() throws {
        let (path, states) = try recordLog("swapped.jsonl")
        rewrite(path) { $0.swapAt(6, 7) }   // entries 5 and 6, both patches
        let reader = try LogReader(path: path)
        #expect(reader.damage.map(\.description) == [
            "line 7: record 6 is missing before this line (deleted or moved)",
            "line 8: record 6 of this session again, after record 7 (a duplicated or moved line)",
        ])
        try expectNoWrongState(reader, states)
        #expect(throws: LogReadError.self) { try reader.state(at: 5) }
        #expect(try reader.state(at: 8) == states[9], "states are back from the next keyframe")
    }

    @Test func aDeletedLineIsReportedWhereRecordsAreMissingAndStatesResumeAtTheNextKeyframe() throws {
        let (path, states) = try recordLog("deleted.jsonl")
        rewrite(path) { _ = $0.remove(at: 6) }   // entry 5
        let reader = try LogReader(path: path)
        #expect(reader.damage.map(\.description) == ["line 7: record 6 is missing before this line (deleted or moved)"])
        #expect(reader.entryCount == 15)
        try expectNoWrongState(reader, states)
        let unavailable = #expect(throws: LogReadError.self) { try reader.state(at: 5) }
        #expect(unavailable?.description.contains("it depends on a missing record") == true)
        #expect(try reader.state(at: 4) == states[4])
    }

    @Test func aLineSplicedInFromAnotherLogIsDamageAndItsStateIsNeverServed() throws {
        let (path, states) = try recordLog("this.jsonl", seed: 41)
        let (other, otherStates) = try recordLog("other.jsonl", seed: 42)
        #expect(states[4] != otherStates[4])
        // The other log's keyframe for entry 4, in place of this log's: same place, same number.
        let foreign = readLines(other)[5]
        rewrite(path) { $0[5] = foreign }
        let reader = try LogReader(path: path)
        #expect(reader.damage.map(\.lineNumber) == [6])
        #expect(reader.entryCount == 15)
        try expectNoWrongState(reader, states)
        #expect(!(0..<reader.entryCount).contains { (try? reader.state(at: $0)) == otherStates[4] })
    }

    @Test func aSessionHeaderCopiedIntoTheMiddleIsReported() throws {
        let (path, states) = try recordLog("header-twice.jsonl")
        rewrite(path) { $0.insert($0[0], at: 9) }
        let reader = try LogReader(path: path)
        #expect(reader.damage.map(\.description) == ["line 10: a second copy of this session's header"])
        for index in 0..<16 { #expect(try reader.state(at: index) == states[index]) }
    }

    // A log opened again keeps one numbering: "entry 13" means the same entry in
    // `rewind log`, the inspector and a failure message, whichever session wrote it.
    @Test func aSecondSessionContinuesTheEntryNumbersOfTheFirst() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("two-sessions.jsonl")
        try recordTodos(randomTodoActions(count: 12, seed: 21), to: path)
        try recordTodos(randomTodoActions(count: 5, seed: 22), to: path)
        let reader = try LogReader(path: path)
        #expect(reader.entryCount == 17)
        #expect(try (0..<17).map { try reader.entry(at: $0).sequence } == Array(0..<17))
        #expect(reader.damage.isEmpty)
    }

    @Test func formatOneLogsStillOpen() throws {
        // Written by the previous Rewind: no session, no record numbers, plain checksums.
        var bytes: [UInt8] = []
        var start = bytes.count
        bytes += Array(#"{"kind":"header","format":"rewind","version":1,"created":0,"process":"old","keyframeInterval":32,"initialState":{"n":0}"#.utf8)
        LogLine.seal(&bytes, recordStart: start)
        start = bytes.count
        bytes += Array(#"{"kind":"entry","keyframe":true,"seq":0,"time":1,"durationNs":1,"action":{"type":"bump","payload":null,"replayable":true},"changed":["/n"],"state":{"n":1}"#.utf8)
        LogLine.seal(&bytes, recordStart: start)
        start = bytes.count
        bytes += Array(#"{"kind":"entry","seq":1,"time":2,"durationNs":1,"action":{"type":"bump","payload":null,"replayable":true},"patch":[{"op":"replace","path":"/n","value":2}]"#.utf8)
        LogLine.seal(&bytes, recordStart: start)
        let path = directory.file("v1.jsonl")
        writeBytes(bytes, to: path)
        let reader = try LogReader(path: path)
        #expect(reader.header.version == 1)
        #expect(reader.damage.isEmpty)
        #expect(try reader.state(at: 1) == ["n": 2])
        // And a new session appended to it is today's format.
        try recordTodos([.add(title: "new")], to: path)
        let appended = try LogReader(path: path)
        #expect(appended.entryCount == 3)
        #expect(appended.damage.isEmpty && appended.tornTail == nil)
        #expect(readLines(path)[3].contains(#""version":3"#))
    }

    @Test func aRecordNumberTooBigForSixtyFourBitsIsDamageNotACrash() throws {
        let (path, _) = try recordLog("huge-number.jsonl")
        var record = unsealed(Array(readLines(path)[3].utf8))
        record += Array(#","n":9223372036854775809"#.utf8)
        LogLine.seal(&record, recordStart: 0)   // a checksum over it, but no number the reader can take
        rewrite(path) { $0[3] = String(decoding: record.dropLast(), as: UTF8.self) }
        let reader = try LogReader(path: path)
        #expect(reader.damage.map(\.lineNumber) == [4])
    }

    // MARK: 7. Smaller holes

    @Test func aFileThatOnlyBeginsLikeAHeaderIsNeverAppendedTo() throws {
        let path = directory.file("looks-like-a-log.txt")
        let text = Array("{\"kind\":\"header\" is how my notes start\nline two\nthe last line\n".utf8)
        writeBytes(text, to: path)
        let error = #expect(throws: RecorderError.self) { try ActionRecorder(file: path) }
        #expect(error?.description == "\(path): exists and is not a Rewind log (its first line is not a Rewind header with a valid checksum); refusing to append to it")
        #expect(fileBytes(path) == text, "nothing cut")
    }

    @Test func aLogConvertedToCRLFIsReadAsWrittenAndCanBeAppendedTo() throws {
        let (path, states) = try recordLog("crlf.jsonl")
        let converted = String(decoding: fileBytes(path), as: UTF8.self).replacingOccurrences(of: "\n", with: "\r\n")
        writeBytes(Array(converted.utf8), to: path)
        let reader = try LogReader(path: path)
        #expect(reader.hasCarriageReturns)
        #expect(reader.damage.isEmpty && reader.tornTail == nil)
        #expect(reader.entryCount == 16)
        for index in 0..<16 { #expect(try reader.state(at: index) == states[index]) }

        try recordTodos([.add(title: "after conversion")], to: path)
        let appended = try LogReader(path: path)
        #expect(appended.entryCount == 17)
        #expect(appended.damage.isEmpty && appended.tornTail == nil)
    }

    @Test func aCRLFLineThatDoesNotVerifyEitherSaysWhatWasSeen() throws {
        let (path, _) = try recordLog("crlf-damaged.jsonl")
        rewrite(path) { $0[3] = $0[3].replacingOccurrences(of: "\"seq\":", with: "\"seq\": ") + "\r" }
        let reader = try LogReader(path: path)
        #expect(reader.damage.map(\.description) == ["line 4: checksum mismatch or not a complete record (the line ends with a carriage return: were its line endings converted?)"])
    }

    @Test func flushAfterRecordingStoppedThrowsTheErrorThatStoppedIt() throws {
        let path = directory.file("stopped.jsonl")
        let recorder = try ActionRecorder(file: path, options: testOptions())
        let reducer = recorder.recording(todoReducer)
        var state = TodoState()
        reducer(&state, .add(title: "a"))
        try recorder.flush()
        unlink(path)
        reducer(&state, .add(title: "b"))
        let error = #expect(throws: RecorderError.self) { try recorder.flush() }
        #expect(error?.description == "\(path): the log file was removed while recording")
        reducer(&state, .add(title: "c"))
        #expect(throws: RecorderError.self, "and on every later flush") { try recorder.flush() }
        #expect(recorder.error == error)
    }
}
