import Foundation
import Testing
import Inspector
import Recorder
import RewindTestSupport

/// `LogExporter` says why an export could not be made in one line for people, and
/// with a ``ExportError/Kind`` code can act on (ask again for fewer entries, skip a
/// file that is not a recording) without reading the text.
@Suite struct ExportErrorTests {
    /// Entries 1, 2, 6, 8, 9 and 10 (3–5 and 7 were not recorded).
    let log: String
    init() throws { log = try GappedCounter.writeLog() }

    private func failure(first: Int? = nil, last: Int? = nil, path: String? = nil, logAt file: String? = nil) -> ExportError? {
        var request = ExportRequest(format: .markdown)
        request.firstEntry = first
        request.lastEntry = last
        request.path = try? path.map { try JSONPointer(parsing: $0) }
        do {
            _ = try LogExporter.export(logAt: file ?? log, request)
            return nil
        } catch {
            return error
        }
    }

    @Test func anEntryTheLogDoesNotHaveIsOutOfRange() {
        let error = failure(first: 40)
        #expect(error?.kind == .entryOutOfRange)
        #expect(error?.description == "there is no entry 40 in gapped.jsonl (it has entries 1–10)")
    }

    @Test func aFirstEntryAfterTheLastIsAnInvalidRange() {
        let error = failure(first: 6, last: 2)
        #expect(error?.kind == .invalidRange)
        #expect(error?.description == "the first entry (6) is after the last (2)")
    }

    @Test func aRangeThatIsAllGapHasNothingRecorded() {
        let error = failure(first: 3, last: 5)
        #expect(error?.kind == .entriesNotRecorded)
        #expect(error?.description == "entries 3–5 of gapped.jsonl were not recorded")
    }

    @Test func aPathMissingFromTheStateIsNotFound() {
        let error = failure(path: "/nowhere")
        #expect(error?.kind == .pathNotFound)
        #expect(error?.description.hasPrefix("/nowhere does not exist in the state") == true, "\(String(describing: error))")
    }

    @Test func aFileThatIsNotARecordingIsToldApartFromAnUnreadableLog() throws {
        let directory = TemporaryDirectory()
        let notes = directory.file("notes.txt")
        writeBytes(Array("shopping list\n".utf8), to: notes)
        let notALog = failure(logAt: notes)
        #expect(notALog?.kind == .notARewindLog)
        #expect(notALog?.description == "\(notes): not a Rewind log (the first line is not a Rewind header)")

        let missing = failure(logAt: directory.file("gone.jsonl"))
        #expect(missing?.kind == .unreadableLog)
        #expect(missing?.description == "\(directory.file("gone.jsonl")): no such file")
    }

    @Test func aKindIsMatchedInASwitchAndNamedAsItIsSpelled() throws {
        let error = try #require(failure(first: 40))
        switch error.kind {
        case .entryOutOfRange: break
        default: Issue.record("kind \(error.kind)")
        }
        #expect("\(error.kind)" == "entryOutOfRange")
    }
}
