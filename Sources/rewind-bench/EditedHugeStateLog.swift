import Foundation
import Recorder

/// A recording whose state is one huge list (about 30 MB of JSON: 100,000
/// objects at full size), written by the recorder (format 2 or later): the log the
/// inspector's huge-state figures are measured on. The first entry loads the
/// list (its diff is the whole list), the rest edit, append, remove and
/// recount items, as an app working on a big document does. (`search`'s
/// `HugeStateLog` starts from the whole list and updates one value per entry:
/// what a query reads, not what a person browses.)
enum EditedHugeStateLog {
    struct Owner: Codable, Sendable {
        var name: String
        var email: String
    }

    struct Item: Codable, Sendable {
        var id: Int
        var title: String
        var isDone: Bool
        var priority: Int
        var tags: [String]
        var notes: String
        var owner: Owner
        var createdAt: Double
    }

    struct Stats: Codable, Sendable {
        var count: Int
        var done: Int
        var lastEdited: Int?
    }

    struct State: Codable, Sendable {
        var items: [Item] = []
        var stats = Stats(count: 0, done: 0, lastEdited: nil)
        var filter = "all"
    }

    enum Action: Codable, Sendable {
        case load(count: Int)
        case toggle(id: Int)
        case rename(id: Int, title: String)
        case append(title: String)
        case remove(index: Int)
        case recount
        case setFilter(String)
    }

    static func item(_ id: Int) -> Item {
        let tags = [["home"], ["work", "urgent"], ["errand", "later", "maybe"]][id % 3]
        return Item(id: id, title: "Item \(id): look into the thing", isDone: id % 7 == 0, priority: id % 5, tags: tags,
                    notes: "Notes for item \(id), long enough to wrap on a narrow terminal and to be worth reading whole",
                    owner: Owner(name: "Ada Lovelace", email: "ada\(id % 100)@example.com"), createdAt: 1_764_400_000 + Double(id) / 4)
    }

    static func reduce(_ state: inout State, _ action: Action) {
        switch action {
        case .load(let count):
            state.items = (0..<count).map(item)
            state.stats.count = count
        case .toggle(let id):
            guard let index = state.items.firstIndex(where: { $0.id == id }) else { return }
            state.items[index].isDone.toggle()
            state.stats.lastEdited = id
        case .rename(let id, let title):
            guard let index = state.items.firstIndex(where: { $0.id == id }) else { return }
            state.items[index].title = title
            state.stats.lastEdited = id
        case .append(let title):
            var new = item(state.items.count + 1_000_000)
            new.title = title
            state.items.append(new)
        case .remove(let index):
            guard state.items.indices.contains(index) else { return }
            state.items.remove(at: index)
        case .recount:
            state.stats.count = state.items.count
            state.stats.done = state.items.filter(\.isDone).count
        case .setFilter(let filter):
            state.filter = filter
        }
    }

    /// The actions after the load: edits spread over the list, appends, a removal
    /// near the front (every index after it shifts) and recounts.
    static func edits(items: Int) -> [Action] {
        var actions: [Action] = []
        for step in 0..<36 {
            switch step % 6 {
            case 0: actions.append(.toggle(id: (step * 7_919) % items))
            case 1: actions.append(.rename(id: (step * 104_729) % items, title: "Renamed at step \(step)"))
            case 2: actions.append(.recount)
            case 3: actions.append(.append(title: "Added at step \(step)"))
            case 4: actions.append(step == 10 ? .remove(index: 2) : .toggle(id: items / 2))
            default: actions.append(.setFilter(step % 12 == 5 ? "active" : "all"))
            }
        }
        return actions
    }

    /// Records the load of `items` items and the edits after it to `path`; returns the
    /// byte size of the largest state (the compact JSON of the last one).
    static func write(path: String, items: Int) throws -> Int {
        try? FileManager.default.removeItem(atPath: path)
        let recorder = try ActionRecorder(file: path)
        var state = State()
        let recorded = recorder.recording { (state: inout State, action: Action) in reduce(&state, action) }
        recorded(&state, .load(count: items))
        for action in edits(items: items) { recorded(&state, action) }
        try recorder.close()
        return try JSONEncoding.compact(state).count
    }
}
