import Foundation
@testable import Recorder
import RewindJSON

// A small todo domain with nested state, used across the recorder tests.
struct Todo: Codable, Equatable {
    var id: Int
    var title: String
    var done = false
    var tags: [String] = []
}

struct TodoState: Codable, Equatable {
    var todos: [Todo] = []
    var filter = Filter.all
    var nextID = 0
    var stats = Stats()

    enum Filter: String, Codable { case all, active, done }
    struct Stats: Codable, Equatable { var added = 0; var deleted = 0 }
}

enum TodoAction: Codable, Equatable {
    case add(title: String)
    case toggle(id: Int)
    case delete(id: Int)
    case tag(id: Int, String)
    case setFilter(TodoState.Filter)
}

func todoReducer(_ state: inout TodoState, _ action: TodoAction) {
    switch action {
    case .add(let title):
        state.todos.append(Todo(id: state.nextID, title: title))
        state.nextID += 1
        state.stats.added += 1
    case .toggle(let id):
        if let index = state.todos.firstIndex(where: { $0.id == id }) { state.todos[index].done.toggle() }
    case .delete(let id):
        state.todos.removeAll { $0.id == id }
        state.stats.deleted += 1
    case .tag(let id, let tag):
        if let index = state.todos.firstIndex(where: { $0.id == id }) { state.todos[index].tags.append(tag) }
    case .setFilter(let filter):
        state.filter = filter
    }
}

func randomTodoActions(count: Int, seed: UInt64) -> [TodoAction] {
    var generator = SplitMix64(seed: seed)
    var ids: [Int] = []
    var next = 0
    var actions: [TodoAction] = []
    for _ in 0..<count {
        let roll = Int.random(in: 0..<10, using: &generator)
        if ids.isEmpty || roll < 3 {
            actions.append(.add(title: "task \(next) " + String(repeating: "x", count: Int.random(in: 0..<20, using: &generator))))
            ids.append(next)
            next += 1
        } else if roll < 6 {
            actions.append(.toggle(id: ids.randomElement(using: &generator)!))
        } else if roll < 7 {
            let id = ids.remove(at: Int.random(in: 0..<ids.count, using: &generator))
            actions.append(.delete(id: id))
        } else if roll < 9 {
            actions.append(.tag(id: ids.randomElement(using: &generator)!, "t\(roll)"))
        } else {
            actions.append(.setFilter([.all, .active, .done].randomElement(using: &generator)!))
        }
    }
    return actions
}

/// Options with a small keyframe interval and a fixed clock.
func testOptions(keyframeInterval: Int = 32) -> ActionRecorder.Options {
    var options = ActionRecorder.Options()
    options.keyframeInterval = keyframeInterval
    options.clock = .fixed(start: 1_764_000_000, step: 0.5)
    return options
}

/// Records `actions` through `todoReducer`; returns the state after each action.
@discardableResult
func recordTodos(_ actions: [TodoAction], to path: String, options: ActionRecorder.Options = testOptions()) throws -> [TodoState] {
    let recorder = try ActionRecorder(file: path, options: options)
    let reducer = recorder.recording(todoReducer)
    var state = TodoState()
    var states: [TodoState] = []
    for action in actions {
        reducer(&state, action)
        states.append(state)
    }
    try recorder.close()
    return states
}
