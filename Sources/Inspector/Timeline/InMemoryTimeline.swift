import Recorder
import RewindQuery

/// A timeline held in memory: the test double for `TimelineSource`, and the
/// shape a replayed branch can take later.
final class InMemoryTimeline: TimelineSource {
    struct Step {
        var actionType: String
        var payload: JSONValue
        var state: JSONValue
        var timeOffset: Double
        var fromEffect: Bool
        var duration: Double? = nil
        /// The paths the entry says it changed, where they are coarser than the diff of the states
        /// (an imported log's `replace /todos`); nil: worked out from the states.
        var changedPaths: [JSONPointer]? = nil

        init(_ actionType: String, _ payload: JSONValue = .null, state: JSONValue, at timeOffset: Double = 0, fromEffect: Bool = false) {
            self.actionType = actionType
            self.payload = payload
            self.state = state
            self.timeOffset = timeOffset
            self.fromEffect = fromEffect
        }
    }

    let name: String
    private(set) var steps: [Step]
    /// Steps written but not yet visible (follow-mode tests append here and call `refresh`).
    var pending: [Step] = []
    var indexing: IndexingProgress = .complete
    var damage: [DamagedRecord] = []
    var tornTail: DamagedRecord?
    var initialState: JSONValue?
    var datePaths: [String] = []
    var keyframeInterval = 100

    init(name: String = "memory.jsonl", steps: [Step]) {
        self.name = name
        self.steps = steps
    }

    var count: Int { steps.count }

    func entry(at index: Int) -> TimelineEntry? {
        guard steps.indices.contains(index) else { return nil }
        let step = steps[index]
        let changed = step.changedPaths ?? (index == 0 ? [] : JSONDiff.patch(from: steps[index - 1].state, to: step.state).operations.map(\.path))
        return TimelineEntry(index: index, timeOffset: step.timeOffset, actionType: step.actionType, payload: step.payload,
                             changedPaths: changed, fromEffect: step.fromEffect, isKeyframe: index % keyframeInterval == 0,
                             duration: step.duration, sequence: Int64(index), causeSequence: step.fromEffect ? Int64(index - 1) : nil)
    }

    struct MissingState: Error, CustomStringConvertible {
        var index: Int
        var description: String { "no state at entry \(index + 1)" }
    }

    func state(at index: Int) throws -> JSONValue {
        guard steps.indices.contains(index) else { throw MissingState(index: index) }
        return steps[index].state
    }

    func refresh() -> FollowNotice? {
        steps += pending
        pending = []
        return nil
    }
}
