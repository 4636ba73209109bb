import Foundation
import Recorder
import SampleDomains

/// Logs the recorder writes for the sample todo domain (`TodoDomain`), for tests
/// that read what a recorder writes rather than hand-made records.
package enum RecordedTodoLog {
    /// Records `count` actions chosen at random from `seed` (adds, toggles, tags,
    /// deletes, filters and clearing, on the ids that exist) into a new log at `path`,
    /// a keyframe every `keyframeInterval` entries and a fixed clock.
    package static func write(count: Int, seed: UInt64, keyframeInterval: Int, to path: String) throws {
        var options = ActionRecorder.Options()
        options.keyframeInterval = keyframeInterval
        options.clock = .fixed(start: 1_764_000_000, step: 0.25)
        let recorder = try ActionRecorder(file: path, options: options)
        let reduce = recorder.recording(TodoDomain.reduce)
        var state = TodoState()
        var generator = SplitMix64(seed: seed)
        for step in 0..<count {
            reduce(&state, action(step, in: state, &generator))
        }
        try recorder.close()
    }

    /// One action that makes sense for `state`: mostly edits of existing todos, an add when there are none.
    private static func action(_ step: Int, in state: TodoState, _ generator: inout SplitMix64) -> TodoAction {
        let ids = state.todos.map(\.id)
        guard let id = ids.randomElement(using: &generator) else { return .add(title: "first task \(step)") }
        switch generator.next() % 12 {
        case 0..<4: return .add(title: "task \(step) " + String(repeating: "y", count: Int(generator.next() % 24)))
        case 4..<7: return .toggle(id: id)
        case 7..<9: return .tag(id: id, tag: "tag\(generator.next() % 4)")
        case 9: return .delete(id: id)
        case 10: return .setFilter([.all, .active, .done][Int(generator.next() % 3)])
        default: return .clearCompleted
        }
    }
}
