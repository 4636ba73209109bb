import Foundation
import Recorder
import Testing
import XCTest

/// Replays recorded actions through your reducer one at a time and checks,
/// after each, the values the recording saw at the paths that action changed.
/// Other state may differ (the check is not exhaustive), so a test keeps
/// passing while unrelated features evolve. `rewind testgen` writes tests
/// that use it:
///
/// ```swift
/// @Test func checkoutRecording() throws {
///     var steps = try FixtureReplay(fixture: "CheckoutTests.fixture.jsonl", reducer: CartDomain.reduce)
///     // 1. cart.add sku: "A1"
///     steps.send(#"{"add":{"sku":"A1"}}"#, expecting: ["/items/0/sku": #""A1""#, "/total": "12.5"])
/// }
/// ```
///
/// The fixture (a log slice, `rewind export --format jsonl`) gives the state
/// the steps start from, the recorded states that ``Expected/recorded``
/// and ``skip(_:fileID:filePath:line:column:)`` refer to, and the outside values
/// each entry read through `Recorded` (`now()`, `uuid()`, `value`): the reducer gets
/// them back as recorded, as `verify` and `expectReplays` hand them back, and a read
/// the entry has no value for fails the step. Failures name each step by the number
/// `rewind log` gives its entry in the recording the fixture was cut from.
///
/// A ReSwift reducer replays through ``ReSwiftReducer``, which names the action types:
/// `FixtureReplay(fixture: "…", reducer: ReSwiftReducer(appReducer, actions: [AddTodo.self]))`.
public struct FixtureReplay<State: Codable, Action> {
    /// Which test library reports a failed step.
    public enum Framework: Sendable {
        case swiftTesting
        case xctest
    }

    /// What the recording saw at a path after a step.
    public enum Expected: Sendable, ExpressibleByStringLiteral, ExpressibleByNilLiteral {
        /// This JSON (`"true"`, `#""Ann""#`, `"[1,2]"`).
        case json(String)
        /// The path did not exist (`nil` in the literal).
        case absent
        /// The value the fixture recorded there (for values too long to write inline).
        case recorded

        public init(stringLiteral value: String) { self = .json(value) }
        public init(nilLiteral: ()) { self = .absent }
    }

    /// The state after the last step.
    public private(set) var state: State
    /// Steps sent so far.
    public private(set) var stepCount = 0
    private let reduce: (inout State, Action) -> Void
    private let decodeAction: ActionDecoding<Action>
    private let framework: Framework
    private let fixture: LogReader

    /// Starts from the state before the fixture's first entry.
    ///
    /// - Parameters:
    ///   - fixture: the fixture's path; a relative path is looked up beside `filePath` (the test file).
    ///   - reducer: your reducer; what it returns (effects) is ignored.
    /// - Throws: when the fixture cannot be read or its starting state does not decode as `State`.
    public init<Result>(fixture: String, reducer: @escaping (inout State, Action) -> Result,
                        framework: Framework = .swiftTesting, filePath: String = #filePath) throws where Action: Decodable {
        try self.init(fixture: fixture, framework: framework, filePath: filePath, reduce: { state, action in _ = reducer(&state, action) },
                      decodeAction: ActionDecoding { _, payload, decoder throws(JSONValueDecodingError) in try decoder.decode(Action.self, from: payload) })
    }

    /// Starts from the state before the fixture's first entry, for a ReSwift reducer: each
    /// action is decoded with the listed type its entry is named after (the recorded type name).
    ///
    /// - Throws: when the fixture cannot be read or its starting state does not decode as `State`.
    public init(fixture: String, reducer: ReSwiftReducer<State, Action>, framework: Framework = .swiftTesting, filePath: String = #filePath) throws {
        try self.init(fixture: fixture, framework: framework, filePath: filePath, reduce: reducer.inoutReducer, decodeAction: reducer.decoding)
    }

    private init(fixture: String, framework: Framework, filePath: String, reduce: @escaping (inout State, Action) -> Void,
                 decodeAction: ActionDecoding<Action>) throws {
        let path = fixture.hasPrefix("/") ? fixture
            : URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent(fixture).path
        self.fixture = try LogReader(path: path)
        guard let start = self.fixture.header.initialState else {
            throw FixtureReplayError(description: "\(path) has no starting state (its header has no initialState)")
        }
        do {
            state = try JSONValueDecoder().decode(State.self, from: start)
        } catch {
            throw FixtureReplayError(description: "the fixture's starting state does not decode as \(State.self): \(error)")
        }
        self.reduce = reduce
        self.decodeAction = decodeAction
        self.framework = framework
    }

    /// The number `rewind log` gives the entry of step `step` (from 1) in the recording the fixture
    /// was cut from: its first entry's number (`rewind.slice.firstEntry`, written by `rewind export`
    /// and `testgen`) plus how far its sequence number is from the first's; in a fixture without it,
    /// the entry's number in the fixture itself.
    private func entryNumber(ofStep step: Int) -> Int {
        let index = step - 1
        guard let first = fixture.header.metadata[LogSliceMetadata.firstEntryKey].flatMap({ Int($0) }), (1..<(1 << 40)).contains(first),
              let firstSequence = try? fixture.entry(at: 0).sequence, let sequence = try? fixture.entry(at: index).sequence,
              sequence >= firstSequence, sequence - firstSequence < Int64(Int32.max) else {
            return fixture.entryNumber(at: index)
        }
        return first + Int(sequence - firstSequence)
    }

    /// Sends the next recorded action (its JSON, as recorded) and checks the
    /// state at each `expecting` path. A failure names the step and the path,
    /// and is reported at the call.
    public mutating func send(_ action: String, expecting: KeyValuePairs<String, Expected> = [:],
                              fileID: String = #fileID, filePath: StaticString = #filePath,
                              line: UInt = #line, column: UInt = #column) {
        stepCount += 1
        let step = entryNumber(ofStep: stepCount)
        let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
        let recorded = try? fixture.entry(at: stepCount - 1)
        let name = recorded?.action.name ?? Self.actionName(action)
        let decoded: Action
        do {
            decoded = try decodeAction.decode(recorded?.action.name, try JSONParser.parse(action), JSONValueDecoder())
        } catch {
            fail("step \(step): the action does not decode as \(Action.self): \(error); the recorded state is used from here", at: location)
            adoptRecordedState()
            return
        }
        // The outside values the entry read (`Recorded.now()`, `uuid()`, `value`), handed back as recorded.
        let unrecordedReads = RecordedValuesContext.replaying(recorded?.recordedValues ?? []) { reduce(&state, decoded) }
        for read in unrecordedReads {
            fail("step \(step) (\(name)): reads Recorded value \(read); the reducer got a live value", at: location)
        }
        let encoded: JSONValue
        do {
            encoded = try JSONEncoding.value(of: state)
        } catch {
            fail("step \(step): the state does not encode: \(error)", at: location)
            return
        }
        for (pathText, expected) in expecting {
            guard let path = try? JSONPointer(parsing: pathText) else {
                fail("step \(step): \(pathText) is not a JSON Pointer", at: location)
                continue
            }
            let wanted: JSONValue?
            switch expected {
            case .absent: wanted = nil
            case .recorded: wanted = (try? fixture.state(at: stepCount - 1))?[pointer: path]
            case .json(let text):
                guard let value = try? JSONParser.parse(text) else {
                    fail("step \(step): the expected value at \(pathText) is not JSON: \(text)", at: location)
                    continue
                }
                wanted = value
            }
            let actual = encoded[pointer: path]
            if actual != wanted {
                fail("step \(step) (\(name)): \(pathText) is \(Self.describe(actual)); the recording has \(Self.describe(wanted))", at: location)
            }
        }
    }

    /// Skips the next recorded action (one the reducer cannot replay, such as
    /// an action recorded by reflection) by taking the state the fixture recorded after it.
    public mutating func skip(_ reason: String = "", fileID: String = #fileID, filePath: StaticString = #filePath,
                              line: UInt = #line, column: UInt = #column) {
        stepCount += 1
        adoptRecordedState(at: Location(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    private mutating func adoptRecordedState(at location: Location? = nil) {
        do {
            state = try JSONValueDecoder().decode(State.self, from: try fixture.state(at: stepCount - 1))
        } catch {
            if let location { fail("step \(entryNumber(ofStep: stepCount)): the recorded state cannot be used: \(error)", at: location) }
        }
    }

    private struct Location {
        var fileID: String
        var filePath: StaticString
        var line: UInt
        var column: UInt
    }

    private func fail(_ message: String, at location: Location) {
        switch framework {
        case .swiftTesting:
            Issue.record(Comment(rawValue: message), sourceLocation: SourceLocation(
                fileID: location.fileID, filePath: "\(location.filePath)", line: Int(location.line), column: Int(location.column)))
        case .xctest:
            XCTFail(message, file: location.filePath, line: location.line)
        }
    }

    /// `{"toggle":{"id":1}}` → `toggle`: the enum case of a Codable action, for messages.
    private static func actionName(_ json: String) -> String {
        guard let value = try? JSONParser.parse(json) else { return "action" }
        if case .object(let object) = value, object.count == 1, let key = object.keys.first { return key }
        return value.kindName
    }

    private static func describe(_ value: JSONValue?) -> String {
        guard let value else { return "absent" }
        let text = JSONWriter.compactString(value)
        return text.count > 200 ? String(text.prefix(199)) + "…" : text
    }
}

/// Why ``FixtureReplay`` could not start: the fixture is missing or its state does not decode.
public struct FixtureReplayError: Error, Sendable, CustomStringConvertible {
    public var description: String
}
