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

/// The entry a reducer call belongs to, bound (task-local) by the recorder's
/// wrappers around the reducer call and by replay around each re-dispatch.
///
/// `@unchecked Sendable`: the mutable lists are guarded by `lock`, since a task the
/// reducer starts inherits the binding and may read a value from another thread.
package final class RecordedValuesContext: @unchecked Sendable {
    @TaskLocal static var current: RecordedValuesContext?

    private let lock = NSLock()
    private let replaying: Bool
    private var captured: [CapturedValue] = []
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

    func read<Value: Codable & Sendable>(_ name: String, _ live: () -> Value) -> Value {
        if !replaying {
            let value = live()
            lock.withLock { captured.append(CapturedValue(name: name, value: value)) }
            return value
        }
        let (json, number): (JSONValue?, Int) = lock.withLock {
            readsByName[name, default: 0] += 1
            return (recorded[name]?.popFirst(), readsByName[name, default: 0])
        }
        let label = number == 1 ? name : "\(name) #\(number)"
        guard let json else {
            lock.withLock { unrecorded.append("\(label): the recording has no value for it") }
            return live()
        }
        do {
            return try JSONValueDecoder().decode(Value.self, from: json)
        } catch {
            lock.withLock { unrecorded.append("\(label): the recorded value \(ReplayText.short(json, limit: 40)) is not a \(Value.self) (\(error))") }
            return live()
        }
    }

    /// The values read while recording, in order.
    var capturedValues: [CapturedValue] { lock.withLock { captured } }

    /// Replay: the reads the recording had no (usable) value for, one line each.
    var unrecordedReads: [String] { lock.withLock { unrecorded } }

    /// Runs `body` (a reducer call) with `values` handed back to what it reads through
    /// ``Recorded``, as replay and `verify` do; returns the reads the values had no (usable)
    /// value for, one line each (`uuid #2: the recording has no value for it`).
    package static func replaying(_ values: [Recorded.Value], _ body: () -> Void) -> [String] {
        let context = RecordedValuesContext(replaying: values)
        $current.withValue(context) { body() }
        return context.unrecordedReads
    }

    /// Runs `body` with a fresh recording context; returns its result and what it read.
    static func capturing<Result>(_ body: () throws -> Result) rethrows -> (Result, [CapturedValue]) {
        let context = RecordedValuesContext()
        let result = try $current.withValue(context) { try body() }
        return (result, context.capturedValues)
    }
}
