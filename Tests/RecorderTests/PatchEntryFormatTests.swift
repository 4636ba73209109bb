import Foundation
import Testing
@testable import Recorder

/// Format 3: an entry that holds a patch leaves out `"kind":"entry"` and gives its
/// time as `t`, microseconds after its session's header's `created`; readers give
/// every entry the time it was recorded with, in logs of every format and in a log
/// whose sessions were written in different formats.
@Suite struct PatchEntryFormatTests {
    let directory = TemporaryDirectory()

    /// The times the fixed clock gives the entries of a session that starts at `start`.
    func clockTimes(start: Double, step: Double, count: Int) -> [Date] {
        (1...count).map { Date(timeIntervalSince1970: start + Double($0) * step) }
    }

    func options(start: Double, step: Double) -> ActionRecorder.Options {
        var options = testOptions(keyframeInterval: 8)
        options.clock = .fixed(start: start, step: step)
        return options
    }

    @Test func patchEntriesLeaveOutTheirKindAndCountTheirTimeFromTheSessionStart() throws {
        let path = directory.file("format3.jsonl")
        try recordTodos(randomTodoActions(count: 20, seed: 7), to: path, options: options(start: 1_764_000_000.5, step: 0.125))
        let lines = readLines(path).dropFirst().filter { !$0.isEmpty }
        let keyframes = lines.filter { $0.hasPrefix(#"{"kind":"entry","keyframe":true,"seq":"#) }
        let patchEntries = lines.filter { $0.hasPrefix(#"{"seq":"#) }
        #expect(keyframes.count + patchEntries.count == 20 && patchEntries.count > keyframes.count)
        #expect(keyframes.allSatisfy { $0.contains(#","time":"#) && !$0.contains(#","t":"#) })
        #expect(patchEntries.allSatisfy { !$0.contains(#""kind""#) && !$0.contains(#","time":"#) })
        // Entry `seq` ends (seq + 1) × 0.125 s after the session started: in microseconds, right after `seq`.
        for line in patchEntries {
            let sequence = try #require(try JSONParser.parse(Array(line.utf8))["seq"]?.int64Value)
            #expect(line.hasPrefix(#"{"seq":\#(sequence),"t":\#((sequence + 1) * 125_000),"durationNs":1000,"#), "\(line)")
        }

        let reader = try LogReader(path: path)
        #expect(reader.header.version == 3)
        #expect(reader.entryCount == 20 && reader.damage.isEmpty)
        #expect(try (0..<20).map { try reader.entry(at: $0).time } == clockTimes(start: 1_764_000_000.5, step: 0.125, count: 20))
    }

    /// A format 2 log (a committed sample, written before format 3) opened again by
    /// this recorder: its entries keep their times, and the new session's entries
    /// count theirs from the new session's start, not the log's first.
    @Test func aFormatTwoLogAppendedToReadsEverySessionsTimes() throws {
        let path = directory.file("appended.jsonl")
        try FileManager.default.copyItem(atPath: SampleLogsTests.directory + "/todos-format2.jsonl", toPath: path)
        let before = try LogReader(path: path)
        #expect(before.header.version == 2)
        let oldTimes = try (0..<before.entryCount).map { try before.entry(at: $0).time }

        try recordTodos(randomTodoActions(count: 12, seed: 3), to: path, options: options(start: 1_765_000_000.25, step: 0.5))
        #expect(readLines(path).filter { $0.hasPrefix(#"{"seq":"#) }.count > 5)
        let reader = try LogReader(path: path)
        #expect(reader.damage.isEmpty && reader.laterSessions.map(\.header?.version) == [3])
        let times = try (0..<reader.entryCount).map { try reader.entry(at: $0).time }
        #expect(Array(times.prefix(oldTimes.count)) == oldTimes)
        #expect(Array(times.dropFirst(oldTimes.count)) == clockTimes(start: 1_765_000_000.25, step: 0.5, count: 12))
    }

    /// `t` is whole microseconds: a time anywhere in a session reads back as the very
    /// `Double` a format 2 log held for it (`time`, rounded to microseconds).
    @Test func timesAfterTheStartReadBackToTheMicrosecond() throws {
        let created = 1_767_258_000.123457
        var builder = LogBuilder(header: LogHeader(created: Date(timeIntervalSince1970: created), processName: "test", initialState: ["n": 0]))
        let times = [created, created + 0.000001, created + 3599.999999, created + 86_400.5, created - 2.25]
        // A state larger than a patch of `/n`, so the entries after the first hold patches.
        let padding = JSONValue.string(String(repeating: "x", count: 200))
        for (step, time) in times.enumerated() {
            builder.append(LogBuilder.Entry(time: Date(timeIntervalSince1970: time), action: LogEntry.Action(type: "tick", payload: .null),
                                            state: ["n": .integer(Int64(step + 1)), "padding": padding]))
        }
        let path = directory.file("micro.jsonl")
        try Data(builder.bytes).write(to: URL(fileURLWithPath: path))
        let lines = readLines(path)
        #expect(lines[2].hasPrefix(#"{"seq":1,"t":1,"#) && lines[5].hasPrefix(#"{"seq":4,"t":-2250000,"#))
        let reader = try LogReader(path: path)
        #expect(try (0..<times.count).map { try reader.entry(at: $0).time.timeIntervalSince1970 } == times.map { LogTime.rounded($0) })
    }
}
