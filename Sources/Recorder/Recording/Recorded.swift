import Foundation

/// Outside values a reducer reads — the time, new ids, random numbers, a price
/// from a cache — recorded into the entry, so replay and `verify` hand the
/// reducer the same values and reproduce the recording exactly.
///
/// ```swift
/// case .addTodo(let title):
///     state.todos.append(Todo(id: Recorded.uuid(), title: title, created: Recorded.now()))
/// case .checkout:
///     state.total = state.cart.count * Recorded.value("price") { priceList.current }
/// ```
///
/// While a recorder's wrapper (``Recorder/recording(_:)``, ``Recorder/middleware()``,
/// the reference `Store` (RewindStore)) runs the reducer, each value read is written into that
/// call's entry (the `values` member of the log). During replay the reducer gets
/// the recorded values back in the order it read them, per name; a read the
/// recording has no value for is reported as a divergence of that entry. Outside
/// both, these are the live values (`Date()`, `UUID()`, the closure's result).
public enum Recorded {
    /// The current date; recorded, and replayed as recorded.
    public static func now() -> Date { value("now") { Date() } }

    /// A new random UUID; recorded, and replayed as recorded.
    public static func uuid() -> UUID { value("uuid") { UUID() } }

    /// A random integer in `range`; recorded, and replayed as recorded.
    public static func random(in range: ClosedRange<Int>) -> Int { value("random") { Int.random(in: range) } }

    /// The value `read` returns, recorded under `name`; during replay the recorded
    /// value instead (`read` is then not called).
    public static func value<Value: Codable & Sendable>(_ name: String, _ read: () -> Value) -> Value {
        guard let context = RecordedValuesContext.current else { return read() }
        return context.read(name, read)
    }

    /// One outside value as the log holds it (``LogEntry/recordedValues``).
    public struct Value: Sendable, Equatable {
        /// What was read: `now`, `uuid`, `random`, or the name given to ``Recorded/value(_:_:)``.
        public var name: String
        /// The value, encoded as the recorder encodes states.
        public var json: JSONValue

        /// A value named `name`, as replay hands it back: `Recorded.Value(name: "now", json: 786451200.5)`.
        public init(name: String, json: JSONValue) {
            self.name = name
            self.json = json
        }
    }
}

/// A value read while recording, encoded later by the writer thread.
struct CapturedValue {
    var name: String
    var value: any Sendable
}

/// The entry a reducer call belongs to, bound to the thread that runs the call
/// by the recorder's wrappers around the reducer and by replay around each
/// re-dispatch.
///
/// A thread binding (a `pthread` key), not a task-local: the reducer is
/// synchronous and reads on its own thread, and binding a task-local costs an
/// allocation and a runtime call per dispatch, a visible part of what recording
/// added to the app's thread (docs/PERFORMANCE.md, `## Recorder`). A task the
/// reducer starts runs after the entry was handed over, so it never could add
/// to it; it finds no binding and reads live values, when recording and when
/// replaying alike.
///
/// Used only on the thread it is bound to, so it needs no lock (and no dynamic
/// exclusivity checks, which cost a thread-local lookup per access).
package final class RecordedValuesContext {
    private let replaying: Bool
    @exclusivity(unchecked) private var captured: [CapturedValue] = []
    /// Replay: recorded values by name, in the order they were read.
    private var recorded: [String: ArraySlice<JSONValue>] = [:]
    private var readsByName: [String: Int] = [:]
    private var unrecorded: [String] = []

    /// A context that records what the reducer reads.
    init() { replaying = false }

    /// A context that hands back `values`, as recorded for one entry.
    init(replaying values: [Recorded.Value]) {
        replaying = true
        for value in values { recorded[value.name, default: []].append(value.json) }
    }

    /// The thread-specific key the binding is held under (created once per process).
    static let bindingKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// The context bound to the calling thread, if any.
    static var current: RecordedValuesContext? {
        guard let bound = pthread_getspecific(bindingKey) else { return nil }
        return Unmanaged<RecordedValuesContext>.fromOpaque(bound).takeUnretainedValue()
    }

    /// Runs `body` with this context bound to the calling thread (`key` is
    /// ``bindingKey``, which a caller on a hot path reads once and keeps). The
    /// binding does not retain the context: every caller holds it past the call.
    func bound<Result>(key: pthread_key_t = RecordedValuesContext.bindingKey, _ body: () throws -> Result) rethrows -> Result {
        let outer = pthread_getspecific(key)
        pthread_setspecific(key, Unmanaged.passUnretained(self).toOpaque())
        defer { pthread_setspecific(key, outer) }
        return try body()
    }

    func read<Value: Codable & Sendable>(_ name: String, _ live: () -> Value) -> Value {
        if !replaying {
            let value = live()
            captured.append(CapturedValue(name: name, value: value))
            return value
        }
        readsByName[name, default: 0] += 1
        let json = recorded[name]?.popFirst()
        let number = readsByName[name, default: 0]
        let label = number == 1 ? name : "\(name) #\(number)"
        guard let json else {
            unrecorded.append("\(label): the recording has no value for it")
            return live()
        }
        do {
            return try JSONValueDecoder().decode(Value.self, from: json)
        } catch {
            unrecorded.append("\(label): the recorded value \(ReplayText.short(json, limit: 40)) is not a \(Value.self) (\(error))")
            return live()
        }
    }

    /// Whether the reducer read any value since the last ``takeCaptured()``.
    var hasCaptured: Bool { !captured.isEmpty }

    /// Replay: the reads the recording had no (usable) value for, one line each.
    var unrecordedReads: [String] { unrecorded }

    /// The values read so far, in order; the list starts empty again (a recorder's
    /// wrapper keeps one context from call to call).
    func takeCaptured() -> [CapturedValue] {
        defer { captured = [] }
        return captured
    }

    /// Runs `body` (a reducer call) with `values` handed back to what it reads through
    /// ``Recorded``, as replay and `verify` do; returns the reads the values had no (usable)
    /// value for, one line each (`uuid #2: the recording has no value for it`).
    package static func replaying(_ values: [Recorded.Value], _ body: () -> Void) -> [String] {
        let context = RecordedValuesContext(replaying: values)
        context.bound { body() }
        return context.unrecordedReads
    }

    /// Runs `body` with a fresh recording context; returns its result and what it read.
    static func capturing<Result>(_ body: () throws -> Result) rethrows -> (Result, [CapturedValue]) {
        let context = RecordedValuesContext()
        let result = try context.bound { try body() }
        return (result, context.takeCaptured())
    }
}
