// Code written against the names this release replaced (issue 33). It is not part of
// any target: `RenamedDeclarationTests` type-checks it against the built modules and
// expects it to compile with one deprecation warning per old name, naming the new one.
// Delete it with the deprecated aliases.
import Foundation
import Inspector
import Recorder
import RewindJSON
import RewindTesting

struct Counter: Codable { var count = 0 }
enum CounterAction: Codable { case increment }

func usesEveryOldName(entry: LogEntry, reader: LogReader, replay: Replay) throws {
    let action: RecordedAction = entry.action
    _ = action.name
    let change: LogRefresh = reader.refresh()
    _ = change
    let report: CompatibilityReport = replay.compatibility(state: Counter.self, action: CounterAction.self)
    _ = report.isFullyCompatible
    let bytes: [UInt8] = try JSONEncoding.bytes(of: Counter())
    _ = bytes
    let invariant = Invariant("never negative") { (state: Counter) in state.count >= 0 }
    _ = invariant.name
}

func usesTheOldAttachmentName(recorder: ActionRecorder) {
    let work = WorkRecording<Int, String>(recorder: recorder)
    work.applied(1)
}

func usesTheOldTestingNames() throws {
    var steps = try RecordedSteps(fixture: "Counter.fixture.jsonl", reducer: { (state: inout Counter, _: CounterAction) in state.count += 1 })
    steps.send(#""increment""#, expecting: ["/count": "1"])
    let error: RecordedStepsError? = nil
    _ = error
    #if compiler(>=6.1)
    let trait: RecordedTrait = .recorded
    _ = trait
    #endif
}
