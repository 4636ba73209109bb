import Foundation
@testable import Recorder

/// A fresh directory under /tmp, removed when the value is released.
final class TemporaryDirectory {
    let path: String

    init() {
        var template = Array("/tmp/rewind-tests-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func file(_ name: String) -> String { path + "/" + name }
}


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
func testOptions(keyframeInterval: Int = 32) -> Recorder.Options {
    var options = Recorder.Options()
    options.keyframeInterval = keyframeInterval
    options.clock = .fixed(start: 1_764_000_000, step: 0.5)
    return options
}

/// Records `actions` through `todoReducer`; returns the state after each action.
@discardableResult
func recordTodos(_ actions: [TodoAction], to path: String, options: Recorder.Options = testOptions()) throws -> [TodoState] {
    let recorder = try Recorder(file: path, options: options)
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

func readLines(_ path: String) -> [String] {
    let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    return text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
}

func fileBytes(_ path: String) -> [UInt8] {
    Array(FileManager.default.contents(atPath: path) ?? Data())
}

/// Appends `bytes` to the file at `path` with `write(2)` (`FileHandle.write` traps on EINTR).
func append(_ bytes: [UInt8], to path: String) {
    let descriptor = open(path, O_WRONLY | O_APPEND)
    precondition(descriptor >= 0, "cannot open \(path)")
    var written = 0
    while written < bytes.count {
        let result = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
        if result > 0 { written += result } else if result < 0 && errno == EINTR { continue } else { break }
    }
    close(descriptor)
}

func writeBytes(_ bytes: [UInt8], to path: String) {
    _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
}

/// `line` (one record, with or without its newline) without its framing:
/// the object up to, not including, `,"n":N` (format 2) or `,"crc":…`, ready to be sealed again.
func unsealed(_ line: [UInt8]) -> [UInt8] {
    var text = String(decoding: line, as: UTF8.self)
    if text.hasSuffix("\n") { text.removeLast() }
    text.removeLast(18)  // ,"crc":"xxxxxxxx"}
    if let range = text.range(of: #","n":[0-9]+$"#, options: .regularExpression) { text.removeSubrange(range) }
    return Array(text.utf8)
}

/// Seals `record` (an object missing its closing brace) as record `number` of the
/// last session in the log at `path`, as the recorder would have: a test that
/// adds a record by hand makes it a genuine one, not a foreign line.
func sealAsRecord(_ record: [UInt8], number: Int64, ofLastSessionIn path: String) -> [UInt8] {
    let headers = String(decoding: fileBytes(path), as: UTF8.self).split(separator: "\n").filter { $0.hasPrefix(#"{"kind":"header""#) }
    var chain = LogChain()
    chain.key = UInt32(headers.last!.suffix(10).prefix(8), radix: 16)!
    chain.nextNumber = number
    var bytes = record
    LogLine.seal(&bytes, recordStart: 0, chain: &chain)
    return bytes
}
