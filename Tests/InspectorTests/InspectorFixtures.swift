import Recorder
@testable import Inspector

/// A small todo-app recording used by the screen tests.
enum InspectorFixtures {
    static func todoTimeline() -> InMemoryTimeline {
        var state: JSONValue = ["todos": [], "filter": "all", "user": ["name": "Ada", "email": "ada@example.com"]]
        var steps: [InMemoryTimeline.Step] = [.init("app/launch", state: state, at: 0)]
        func add(_ title: String, at time: Double) {
            var todos = state["todos"]?.arrayValue ?? []
            todos.append(["title": .string(title), "done": false])
            state = set(state, "todos", .array(todos))
            steps.append(.init("todo/add", ["title": .string(title)], state: state, at: time))
        }
        add("Buy milk", at: 0.5)
        add("Write tests", at: 1.25)
        var todos = state["todos"]!.arrayValue!
        todos[0] = ["title": "Buy milk", "done": true]
        state = set(state, "todos", .array(todos))
        steps.append(.init("todo/toggle", ["index": 0], state: state, at: 2))
        state = set(state, "filter", "active")
        steps.append(.init("filter/set", ["filter": "active"], state: state, at: 3.5))
        todos = state["todos"]!.arrayValue!
        todos.append(["title": "Sync done", "done": false])
        state = set(state, "todos", .array(todos))
        steps.append(.init("sync/loaded", ["count": 3], state: state, at: 4.125, fromEffect: true))
        return InMemoryTimeline(name: "todo.jsonl", steps: steps)
    }

    static func set(_ value: JSONValue, _ key: String, _ member: JSONValue) -> JSONValue {
        guard var object = value.objectValue else { return value }
        object[key] = member
        return .object(object)
    }

    static func model(_ source: any TimelineSource = todoTimeline(), columns: Int = 80, rows: Int = 24) -> InspectorModel {
        var model = InspectorModel(source: source, size: ScreenSize(columns: columns, rows: rows))
        // Entries, not the clock, end a scan slice: a loaded machine cannot change what a screen shows.
        model.scans.scanBudget = ScanBudget(entriesPerEvent: 1_000_000, timePerEvent: nil)
        return model
    }
}

extension InspectorModel {
    /// Feeds keys typed as text (`"jj/todo\n"`); `\n` is Enter, `\t` Tab, `\u{1b}` Esc.
    mutating func type(_ text: String) {
        for character in text {
            switch character {
            case "\n": send(.enter)
            case "\t": send(.tab)
            case "\u{1b}": send(.escape)
            default: send(.character(character))
            }
        }
    }

    @discardableResult
    mutating func send(_ key: Key) -> [InspectorEffect] { reduce(&self, .key(key)) }

    /// The screen a user would see, as text.
    var screenText: String { render(self, size: size).plainText }
}

extension LogFixture {
    /// The todo recording from `InspectorFixtures`, as a file in a fresh temporary directory.
    static func todoLog(keyframeInterval: Int = 3, damageLine: Int? = nil, tornTail: Bool = false) throws -> String {
        let timeline = InspectorFixtures.todoTimeline()
        let steps = timeline.steps.map { Step(type: $0.actionType, payload: $0.payload, state: $0.state, fromEffect: $0.fromEffect) }
        let times = timeline.steps.map(\.timeOffset)
        return try write(steps, times: times, keyframeInterval: keyframeInterval, damageLine: damageLine, tornTail: tornTail)
    }
}

extension InspectorModel {
    /// Does `effects` as the session does: each is performed by `runner` and its answer
    /// reduced, then background work is waited for (not slept for) and its events reduced,
    /// until nothing more comes back.
    mutating func run(_ effects: [InspectorEffect], with runner: EffectRunner) {
        var pending = effects
        while true {
            while !pending.isEmpty {
                for event in runner.perform(pending.removeFirst()) { pending += reduce(&self, event) }
            }
            runner.waitUntilIdle()
            let events = runner.takeEvents()
            guard !events.isEmpty else { return }
            for event in events { pending += reduce(&self, event) }
        }
    }

    /// Types `text` (as ``type(_:)``) with `runner` doing each key's effects.
    mutating func type(_ text: String, running runner: EffectRunner) {
        for character in text {
            let key: Key = switch character {
            case "\n": .enter
            case "\t": .tab
            case "\u{1b}": .escape
            default: .character(character)
            }
            run(send(key), with: runner)
        }
    }

    /// A tick, with what it starts (the compatibility check) run to the end.
    mutating func settle(with runner: EffectRunner) { run(reduce(&self, .tick), with: runner) }
}
