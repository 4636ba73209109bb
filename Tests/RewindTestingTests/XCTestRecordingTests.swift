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
        // The assertion, then the report added to the failing test at the recordTest() line.
        XCTAssertEqual(failing.testRun?.totalFailureCount, 2)
        XCTAssertEqual(failing.failures.count, 2)
        let report = try XCTUnwrap(failing.failures.last)
        XCTAssertTrue(report.hasPrefix("Rewind: test failed; recording kept at "), report)
        XCTAssertTrue(report.contains("last actions (of 2):\n    1  increment\n    2  increment\n"), report)
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
    var failures: [String] = []

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        failures.append(description)
        super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
    }

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
