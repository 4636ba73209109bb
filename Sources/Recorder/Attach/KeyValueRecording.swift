/// Records a typed key-value storage (what apps wrap `UserDefaults` in) like a
/// store: every `setValue` is an action (`set key: "volume", value: 7`) and the
/// storage's contents are the state, so settings changes can be stepped through,
/// diffed and replayed like any store.
///
/// ```swift
/// struct RecordingStorage: KeyValueStorage {          // your app's protocol
///     let base: any KeyValueStorage
///     let recording: KeyValueRecording
///     func value<T: Codable>(forKey key: String) -> T? { base.value(forKey: key) }
///     func setValue<T: Codable>(_ value: T?, forKey key: String) {
///         base.setValue(value, forKey: key)
///         recording.set(value, forKey: key)
///     }
/// }
/// ```
///
/// The contents are the values set through it, starting from `initial`. Calls may
/// come from any thread; entries are numbered in the order the calls arrive.
public final class KeyValueRecording: Sendable {
    /// One change of the storage.
    public enum Action: Codable, Sendable, Equatable {
        /// `value` nil removes the key.
        case set(key: String, value: JSONValue?)
    }

    /// The reducer the log replays with: applies a `set` to the contents.
    ///
    /// ```swift
    /// try Replay(log: "settings.jsonl").verify(reducer: KeyValueRecording.reduce)
    /// ```
    public static func reduce(_ contents: inout [String: JSONValue], _ action: Action) {
        switch action {
        case .set(let key, let value): contents[key] = value
        }
    }

    private let recorder: ActionRecorder
    private let contents: Locked<[String: JSONValue]>

    /// Records into `recorder`; `initial` is what the storage holds already (the log's initial state).
    public init(recorder: ActionRecorder, initial: [String: JSONValue] = [:]) {
        self.recorder = recorder
        contents = Locked(initial)
    }

    /// Records that `value` was stored under `key` (nil: removed). A value that cannot be
    /// encoded is recorded as `null`, never a crash.
    public func set<Value: Encodable>(_ value: Value?, forKey key: String, fileID: StaticString = #fileID, line: UInt = #line) {
        let json: JSONValue? = value.map { (try? JSONEncoding.value(of: $0)) ?? .null }
        contents.withLock { contents in
            let before = contents
            let action = Action.set(key: key, value: json)
            Self.reduce(&contents, action)
            recorder.record(action, state: contents, before: before, fileID: fileID, line: line)
        }
    }

    /// What the storage holds, as recorded.
    public var current: [String: JSONValue] { contents.withLock { $0 } }
}
