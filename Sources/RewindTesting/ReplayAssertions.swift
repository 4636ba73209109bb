import Foundation
import Recorder
import Testing
import XCTest

/// Fails the current Swift Testing test when the recording at `log` no longer
/// replays on `reducer`: the failure names the first diverging entry, its
/// action and a recorded → recomputed diff.
///
/// ```swift
/// @Test func checkoutStillReplays() {
///     expectReplays(log: "Fixtures/checkout.jsonl", reducer: cartReducer)
/// }
/// ```
public func expectReplays<State: Codable, Action: Decodable, Result>(
    log path: String, reducer: (inout State, Action) -> Result, sourceLocation: SourceLocation = #_sourceLocation
) {
    if let failure = replayFailure(log: path, reducer: reducer) {
        Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation)
    }
}

/// The XCTest form of ``expectReplays(log:reducer:sourceLocation:)``.
public func XCTAssertReplays<State: Codable, Action: Decodable, Result>(
    log path: String, reducer: (inout State, Action) -> Result, file: StaticString = #filePath, line: UInt = #line
) {
    if let failure = replayFailure(log: path, reducer: reducer) {
        XCTFail(failure, file: file, line: line)
    }
}

/// The failure message, or nil when every entry replays to its recorded state.
func replayFailure<State: Codable, Action: Decodable, Result>(log path: String, reducer: (inout State, Action) -> Result) -> String? {
    do {
        try Replay(log: path).verify(reducer: reducer)
        return nil
    } catch let divergence as ReplayDivergence {
        return "\(path) no longer replays: \(divergence)"
    } catch {
        return "\(path) cannot be replayed: \(error)"
    }
}
