import Foundation
import Testing
import Recorder
@testable import Inspector

/// `e` writes its report to the file a piece at a time (a 30 MB diff's report is 76 MB):
/// the same bytes as the report made whole, Esc stops it at the next chunk, progress
/// comes from the work done, and the report takes its name only once it is complete.
@Suite struct StreamedExportTests {
    struct Shelf: Codable {
        var items: [Item] = []
        var note = ""
    }

    struct Item: Codable {
        var id: Int
        var title: String
        var tags: [String]
    }

    enum ShelfAction: Codable {
        case load(count: Int)
        case rename(id: Int, title: String)
        case note(String)
    }

    /// A log the recorder writes: entry 1 loads `items` items (~80 bytes of JSON each), entry 2
    /// renames one to a title with a run of backticks and an escape character (the report's fence
    /// must be longer, the escape escaped), entry 3 has a payload long enough to be folded.
    static func shelfLog(items: Int) throws -> String {
        let path = TemporaryDirectory.forThisProcess.subdirectory("shelf-\(UUID().uuidString)") + "/shelf.jsonl"
        let recorder = try ActionRecorder(file: path)
        let reducer = recorder.recording { (state: inout Shelf, action: ShelfAction) in
            switch action {
            case .load(let count):
                state.items = (0..<count).map { Item(id: $0, title: "Item \($0)", tags: $0 % 3 == 0 ? ["red", "blue"] : []) }
            case .rename(let id, let title): state.items[id].title = title
            case .note(let text): state.note = text
            }
        }
        var state = Shelf()
        reducer(&state, .load(count: items))
        reducer(&state, .rename(id: 1, title: "```swift``` \u{1b}[31mred"))
        reducer(&state, .note(String(repeating: "a long note ", count: 20)))
        try recorder.close()
        return path
    }

    static func report(_ export: DiffExport, of log: String, in folder: TemporaryDirectory,
                       isCancelled: @escaping () -> Bool = { false }, progress: @escaping (Double) -> Void = { _ in }) throws -> String {
        let timeline = try LogTimeline(path: log)
        return try ExportFile.write(suggestedName: "report.md", directory: folder.path, isCancelled: isCancelled, progress: progress) { output in
            try export.write(from: timeline, to: output)
        }
    }

    /// Every sample log (their reports are golden files), each entry's report as `e` writes it.
    @Test func eachEntrysReportWrittenToItsFileIsTheOneMadeWhole() throws {
        let folder = TemporaryDirectory()
        var logs = try ExportFixtures.Sample.allCases.map { try ExportFixtures.log($0, in: folder.path) }
        logs.append(try Self.shelfLog(items: 3_000))
        for log in logs {
            let timeline = try LogTimeline(path: log)
            for index in 0..<timeline.count {
                var request = ExportRequest(format: .markdown)
                request.firstEntry = timeline.entryNumber(at: index)
                request.lastEntry = request.firstEntry
                let whole = String(decoding: try LogExporter.export(from: timeline, request), as: UTF8.self)
                let written = try Self.report(.entry(index), of: log, in: folder)
                #expect(try String(contentsOfFile: written, encoding: .utf8) == whole, "\(log) entry \(index + 1)")
                try FileManager.default.removeItem(atPath: written)
            }
        }
    }

    /// The report's sections for entries with folded diffs and states, a fence that must be
    /// longer than the backticks in a value, an escape character and a folded payload: as the
    /// report was before it was written a piece at a time (the golden file was made by that code).
    @Test func foldsFencesAndEscapesAreAsBefore() throws {
        let folder = TemporaryDirectory()
        let log = try Self.shelfLog(items: 300)
        let path = try ExportFile.write(suggestedName: "report.md", directory: folder.path) { output in
            try LogExporter.writeMarkdownReport(from: try LogTimeline(path: log), ExportRequest(format: .markdown), to: output)
        }
        let report = try String(contentsOfFile: path, encoding: .utf8)
        // From the changes on: the header and the action list hold the times of the recording.
        let changes = try #require(report.range(of: "\n## Changes\n"))
        Golden.expect(String(report[changes.lowerBound...]), matches: "shelf-report-changes.md")
        #expect(report.contains("\n````diff\n"))
        #expect(report.contains("\\u001b[31mred"))
        #expect(report.contains("<details><summary>Payload ("))
    }

    @Test func aReportWrittenToItsFileIsTheOneMadeInMemory() throws {
        let folder = TemporaryDirectory()
        let log = try Self.shelfLog(items: 20_000)
        let inMemory = try DiffExport.entry(0).markdown(from: try LogTimeline(path: log))
        #expect(inMemory.utf8.count > 8 * ExportOutput.chunkBytes)   // many chunks, the diff and the state through the scratch file
        #expect(inMemory.contains("<details><summary>State changes (20005 lines)</summary>\n\n```diff\n"), "\(inMemory.prefix(800))")
        let path = try Self.report(.entry(0), of: log, in: folder)
        #expect(path == folder.path + "/report.md")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == inMemory)
        // Nothing else is left beside it: no hidden file, no scratch file.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["report.md"])
    }

    @Test func cancellingStopsTheReportAtTheNextChunkAndLeavesNoFile() throws {
        let folder = TemporaryDirectory()
        let log = try Self.shelfLog(items: 20_000)
        // Cancelled once the first chunk is written: the next look stops it.
        var reports: [Double] = []
        var looks = 0
        #expect(throws: ExportWriteError.cancelled) {
            _ = try Self.report(.entry(0), of: log, in: folder, isCancelled: { looks += 1; return !reports.isEmpty },
                                progress: { reports.append($0) })
        }
        #expect(looks == 2)
        #expect(reports.count == 1 && reports[0] < 0.1, "\(reports)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
    }

    @Test func theReportTakesItsNameOnlyWhenCompleteAndAFailureLeavesNothing() throws {
        let folder = TemporaryDirectory()
        let name = folder.path + "/report.md"
        struct Failure: Error {}
        #expect(throws: Failure.self) {
            _ = try ExportFile.write(suggestedName: "report.md", directory: folder.path) { output in
                try output.write(String(repeating: "x", count: 3 * ExportOutput.chunkBytes))
                // Two chunks are on disk, under a hidden name.
                #expect(!FileManager.default.fileExists(atPath: name))
                #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).allSatisfy { $0.hasPrefix(".report.md.rewind-") })
                throw Failure()
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
        // A file that took the name while the report was written is kept: the report takes the next name.
        let path = try ExportFile.write(suggestedName: "report.md", directory: folder.path) { output in
            try output.write("# report\n")
            try Data("someone else's\n".utf8).write(to: URL(fileURLWithPath: name))
        }
        #expect(path == folder.path + "/report-2.md")
        #expect(try String(contentsOfFile: name, encoding: .utf8) == "someone else's\n")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "# report\n")
    }

    @Test func progressComesFromTheWorkDoneAsItIsDone() throws {
        let folder = TemporaryDirectory()
        let log = try Self.shelfLog(items: 20_000)
        var reports: [Double] = []
        var sizes: [Int] = []
        let path = try Self.report(.entry(0), of: log, in: folder, progress: { fraction in
            reports.append(fraction)
            // What is on disk so far, under the hidden name.
            let hidden = (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.first { $0.hasPrefix(".report.md") }
            sizes.append(hidden.flatMap { try? FileManager.default.attributesOfItem(atPath: folder.path + "/" + $0)[.size] as? Int } ?? 0)
        })
        let total = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        #expect(reports.count >= 10, "\(reports)")
        #expect(reports == reports.sorted() && Set(reports.map { Int($0 * 100) }).count == reports.count)
        // The first report comes with the first chunk, not once the report is made.
        #expect(reports[0] < 0.1 && sizes[0] < total / 4, "\(reports) \(sizes)")
        #expect(reports.last! > 0.9)
    }

    @Test func escStopsTheWorkersExportAndNothingIsWritten() throws {
        let folder = TemporaryDirectory()
        let log = try Self.shelfLog(items: 20_000)
        let timeline = try LogTimeline(path: log)
        let worker = ExportWorker(directory: folder.path)
        let path = worker.start(suggestedName: "shelf-diff-1.md") { try DiffExport.entry(0).write(from: timeline, to: $0) }
        worker.cancel()
        worker.waitUntilIdle()
        #expect(worker.takeEvents().last == .exportCancelled)
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
    }
}
