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

/// ``expectReplays(log:reducer:sourceLocation:)`` for a ReSwift reducer:
/// `expectReplays(log: path, reducer: ReSwiftReducer(appReducer, actions: [AddTodo.self]))`.
public func expectReplays<State, Action>(
    log path: String, reducer: ReSwiftReducer<State, Action>, sourceLocation: SourceLocation = #_sourceLocation
) {
    if let failure = replayFailure(log: path, verify: { (replay) throws(ReplayFailure) in try replay.verify(reducer) }) {
        Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation)
    }
}

/// ``XCTAssertReplays(log:reducer:file:line:)`` for a ReSwift reducer.
public func XCTAssertReplays<State, Action>(
    log path: String, reducer: ReSwiftReducer<State, Action>, file: StaticString = #filePath, line: UInt = #line
) {
    if let failure = replayFailure(log: path, verify: { (replay) throws(ReplayFailure) in try replay.verify(reducer) }) {
        XCTFail(failure, file: file, line: line)
    }
}

/// The failure message, or nil when every entry replays to its recorded state.
func replayFailure<State: Codable, Action: Decodable, Result>(log path: String, reducer: (inout State, Action) -> Result) -> String? {
    withoutActuallyEscaping(reducer) { reducer in
        replayFailure(log: path, verify: { (replay) throws(ReplayFailure) in try replay.verify(reducer: reducer) })
    }
}

func replayFailure(log path: String, verify: (Replay) throws(ReplayFailure) -> Void) -> String? {
    let replay: Replay
    do {
        replay = try Replay(log: path)
    } catch {
        // The error names the file already.
        return "cannot replay: \(error)"
    }
    do {
        try verify(replay)
        return nil
    } catch {
        switch error {
        case .diverged(let divergence): return "\(path) no longer replays: \(divergence)"
        case .cannotReplay(let reason): return "\(path) cannot be replayed: \(reason)"
        }
    }
}
