import Foundation
import Testing
@testable import Recorder

/// A record over the reader's size limit is reported as damage and skipped, so
/// a huge state cannot make the inspector use unbounded memory.
@Suite struct RecordSizeLimitTests {
    @Test func aRecordOverTheLimitIsReportedAndTheRestOfTheLogStillOpens() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("huge.jsonl")
        let states = try recordTodos(randomTodoActions(count: 3, seed: 1), to: path)
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        // The last entry's record again, numbered as the one after the huge line (records 0–3 are
        // the header and the three entries, the huge line is record 4), to come after the huge one.
        let lastLine = original.dropLast().split(separator: UInt8(ascii: "\n")).last.map {
            Data(sealAsRecord(unsealed(Array($0)), number: 5, ofLastSessionIn: path))
        }
        // An entry line just over the limit: a keyframe whose state is one long string.
        // (Its checksum does not matter: the reader never reads that far into it.)
        var huge = Data(#"{"kind":"entry","keyframe":true,"seq":3,"time":1,"durationNs":1,"action":{"type":"load","payload":null,"replayable":true},"state":{"blob":""#.utf8)
        huge.append(Data(repeating: UInt8(ascii: "x"), count: LogReader.maximumLineBytes))
        huge.append(Data(#""},"crc":"00000000"}"#.utf8 + [0x0A]))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(huge)
        handle.write(try #require(lastLine))
        try handle.close()

        let reader = try LogReader(path: path)
        #expect(reader.damage.map(\.reason) == ["line longer than the 64 MB record limit"])
        #expect(reader.entryCount == 4, "the entries before and after the huge record are kept")
        #expect(try reader.state(at: 2) == (try JSONEncoding.value(of: states[2])))
    }
}
