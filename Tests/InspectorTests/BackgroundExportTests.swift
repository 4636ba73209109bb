import Foundation
import Testing
import Recorder
@testable import Inspector

/// `e` builds and writes its report on the export queue (a 30 MB diff's takes seconds):
/// the key is answered at once with where the file goes, progress follows, Esc cancels
/// and leaves nothing on disk.
@Suite struct BackgroundExportTests {
    /// The hint line; a message longer than it takes the status bar's row too (joined here).
    static func hintLine(_ model: InspectorModel) -> String {
        let message = model.overlays.message ?? model.overlays.notice ?? ""
        let lines = model.screenText.split(separator: "\n", omittingEmptySubsequences: false)
        return TerminalWidth.of(message) > model.size.columns ? lines.suffix(2).joined(separator: " ") : String(lines.last ?? "")
    }

    @Test func eSaysWhereTheFileGoesBeforeItIsBuiltAndWritten() throws {
        let folder = TemporaryDirectory()
        let log = try LogFixture.todoLog()
        var model = InspectorFixtures.model(try LogTimeline(path: log))
        let runner = EffectRunner(source: model.source, directory: folder.path)
        model.type("jjj")
        let effects = model.send(.character("e"))
        #expect(Self.hintLine(model) == "Exporting the diff… (Esc cancels)")
        #expect(model.screenText.contains("│  exporting… building the report"))
        // The runner answers at once with the path; the report is built and written on its queue.
        let answers = effects.flatMap { runner.perform($0) }
        #expect(answers == [.exportStarted(path: folder.path + "/todo-diff-3-4.md")])
        for answer in answers { reduce(&model, answer) }
        #expect(Self.hintLine(model) == "Exporting the diff to \(folder.path)/todo-diff-3-4.md… (Esc cancels)")
        model.run([], with: runner)
        #expect(Self.hintLine(model) == "Exported the diff to \(folder.path)/todo-diff-3-4.md  (Esc dismisses)")
        #expect(try String(contentsOfFile: folder.path + "/todo-diff-3-4.md", encoding: .utf8).hasPrefix("# "))
    }

    @Test func escCancelsTheExportAndNothingIsLeftOnDisk() throws {
        var model = InspectorFixtures.model()
        model.type("jjje")
        #expect(model.send(.escape) == [.cancelExport])
        #expect(model.screenText.contains("│  cancelling the export…"))
        #expect(Self.hintLine(model) == "Cancelling the export…")
        reduce(&model, .exportCancelled)
        #expect(model.scans.exporting == nil)
        #expect(Self.hintLine(model) == "Export cancelled: nothing was written")

        // Cancelled between chunks, what was written so far is removed.
        let folder = TemporaryDirectory()
        var chunks = 0
        #expect(throws: ExportWriteError.cancelled) {
            try ExportFile.write(suggestedName: "big.md", directory: folder.path, isCancelled: { chunks += 1; return chunks > 1 }) { output in
                for _ in 0..<3 { try output.write(String(repeating: "x", count: ExportOutput.chunkBytes)) }
            }
        }
        #expect(chunks == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
    }

    @Test func aHideListThatCannotBeSavedSaysSoNotThatAnExportFailed() throws {
        // A file where the hide-list's directory would go: no `.rewind` can be made in it (even as root).
        let folder = TemporaryDirectory()
        try Data().write(to: URL(fileURLWithPath: folder.path + "/file"))
        var model = InspectorFixtures.model()
        let runner = EffectRunner(source: model.source, directory: folder.path + "/file")
        model.type("f", running: runner)
        model.type("\t", running: runner)                  // hide the type under the cursor for the project
        model.type("\u{1b}j")                              // the picker closed, the filter's own message gone
        #expect(Self.hintLine(model).hasPrefix("Cannot save the hide-list: cannot save "), "\(Self.hintLine(model))")
        #expect(!model.screenText.contains("Export failed"))
    }
}
