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

/// A private directory per test, so tests running in parallel never share
/// logs; removed when the test's suite value goes away.
final class ScratchDirectory: Sendable {
    let path = NSTemporaryDirectory() + "rewind-testing-" + UUID().uuidString

    init() { try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// A log path inside the directory.
    var log: String { path + "/recipe.jsonl" }
}

@Suite struct TestRecordingTests {
    let scratch = ScratchDirectory()

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
                #1 increment {"increment":{}}
                #2 reset {"reset":{}}
                #3 add {"add":{"_0":5}}
                #4 increment {"increment":{}}
                #5 add {"add":{"_0":2}}
              state change of #5 add:
                  {
                -   "count": 6
                +   "count": 8
                    "history": [
                      … (1 unchanged)
                +     2
                    ]
                  }
            """)
    }

    @Test func withoutAnEnvironmentDirectoryLogsGoUnderThePackageBuildFolder() {
        let directory = TestRecording.recordingsDirectory(sourceFile: #filePath, environment: [:])
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        #expect(directory == packageRoot + "/.build/rewind-recordings")
    }

    @Test(arguments: [
        ("CartTests/checkout()", "CartTests.checkout"),
        ("testCheckout", "testCheckout"),
        ("-[CartTests testCheckout]", "CartTests.testCheckout"),
        ("Suite/with spaces()", "Suite.with.spaces"),
    ])
    func logFileNamesAreSafe(testName: String, fileName: String) {
        #expect(TestRecording.fileName(for: testName) == fileName)
    }
}
