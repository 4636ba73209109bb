import Foundation
import Testing
import Recorder
@testable import Inspector

/// The inspector over real log files (LogReader behind TimelineSource).
@Suite struct LogTimelineTests {
    @Test func opensALogFileAndShowsTheSameScreenAsTheRecording() throws {
        let path = try LogFixture.todoLog(keyframeInterval: 3)
        let timeline = try LogTimeline(path: path)
        var fromFile = InspectorFixtures.model(timeline)
        var fromMemory = InspectorFixtures.model()
        for key in "jjjjj" {
            fromFile.type(String(key))
            fromMemory.type(String(key))
            #expect(fromFile.screenText == fromMemory.screenText)
        }
        #expect(fromFile.screenText.contains("↳ sync/loaded"))
    }

    /// A row needs an entry's head, not its state: a keyframe longer than `LogReader.entryHeadBytes`
    /// is read up to its state (a 30 MB keyframe's row read its whole line on the input thread).
    @Test func aLongKeyframesRowIsReadFromItsHeadAndIsTheRowItsWholeLineGives() throws {
        let folder = TemporaryDirectory()
        let shelf = try StreamedExportTests.shelfLog(items: 3_000)
        let logs = [shelf, try LogFixture.todoLog(keyframeInterval: 3)] + (try ExportFixtures.Sample.allCases.map { try ExportFixtures.log($0, in: folder.path) })
        for log in logs {
            let reader = try LogReader(path: log)
            for index in 0..<reader.entryCount {
                #expect(try reader.entryReadUpToItsState(at: index) == reader.entry(at: index), "\(log) \(index)")
            }
        }

        // Bytes of the state that no longer even end (changed after indexing, which checked the
        // line) do not keep the row from being read: its state is not read for it.
        let timeline = try LogTimeline(path: shelf)
        let line = try #require(String(contentsOfFile: shelf, encoding: .utf8).split(separator: "\n").dropFirst().first)
        #expect(line.utf8.count > 2 * LogReader.entryHeadBytes)
        let handle = try #require(FileHandle(forWritingAtPath: shelf))
        let header = try #require(String(contentsOfFile: shelf, encoding: .utf8).split(separator: "\n").first)
        try handle.seek(toOffset: UInt64(header.utf8.count + 1 + LogReader.entryHeadBytes + 10_000))
        // A control character no JSON may hold, then brackets that never close: whether the
        // bytes land between values or inside a string (where a run of brackets alone could
        // join two strings into one and leave valid JSON), the line no longer reads.
        try handle.write(contentsOf: Data([0x01] + [UInt8](repeating: UInt8(ascii: "["), count: 999)))
        try handle.close()
        #expect((try? timeline.reader.entry(at: 0)) == nil)
        let row = try #require(timeline.entry(at: 0))
        #expect(row.actionType == "load" && row.isKeyframe && row.changedPaths.map(\.description) == ["/items"], "\(row)")
    }

    @Test func aDamagedRecordIsListedAndStatesAfterItWaitForTheNextKeyframe() throws {
        // Keyframes at entries 0, 3; line 3 (entry 1) is damaged, so entry 2's patch has no base.
        let path = try LogFixture.todoLog(keyframeInterval: 3, damageLine: 3)
        var model = InspectorFixtures.model(try LogTimeline(path: path))
        #expect(model.timeline.count == 5)
        #expect(model.screenText.contains("⚠ 1 damaged (D lists)"))
        model.type("j")
        #expect(model.stateLines(3) == [
            " State unavailable: it cannot be",
            " rebuilt: it depends on line 3, which",
            " is damaged; states are available again",
        ])
        model.type("j")                    // entry 4 in the file is a keyframe: states are back
        #expect(model.view.state != nil)
        model.type("D")
        #expect(model.screenText.contains("│ line 3: checksum mismatch"))
    }

    @Test func followModeShowsEntriesAppendedToTheFile() throws {
        let path = try LogFixture.todoLog()
        let full = try Data(contentsOf: URL(fileURLWithPath: path))
        let lines = full.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        // Start with the header and three entries, then append the rest while following.
        let firstPart = lines[0..<4].map { Data($0) + Data([0x0A]) }.reduce(Data(), +)
        try firstPart.write(to: URL(fileURLWithPath: path))
        var model = InspectorFixtures.model(try LogTimeline(path: path))
        #expect(model.timeline.count == 3)
        model.type("F")
        #expect(model.timeline.selection == 2)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: full.dropFirst(firstPart.count))
        try handle.close()
        reduce(&model, .tick)
        #expect(model.timeline.count == 6)
        #expect(model.timeline.selection == 5)
        #expect(model.screenText.contains("entry 6/6  │  timeline  │  FOLLOW"))
    }

    @Test func backgroundIndexingShowsProgressThenCompletes() throws {
        // Enough entries that the first scan (about 4 MB) does not reach the end.
        let steps = (0..<6_000).map { LogFixture.Step(type: "tick", payload: ["pad": .string(String(repeating: "x", count: 900))], state: ["n": .integer(Int64($0))]) }
        let path = try LogFixture.write(steps, keyframeInterval: 50)
        let timeline = try LogTimeline(path: path, indexInBackground: true)
        var model = InspectorFixtures.model(timeline)
        // How far the indexer got by now depends on the machine (it may be done already): what
        // the screen shows meanwhile is checked on a source indexed by hand (ScreenTests,
        // IndexingJumpTests); here, that indexing ends with every entry in the model.
        timeline.waitUntilIndexed()
        #expect(timeline.indexing == .complete)
        reduce(&model, .tick)
        #expect(model.timeline.count == 6_000)
        #expect(!model.screenText.contains("indexing"))
        model.type("G")
        #expect(model.screenText.contains("entry 6000/6000"))
    }
}
