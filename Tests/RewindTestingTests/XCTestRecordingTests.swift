import Foundation
import Recorder
import RewindTesting
import XCTest

final class XCTestRecordingTests: XCTestCase {
    /// Runs nested test cases, one failing on purpose, and checks what
    /// `recordTest()` left behind. The nested failure is reported by XCTest
    /// ("expectedFailureInANestedRun") but does not fail this test run.
    func testAFailingXCTestKeepsItsLogAndAPassingOneDeletesIt() throws {
        let failing = NestedStoreTest(name: "expectedFailureInANestedRun") { test in
            try (test as! NestedStoreTest).exercise(expecting: 99)
        }
        failing.run()
        XCTAssertEqual(failing.testRun?.totalFailureCount, 1)
        let failingPath = try XCTUnwrap(failing.logPath)
        XCTAssertTrue(FileManager.default.fileExists(atPath: failingPath))
        XCTAssertEqual(try LogReader(path: failingPath).entryCount, 2)
        try? FileManager.default.removeItem(atPath: failingPath)

        let passing = NestedStoreTest(name: "passingNestedRun") { test in
            try (test as! NestedStoreTest).exercise(expecting: 2)
        }
        passing.run()
        XCTAssertEqual(passing.testRun?.totalFailureCount, 0)
        let passingPath = try XCTUnwrap(passing.logPath)
        XCTAssertFalse(FileManager.default.fileExists(atPath: passingPath))
    }

}

final class NestedStoreTest: XCTestCase {
    var logPath: String?

    func exercise(expecting count: Int) throws {
        let recorder = try recordTest()
        logPath = recorder.path
        let reducer = recorder.recording(counterReducer)
        var state = Counter()
        reducer(&state, .increment)
        reducer(&state, .increment)
        XCTAssertEqual(state.count, count)
    }
}
