import Foundation
import SampleDomains
import Testing
@testable import Inspector
@testable import Recorder

/// Exports in the inspector of a debug executable, where the timeline is a
/// ``ReplayTimeline``: the recorded entries keep what the log file holds (header,
/// times, durations, sequence numbers, effect links), and the branch's entries,
/// which the log does not hold, export from the timeline as they always have.
@Suite struct ReplayExportTests {
    @Test func theEKeyInReplayModeWritesTheSameReportAsRewindExport() throws {
        var (model, log, runner) = try ReplayKeysTests.model()
        model.type("jjjj")
        model.type("e", running: runner)
        let written = log.directory + "/log-diff-4-5.md"
        #expect(model.overlays.notice == "Exported the diff to \(written)  (Esc dismisses)")

        var request = ExportRequest(format: .markdown)
        request.firstEntry = 5
        request.lastEntry = 5
        let fromTheLog = String(decoding: try LogExporter.export(logAt: log.path, request), as: UTF8.self)
        let report = try String(contentsOfFile: written, encoding: .utf8)
        #expect(report == fromTheLog)
        #expect(report.contains("- **App:** "), "\(report)")
        #expect(report.contains("- **Time:** 2025-11-29T07:06:"), "\(report)")
    }

    /// The search log has effects: the jsonl slice carries their links, as the log's export does.
    @Test(arguments: ExportFormat.allCases)
    func recordedEntriesExportFromTheReplayTimelineAsFromTheLog(format: ExportFormat) throws {
        let directory = TemporaryDirectory()
        let log = try LogTimeline(path: try ExportFixtures.log(.search, in: directory.path))
        let replay = ReplayTimeline(base: log, engine: ReplayWorkbench(reader: log.reader, reducer: SearchDomain.reduce))
        var request = ExportRequest(format: format)
        request.firstEntry = 2
        request.lastEntry = log.count

        let fromTheLog = try LogExporter.export(from: log, request)
        #expect(try LogExporter.export(from: replay, request) == fromTheLog)
    }

    @Test func aRangeIntoTheBranchKeepsTheRecordedFieldsAndExportsTheBranchFromTheTimeline() throws {
        let log = try ReplayLogs.todo()
        let timeline = try LogTimeline(path: log.path)
        let workbench = ReplayWorkbench(reader: timeline.reader, reducer: TodoDomain.reduce)
        let replay = ReplayTimeline(base: timeline, engine: workbench)
        #expect(try workbench.dispatch(actionJSON: #"{"add":{"title":"Edited"}}"#, at: 11) == 12)
        var request = ExportRequest(format: .jsonl)
        request.firstEntry = 11
        request.lastEntry = 13      // entries 11 and 12 are recorded, 13 is the branch's

        let slicePath = log.folder.file("slice.jsonl")
        try Data(try LogExporter.export(from: replay, request)).write(to: URL(fileURLWithPath: slicePath))
        let slice = try LogReader(path: slicePath)
        let recorded = timeline.reader
        #expect(slice.header.processName == recorded.header.processName)
        #expect(slice.header.stateTypeName == recorded.header.stateTypeName)
        for index in 0..<2 {
            let (copied, original) = (try slice.entry(at: index), try recorded.entry(at: index + 10))
            #expect(copied.time == original.time)
            #expect(copied.sequence == original.sequence)
            #expect(copied.duration == original.duration)
            #expect(copied.action == original.action)
        }
        // The branch entry: its action and state, after the recorded entries it follows.
        let branchEntry = try slice.entry(at: 2)
        #expect(branchEntry.action.name == "add")
        #expect(try slice.state(at: 2) == replay.state(at: 12))
        #expect(branchEntry.sequence == (try recorded.entry(at: 11)).sequence + 1)
        #expect(branchEntry.time == (try recorded.entry(at: 11)).time)

        // The report: the log's header; a time range in offsets, as for any entry without a recorded time.
        request.format = .markdown
        let report = String(decoding: try LogExporter.export(from: replay, request), as: UTF8.self)
        #expect(report.contains("- **App:** "), "\(report)")
        #expect(report.contains("- **Log:** `log.jsonl`, entries 11–13 of 13\n- **Time:** +2.500 s → +2.750 s (0.250 s)"), "\(report)")
        #expect(report.contains("3. `add` `{\"add\":{\"title\":\"Edited\"}}` — entry 13, +2.750 s\n"), "\(report)")
        for format in ExportFormat.allCases {
            request.format = format
            #expect(throws: Never.self) { try LogExporter.export(from: replay, request) }
        }
    }
}
