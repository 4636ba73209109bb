import Recorder
import XCTest

extension XCTestCase {
    /// A recorder for this test whose log is kept, with a readable report, when
    /// the test fails, and deleted when it passes (unless `REWIND_KEEP=1`).
    ///
    /// ```swift
    /// func testCheckout() throws {
    ///     let store = Store(initialState: Cart(), reducer: try recordTest().recording(cartReducer))
    ///     store.send(.add(item))
    ///     XCTAssertEqual(store.state.total, 12)
    /// }
    /// ```
    ///
    /// XCTest on Linux has no attachments, so a failing test's report is added to it
    /// as one more failure message, at the `recordTest()` line.
    public func recordTest(file: StaticString = #filePath, line: UInt = #line) throws -> ActionRecorder {
        let recording = try TestRecording(testName: name, sourceFile: "\(file)")
        addTeardownBlock { [weak self] in
            let failed = (self?.testRun?.totalFailureCount ?? 0) > 0
            if let report = recording.finish(failed: failed, printing: !failed), failed {
                XCTFail(report, file: file, line: line)
            }
        }
        return recording.recorder
    }
}
