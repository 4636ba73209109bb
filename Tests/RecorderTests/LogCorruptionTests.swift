import Foundation
import Testing
@testable import Recorder

/// Every truncation and every single-byte corruption of a small log: the
/// reader never crashes, keeps exactly the intact records, and resyncs.
@Suite struct LogCorruptionTests {
    struct Note: Codable { var count = 0; var tags: [String] = []; var body = String(repeating: "lorem ipsum ", count: 5) }
    enum NoteAction: Codable { case bump, tag(String) }

    /// A log with a header and 10 entries, keyframes every 4 entries, as bytes
    /// plus the byte range of each line including its newline.
    struct SmallLog {
        var bytes: [UInt8]
        var lines: [Range<Int>]
        var states: [JSONValue]
        var keyframes: [Bool]
        var entryCount: Int { lines.count - 1 }
    }

    static func makeSmallLog() throws -> SmallLog {
        let directory = TemporaryDirectory()
        let path = directory.file("small.jsonl")
        var options = ActionRecorder.Options()
        options.keyframeInterval = 4
        options.clock = .fixed(start: 1_700_000_000, step: 0.25)
        let recorder = try ActionRecorder(file: path, options: options)
        let reducer = recorder.recording { (note: inout Note, action: NoteAction) in
            switch action {
            case .bump: note.count += 1
            case .tag(let tag): note.tags.append(tag)
            }
        }
        var note = Note()
        for action: NoteAction in [.bump, .tag("a"), .bump, .tag("b"), .bump, .bump, .tag("c"), .bump, .tag("d"), .bump] {
            reducer(&note, action)
        }
        try recorder.close()
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        var lines: [Range<Int>] = []
        var start = 0
        for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            lines.append(start..<(offset + 1))
            start = offset + 1
        }
        let reader = try LogReader(path: path)
        let states = try (0..<reader.entryCount).map { try reader.state(at: $0) }
        let keyframes = try (0..<reader.entryCount).map { try reader.entry(at: $0).isKeyframe }
        return SmallLog(bytes: bytes, lines: lines, states: states, keyframes: keyframes)
    }

    static func open(_ bytes: [UInt8]) -> Result<LogReader, LogReadError> {
        let directory = TemporaryDirectory()
        let path = directory.file("damaged.jsonl")
        writeBytes(bytes, to: path)
        return Result { () throws(LogReadError) in try LogReader(path: path) }
    }

    @Test func theSmallLogHasPatchesBetweenKeyframes() throws {
        let log = try Self.makeSmallLog()
        #expect(log.entryCount == 10)
        #expect(log.keyframes.filter { $0 }.count >= 3)
        #expect(log.keyframes.filter { !$0 }.count >= 5, "most entries are patches")
    }

    @Test func truncatingAtEveryOffsetKeepsExactlyTheCompleteRecords() throws {
        let log = try Self.makeSmallLog()
        let header = log.lines[0]
        for length in 0...log.bytes.count {
            let result = Self.open(Array(log.bytes[..<length]))
            guard length >= header.upperBound else {
                #expect(throws: LogReadError.self, "a log cut inside its header (at \(length)) cannot open") { try result.get() }
                continue
            }
            let reader = try result.get()
            let complete = log.lines.dropFirst().filter { $0.upperBound <= length }.count
            #expect(reader.entryCount == complete, "cut at byte \(length)")
            let atLineBoundary = log.lines.contains { $0.upperBound == length }
            #expect((reader.tornTail != nil) == !atLineBoundary, "cut at byte \(length)")
            #expect(reader.damage.filter { $0 != reader.tornTail }.isEmpty, "cut at byte \(length)")
            if complete > 0 {
                #expect(try reader.state(at: complete - 1) == log.states[complete - 1], "cut at byte \(length)")
            }
        }
    }

    @Test func corruptingAnyByteLosesOnlyItsRecordAndStatesResumeAtTheNextKeyframe() throws {
        let log = try Self.makeSmallLog()
        let header = log.lines[0]
        for offset in header.upperBound..<log.bytes.count {
            var bytes = log.bytes
            bytes[offset] ^= 0x01  // a newline becomes 0x0B, which never occurs in JSON text
            let reader = try Self.open(bytes).get()
            let damagedEntry = log.lines.dropFirst().firstIndex { $0.contains(offset) }! - 1
            let isNewline = log.bytes[offset] == UInt8(ascii: "\n")
            let isLastByte = offset == log.bytes.count - 1
            // A lost newline merges the record with the next one; at the end of the file it leaves a torn tail.
            let lostEntries = isNewline && !isLastByte ? 2 : 1
            #expect(reader.entryCount == log.entryCount - lostEntries, "byte \(offset) corrupted")
            // A damaged final line is indistinguishable from an interrupted write: a torn tail.
            let damagedLineIsFinal = damagedEntry + lostEntries == log.entryCount
            if damagedLineIsFinal {
                #expect(reader.tornTail?.lineNumber == damagedEntry + 2, "byte \(offset) corrupted")
                #expect(reader.damage.isEmpty, "byte \(offset) corrupted")
            } else {
                #expect(reader.damage.map(\.lineNumber) == [damagedEntry + 2], "byte \(offset) corrupted: \(reader.damage)")
                #expect(reader.tornTail == nil)
            }
            // Entries before the damage rebuild to the original states (the last one
            // depends on all patches since its keyframe).
            if damagedEntry > 0 {
                #expect(try reader.state(at: damagedEntry - 1) == log.states[damagedEntry - 1], "byte \(offset) corrupted")
            }
            // After it, each surviving entry either rebuilds correctly (from a keyframe
            // at or after the damage) or says it cannot, never a wrong state.
            let firstAfter = damagedEntry + lostEntries
            guard firstAfter < log.entryCount else { continue }
            let nextKeyframe = (firstAfter..<log.entryCount).first { log.keyframes[$0] }
            for original in firstAfter..<log.entryCount {
                let index = original - lostEntries
                if let nextKeyframe, original >= nextKeyframe {
                    #expect(try reader.state(at: index) == log.states[original], "byte \(offset) corrupted, entry \(original)")
                } else {
                    #expect(throws: LogReadError.self, "byte \(offset) corrupted, entry \(original) must not rebuild") {
                        try reader.state(at: index)
                    }
                }
            }
        }
    }

    @Test func corruptingTheHeaderGivesAClearErrorNotACrash() throws {
        let log = try Self.makeSmallLog()
        for offset in log.lines[0] {
            var bytes = log.bytes
            bytes[offset] ^= 0x01
            switch Self.open(bytes) {
            case .success(let reader):
                Issue.record("a damaged header opened with \(reader.entryCount) entries (byte \(offset))")
            case .failure(let error):
                #expect(error.description.contains("header") || error.description.contains("not a Rewind log"), "byte \(offset): \(error)")
            }
        }
    }
}
