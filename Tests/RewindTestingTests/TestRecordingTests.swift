import Foundation
import Recorder
import Testing
@testable import RewindTesting

struct Counter: Codable, Equatable { var count = 0; var history: [Int] = [] }
enum CounterAction: Codable, Equatable { case increment, add(Int), reset }

func counterReducer(_ state: inout Counter, _ action: CounterAction) {
    switch action {
    case .increment: state.count += 1
    case .add(let amount): state.count += amount; state.history.append(amount)
    case .reset: state = Counter()
    }
}

@Suite struct TestRecordingTests {
    let scratch = TemporaryDirectory()

    @Test func aPassingTestDeletesItsLog() throws {
        let directory = scratch.path
        let recording = try TestRecording(testName: "Suite/passes()", environment: ["REWIND_RECORDINGS": directory])
        var state = Counter()
        recording.recorder.recording(counterReducer)(&state, .increment)
        #expect(recording.finish(failed: false, environment: [:]) == nil)
        #expect(!FileManager.default.fileExists(atPath: recording.path))
    }

    @Test func rewindKeepKeepsTheLogOfAPassingTest() throws {
        let directory = scratch.path
        let recording = try TestRecording(testName: "Suite/passes()", environment: ["REWIND_RECORDINGS": directory])
        let report = recording.finish(failed: false, environment: ["REWIND_KEEP": "1"])
        #expect(report == "Rewind: recording kept (REWIND_KEEP=1) at \(directory)/Suite.passes.jsonl")
        #expect(FileManager.default.fileExists(atPath: recording.path))
    }

    @Test func aFailedTestsRecordingSaysSoInItsHeaderAndStillReadsWhole() throws {
        let directory = scratch.path
        let recording = try TestRecording(testName: "CartTests/fails()", environment: ["REWIND_RECORDINGS": directory])
        let reducer = recording.recorder.recording(counterReducer)
        var state = Counter()
        var states: [Counter] = []
        for action: CounterAction in [.increment, .add(5), .reset, .increment] {
            reducer(&state, action)
            states.append(state)
        }
        _ = recording.finish(failed: true, printing: false, environment: [:])
        let reader = try LogReader(path: recording.path)
        #expect(reader.header.metadata["outcome"] == "failed", "rewind ls lists it with the failed tests, first")
        #expect(reader.header.metadata["test"] == "CartTests/fails()")
        #expect(reader.damage.isEmpty && reader.entryCount == 4, "every record sealed again in the new header's chain")
        for (index, expected) in states.enumerated() {
            #expect(try reader.state(at: index) == (try JSONParser.parse(JSONEncoding.compact(expected))))
        }
        // A passing test kept with REWIND_KEEP=1 says nothing of an outcome.
        let kept = try TestRecording(testName: "CartTests/passes()", environment: ["REWIND_RECORDINGS": directory])
        kept.recorder.recording(counterReducer)(&state, .increment)
        _ = kept.finish(failed: false, printing: false, environment: ["REWIND_KEEP": "1"])
        #expect(try LogReader(path: kept.path).header.metadata["outcome"] == nil)
    }

    @Test func aFailingTestKeepsItsLogAndReportsTheLastActionsAndTheirDiff() throws {
        let directory = scratch.path
        let recording = try TestRecording(testName: "CartTests/checkout()", environment: ["REWIND_RECORDINGS": directory])
        let reducer = recording.recorder.recording(counterReducer)
        var state = Counter()
        for action: CounterAction in [.increment, .increment, .reset, .add(5), .increment, .add(2)] {
            reducer(&state, action)
        }
        let report = try #require(recording.finish(failed: true, environment: [:]))
        #expect(FileManager.default.fileExists(atPath: recording.path))
        #expect(report == """
            Rewind: test failed; recording kept at \(directory)/CartTests.checkout.jsonl
              browse it: rewind \(directory)/CartTests.checkout.jsonl
              last actions (of 6):
                2  increment
                3  reset
                4  add 5
                5  increment
                6  add 2
              state change of entry 6, add:
                  {
                -   "count": 6
                +   "count": 8
                    "history": [
                      … (1 unchanged: 0)
                +     2
                    ]
                  }
            """)
    }

    @Test func theReportNumbersAndSummarisesEntriesAsRewindLogDoes() throws {
        struct Order: Codable { var notes: [Int: String] = [:] }
        enum OrderAction: Codable { case setNote(id: Int, note: String), submit }
        let recording = try TestRecording(testName: "OrderTests/notes()", environment: ["REWIND_RECORDINGS": scratch.path])
        let reducer = recording.recorder.recording { (state: inout Order, action: OrderAction) in
            if case .setNote(let id, let note) = action { state.notes[id] = note }
        }
        var state = Order()
        for id in 1...10 { reducer(&state, .setNote(id: id, note: "n\(id)")) }
        reducer(&state, .setNote(id: 3, note: "gift wrap"))
        let report = try #require(recording.finish(failed: true, environment: [:]))
        // `rewind log` numbers this entry 11 and writes its payload the same way.
        #expect(report.contains("\n    11  setNote id: 3, note: \"gift wrap\"\n"))
        #expect(report.contains("\n     7  setNote id: 7, note: \"n7\"\n"))
        #expect(report.contains("state change of entry 11, setNote:"))
    }

    @Test func theReportNumbersEntriesAsRecordedAndSaysWhatWasNotRecorded() throws {
        let recording = try TestRecording(testName: "CounterTests/gaps()", environment: ["REWIND_RECORDINGS": scratch.path])
        let reducer = recording.recorder.recording(GappedCounter.reduce)
        var state = GappedCounter()
        for action: GappedAction in [.inc, .deep, .inc] { reducer(&state, action) }   // entry 2's state is too deep for a log record
        let report = try #require(recording.finish(failed: true, printing: false, environment: [:]))
        #expect(report.components(separatedBy: "\n").dropFirst(2).joined(separator: "\n") == """
              last actions (of 3, 1 not recorded):
                1  inc
                2  not recorded: the state after deep is nested 803 levels deep; a log record holds at most 509
                3  inc
              state change of entry 3, inc (from entry 1, across a gap: entry 2 not recorded):
                  {
                -   "count": 1
                +   "count": 3
                  }
            """)
    }

    @Test func theReportOfALogWithGapsAndASecondSessionListsThemWhereTheyHappened() throws {
        let recording = try TestRecording(testName: "CounterTests/sessions()", environment: ["REWIND_RECORDINGS": scratch.path])
        try recording.recorder.close()
        try? FileManager.default.removeItem(atPath: recording.path)
        // 1 · 2 · 3–5 dropped · 6 · 7 too deep · 8 · [new session] 9 · 10
        try GappedCounter.writeLog(at: recording.path)
        let report = try #require(recording.finish(failed: true, printing: false, environment: [:]))
        let reader = try LogReader(path: recording.path)
        #expect(reader.header.metadata["outcome"] == "failed")
        #expect(reader.entryCount == 6 && reader.laterSessionCount == 1 && reader.damage.isEmpty, "marking it failed keeps the second session")
        #expect(report.components(separatedBy: "\n").dropFirst(2).joined(separator: "\n") == """
              last actions (of 10, 4 not recorded):
                  2  inc
                3–5  not recorded (3 entries): the recording queue was full (queue policy .drop)
                  6  inc
                  7  not recorded: the state after deep is nested 803 levels deep; a log record holds at most 509
                  8  inc
                     ── new recording session 2025-11-24T17:00:00Z, \(ProcessInfo.processInfo.processName)
                  9  inc
                 10  reset
              state change of entry 10, reset:
                  {
                -   "count": 101
                +   "count": 0
                    … (1 unchanged)
                  }
            """)
    }

    @Test func aMissingLogIsReportedWithItsPathOnce() {
        let path = scratch.path + "/missing.jsonl"
        let failure = replayFailure(log: path, reducer: counterReducer)
        #expect(failure == "cannot replay: \(path): no such file")
        #expect(failure?.components(separatedBy: path).count == 2)
    }

    @Test func withoutAnEnvironmentDirectoryLogsGoUnderThePackageBuildFolder() {
        let directory = TestRecording.recordingsDirectory(sourceFile: #filePath, environment: [:])
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        #expect(directory == packageRoot + "/.build/rewind-recordings")
    }

    @Test func whereThePackageFolderCannotBeWrittenAsOnADeviceLogsGoToTheRecordingsDirectory() {
        // On a device, #filePath names a folder of the Mac that built the tests, and the working directory is `/`.
        let directory = TestRecording.recordingsDirectory(
            sourceFile: "/Users/someone/App/Tests/AppTests/CartTests.swift", environment: ["REWIND_RECORDINGS": ""],
            workingDirectory: "/proc/rewind-not-writable")  // portability: a folder nobody can create, on Darwin too
        // The app's caches on a device; the working directory here, on Linux.
        #expect(directory == Platform.recordingsDirectory(environment: [:]) + "/rewind-recordings")
        #if os(Linux)
        #expect(directory == FileManager.default.currentDirectoryPath + "/rewind-recordings")
        #endif
    }

    @Test(arguments: [
        ("CartTests/checkout()", "CartTests.checkout"),
        ("testCheckout", "testCheckout"),
        ("-[CartTests testCheckout]", "CartTests.testCheckout"),
        ("Suite/with spaces()", "Suite.with.spaces"),
        (#"Suite/checkout(count:title:)(count: 3, title: "gift wrap")"#, "Suite.checkout.count.title.count.3.title.gift.wrap"),
    ])
    func logFileNamesAreSafe(testName: String, fileName: String) {
        #expect(TestRecording.fileName(for: testName) == fileName)
    }
}
