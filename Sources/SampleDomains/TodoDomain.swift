/// Sample domain 1: a todo list with add, toggle, delete, filter and nested state.
///
/// ```swift
/// var state = TodoState()
/// TodoDomain.reduce(&state, .add(title: "Buy milk"))
/// ```
public enum TodoDomain {
    /// Adds, toggles, deletes and filters todos. Deterministic: ids come from
    /// `state.nextID`, never from `UUID()`, so a recording replays exactly.
    public static func reduce(_ state: inout TodoState, _ action: TodoAction) {
        switch action {
        case .add(let title):
            state.todos.append(Todo(id: state.nextID, title: title))
            state.nextID += 1
        case .toggle(let id):
            guard let index = state.todos.firstIndex(where: { $0.id == id }) else { return }
            state.todos[index].isDone.toggle()
        case .delete(let id):
            state.todos.removeAll { $0.id == id }
        case .tag(let id, let tag):
            guard let index = state.todos.firstIndex(where: { $0.id == id }) else { return }
            state.todos[index].tags.append(tag)
        case .setFilter(let filter):
            state.filter = filter
        case .clearCompleted:
            state.todos.removeAll { $0.isDone }
        }
        state.stats = TodoState.Stats(total: state.todos.count, done: state.todos.filter(\.isDone).count)
    }

    /// A short, realistic session.
    public static let script: [TodoAction] = [
        .add(title: "Buy milk"), .add(title: "Write replay docs"), .add(title: "Call the bank"),
        .tag(id: 2, tag: "work"), .toggle(id: 1), .setFilter(.active), .add(title: "Fix the bike"),
        .toggle(id: 3), .delete(id: 4), .setFilter(.done), .clearCompleted, .setFilter(.all),
    ]
}

public struct TodoState: Codable, Equatable, Sendable {
    public struct Stats: Codable, Equatable, Sendable {
        public var total = 0
        public var done = 0
    }

    public var todos: [Todo] = []
    public var filter: TodoFilter = .all
    public var nextID = 1
    public var stats = Stats()

    public init() {}
}

public struct Todo: Codable, Equatable, Sendable {
    public var id: Int
    public var title: String
    public var isDone = false
    public var tags: [String] = []

    public init(id: Int, title: String) {
        self.id = id
        self.title = title
    }
}

public enum TodoFilter: String, Codable, Sendable {
    case all, active, done
}

public enum TodoAction: Codable, Equatable, Sendable {
    case add(title: String)
    case toggle(id: Int)
    case delete(id: Int)
    case tag(id: Int, tag: String)
    case setFilter(TodoFilter)
    case clearCompleted
}
