import Foundation
import SampleDomains
import Testing
@testable import Recorder
import RewindStore

// The snippets of the README's quick start, with stand-ins for the app's types and for
// ReSwift and TCA (RecorderShapesTests.swift has the ReSwift-shaped store).

private struct AppState: Codable { var cart: [String] = [] }
private enum AppAction: Codable { case addToCart(sku: String) }
private func appReducer(_ state: inout AppState, _ action: AppAction) {
    switch action {
    case .addToCart(let sku): state.cart.append(sku)
    }
}

/// TCA stand-in: `Store(initialState:reducer:)` with a builder closure, `Reduce(_:)`, `reduce(into:action:)`.
private enum TCA {
    final class Store<R: ReducerProtocol> {
        var state: R.State
        let reducer: R
        init(initialState: R.State, reducer: () -> R) {
            state = initialState
            self.reducer = reducer()
        }
        func send(_ action: R.Action) { _ = reducer.reduce(into: &state, action: action) }
    }
}

// MARK: TCA's `_printChanges` (stand-ins with the public shapes of ComposableArchitecture 1.x:
// `Reducer`, `Effect`, `_ReducerPrinter(printChange:queue:)` whose closure runs on a serial
// background queue, `_printChanges(_:)`, `Store(initialState:reducer:)`).

enum ComposableArchitecture {
    struct Effect<Action> { static var none: Effect { Effect() } }

    /// TCA's one serial queue for every printer without its own.
    static let printQueue = DispatchQueue(label: "co.pointfree.swift-composable-architecture.printer")

    protocol Reducer<State, Action> {
        associatedtype State
        associatedtype Action
        func reduce(into state: inout State, action: Action) -> Effect<Action>
    }

    struct _ReducerPrinter<State, Action>: Sendable {
        private let _printChange: @Sendable (_ receivedAction: Action, _ oldState: State, _ newState: State) -> Void
        let queue: DispatchQueue
        init(printChange: @escaping @Sendable (_ receivedAction: Action, _ oldState: State, _ newState: State) -> Void,
             queue: DispatchQueue? = nil) {
            _printChange = printChange
            self.queue = queue ?? printQueue
        }
        func printChange(receivedAction: Action, oldState: State, newState: State) {
            _printChange(receivedAction, oldState, newState)
        }
    }

    /// As TCA's: the reducer runs, then the printer is called on its queue with (action, old, new).
    struct _PrintChangesReducer<Base: Reducer>: Reducer, @unchecked Sendable {
        let base: Base
        let printer: _ReducerPrinter<Base.State, Base.Action>?
        func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
            guard let printer else { return base.reduce(into: &state, action: action) }
            let oldState = state
            let effect = base.reduce(into: &state, action: action)
            let box = UncheckedBox((action, oldState, state))
            printer.queue.async { printer.printChange(receivedAction: box.value.0, oldState: box.value.1, newState: box.value.2) }
            return effect
        }
    }

    final class Store<State, Action> {
        private(set) var state: State
        private let reduce: (inout State, Action) -> Effect<Action>
        init<R: Reducer<State, Action>>(initialState: State, reducer: () -> R) {
            state = initialState
            let reducer = reducer()
            reduce = { reducer.reduce(into: &$0, action: $1) }
        }
        func send(_ action: Action) { _ = reduce(&state, action) }
    }
}

private final class UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

extension ComposableArchitecture.Reducer {
    func _printChanges(_ printer: ComposableArchitecture._ReducerPrinter<State, Action>?) -> ComposableArchitecture._PrintChangesReducer<Self> {
        .init(base: self, printer: printer)
    }
}

/// The README's feature: what `@Reducer struct Feature` gives (State, Action, reduce).
private struct Feature: ComposableArchitecture.Reducer {
    struct State: Codable, Equatable { var count = 0 }
    enum Action: Codable, Equatable { case incrementTapped, setCount(Int) }
    func reduce(into state: inout State, action: Action) -> ComposableArchitecture.Effect<Action> {
        switch action {
        case .incrementTapped: state.count += 1
        case .setCount(let count): state.count = count
        }
        return .none
    }
}

typealias _ReducerPrinter = ComposableArchitecture._ReducerPrinter

// The README's five lines, as written there.
extension _ReducerPrinter {
    static func rewind(_ recorder: ActionRecorder) -> Self {
        Self { action, oldState, newState in
            recorder.record(action, state: newState, before: oldState)
        }
    }
}

// MARK: ReactiveSwift's `Action` (stand-in with its public shape: `Action<Input, Output, Error>(execute:)`,
// `apply(_:)` returning a `SignalProducer`, `SignalProducer.on(failed:completed:interrupted:value:)`, `start()`
// returning a `Disposable` whose `dispose()` interrupts a run that has not ended, which ends the `Action`'s run too).

enum ReactiveSwift {
    final class RunEnded { var value = false }

    final class Disposable {
        private let action: () -> Void
        init(_ action: @escaping () -> Void) { self.action = action }
        func dispose() { action() }
    }

    struct SignalProducer<Value, Error: Swift.Error> {
        let run: (_ value: @escaping (Value) -> Void, _ failed: @escaping (Error) -> Void, _ completed: @escaping () -> Void) -> Void
        /// What disposing of a run that has not ended calls, innermost first.
        var onInterrupted: [() -> Void] = []
        init(_ run: @escaping (_ value: @escaping (Value) -> Void, _ failed: @escaping (Error) -> Void, _ completed: @escaping () -> Void) -> Void) {
            self.run = run
        }
        func on(failed: ((Error) -> Void)? = nil, completed: (() -> Void)? = nil, interrupted: (() -> Void)? = nil,
                value: ((Value) -> Void)? = nil) -> SignalProducer {
            var producer = SignalProducer { send, fail, complete in
                run({ value?($0); send($0) }, { failed?($0); fail($0) }, { completed?(); complete() })
            }
            producer.onInterrupted = onInterrupted + (interrupted.map { [$0] } ?? [])
            return producer
        }
        @discardableResult func start() -> Disposable {
            let ended = RunEnded()
            run({ _ in }, { _ in ended.value = true }, { ended.value = true })
            return Disposable { [onInterrupted] in
                guard !ended.value else { return }
                ended.value = true
                onInterrupted.forEach { $0() }
            }
        }
    }

    final class Action<Input, Output, Error: Swift.Error> {
        private let execute: (Input) -> SignalProducer<Output, Error>
        private(set) var isExecuting = false
        init(execute: @escaping (Input) -> SignalProducer<Output, Error>) { self.execute = execute }
        func apply(_ input: Input) -> SignalProducer<Output, Error> {
            let work = execute(input)
            var applied = SignalProducer<Output, Error> { [self] value, failed, completed in
                isExecuting = true
                work.run(value, { self.isExecuting = false; failed($0) }, { self.isExecuting = false; completed() })
            }
            applied.onInterrupted = work.onInterrupted + [{ [self] in isExecuting = false }]
            return applied
        }
    }
}

typealias SignalProducer = ReactiveSwift.SignalProducer
typealias Action = ReactiveSwift.Action

// The README's extension, as written there.
extension Action {
    convenience init(recording recorder: ActionRecorder, execute: @escaping (Input) -> SignalProducer<Output, Error>) {
        let work = AsyncWorkRecording<Input, Output>(recorder: recorder)
        self.init { input in
            work.applied(input)
            return execute(input).on(failed: { work.failed($0) }, completed: { work.completed() },
                                     interrupted: { work.interrupted() }, value: { work.value($0) })
        }
    }
}

private struct LoadError: Error, CustomStringConvertible { var description: String { "offline" } }

// MARK: A typed key-value storage, as apps wrap UserDefaults (the app's own protocol).

private protocol KeyValueStorage {
    func value<T: Codable>(forKey key: String) -> T?
    func setValue<T: Codable>(_ value: T?, forKey key: String)
}

private final class InMemoryStorage: KeyValueStorage {
    private var values: [String: Any] = [:]
    func value<T: Codable>(forKey key: String) -> T? { values[key] as? T }
    func setValue<T: Codable>(_ value: T?, forKey key: String) { values[key] = value }
}

// The README's decorator, as written there.
private struct RecordingStorage: KeyValueStorage {
    let base: any KeyValueStorage
    let recording: KeyValueRecording
    func value<T: Codable>(forKey key: String) -> T? { base.value(forKey: key) }
    func setValue<T: Codable>(_ value: T?, forKey key: String) {
        base.setValue(value, forKey: key)
        recording.set(value, forKey: key)
    }
}

// MARK: A SwiftUI-style ObservableObject store whose effects map to actions (Combine is not on
// Linux: a stand-in protocol with ObservableObject's one requirement's spirit).

private protocol ObservableObject: AnyObject {}

private struct Profile: Codable, Equatable { var name = ""; var isLoading = false }
private enum ProfileAction: Codable, Equatable { case load, loaded(name: String) }
private enum ProfileEffect { case fetchName }

// The README's store, as written there.
private final class ProfileStore: ObservableObject {
    private(set) var state = Profile()   // @Published in the app
    private let recorder: ActionRecorder

    init(recorder: ActionRecorder) { self.recorder = recorder }

    @discardableResult
    func send(_ action: ProfileAction, effectOf origin: Int64? = nil) -> Int64? {
        let before = state
        let effect = reduce(&state, action)
        let sequence = recorder.record(action, state: state, before: before, effectOf: origin)
        if let effect { send(effect, from: sequence) }
        return sequence
    }

    func send(_ effect: ProfileEffect, from origin: Int64?) {
        switch effect {
        case .fetchName: send(.loaded(name: "Ada"), effectOf: origin)   // the network, in the app
        }
    }

    private func reduce(_ state: inout Profile, _ action: ProfileAction) -> ProfileEffect? {
        switch action {
        case .load: state.isLoading = true; return .fetchName
        case .loaded(let name): state.name = name; state.isLoading = false; return nil
        }
    }
}

@Suite struct QuickstartTests {
    let directory = TemporaryDirectory()

    @Test func quickStart() throws {
        // `ActionRecorder(named: "checkout")`, with the recordings directory set as REWIND_RECORDINGS would.
        let recorder = try ActionRecorder(named: "checkout", options: ActionRecorder.Options(), environment: ["REWIND_RECORDINGS": directory.path])
        let path = directory.file("checkout.jsonl")
        let reducer = recorder.recording(appReducer)   // same type as appReducer: (inout AppState, AppAction) -> R

        var state = AppState()
        reducer(&state, .addToCart(sku: "A-12"))        // dispatch as usual: every call is recorded

        try recorder.close()                            // writes what is queued; flush() writes without closing (both throw if recording stopped)
        #expect(try LogReader(path: path).state(at: 0) == ["cart": ["A-12"]])
    }

    /// No public type is named like its module, so an app that has a `LogReader` of its own can
    /// still say `Recorder.LogReader` (a class `Recorder` would shadow the module and this would not compile).
    @Test func theModuleNameQualifiesRewindsTypes() throws {
        struct LogReader {}
        let path = directory.file("qualified.jsonl")
        let recorder = try Recorder.ActionRecorder(file: path, options: Recorder.ActionRecorder.Options())
        var state = AppState()
        recorder.recording(appReducer)(&state, .addToCart(sku: "B-7"))
        try recorder.close()
        let reader: Recorder.LogReader = try Recorder.LogReader(path: path)
        #expect(try reader.state(at: 0) == ["cart": ["B-7"]])
        #expect(MemoryLayout<LogReader>.size == 0)   // the app's own type, unharmed
    }

    @Test func options() throws {
        let path = directory.file("checkout.jsonl")
        var options = ActionRecorder.Options()
        options.keyframeInterval = 256                      // whole state at least every 256 entries (also sooner, by size)
        options.queuePolicy = .wait                         // or .drop: never block the app, record a gap instead
        options.queueBytes = 32 << 20                       // states waiting for the writer, at most (default 64 MB)
        options.durability = .fsync(interval: 1)            // default .write survives app crashes; fsync survives power cuts
        options.metadata = ["build": "1.4.2"]
        options.redaction = try Redaction(rules: ["password", "*/token"])
        options.onError = { error in print("recording stopped: \(error)") }   // disk full, file removed: reported once
        let recorder = try ActionRecorder(file: path, options: options)
        let reducer = recorder.recording { (state: inout [String: String], action: String) in state["password"] = "s3cret" }
        var state: [String: String] = [:]
        reducer(&state, "login")
        try recorder.close()
        let reader = try LogReader(path: path)
        #expect(reader.header.metadata == ["build": "1.4.2"])
        #expect(!String(decoding: fileBytes(path), as: UTF8.self).contains("s3cret"))
    }

    @Test func reSwift() throws {
        let path = directory.file("app.jsonl")
        let recorder = try ActionRecorder(file: path)
        let store = ReStore<ReState>(
            reducer: reStateReducer,
            state: nil,
            middleware: [recorder.middleware()]
        )
        store.dispatch(Increment())
        try recorder.close()
        let reader = try LogReader(path: path)
        #expect(try reader.entry(at: 0).action.name == "ReSwiftInit")   // the store's own init action is recorded too
        #expect(try reader.state(at: 1) == ["count": 1, "name": ""])
    }

    @Test func composableArchitectureThroughPrintChanges() throws {
        let path = directory.file("feature.jsonl")
        let recorder = try ActionRecorder(file: path)
        let store = ComposableArchitecture.Store(initialState: Feature.State(count: 5)) {
            Feature()._printChanges(.rewind(recorder))
        }
        store.send(.incrementTapped)
        store.send(.setCount(40))
        store.send(.incrementTapped)
        ComposableArchitecture.printQueue.sync {}   // the printer records on TCA's serial queue
        try recorder.close()
        let reader = try LogReader(path: path)
        #expect(reader.header.initialState == ["count": 5])
        #expect(try (0..<3).map { try reader.entry(at: $0).action.name } == ["incrementTapped", "setCount", "incrementTapped"])
        #expect(try (0..<3).map { try reader.state(at: $0)["count"] } == [6, 40, 41])
        try Replay(log: path).verify(reducer: { (state: inout Feature.State, action: Feature.Action) in
            _ = Feature().reduce(into: &state, action: action)
        })
    }

    @Test func aReactiveSwiftActionRecordsEachRunItsValuesAndItsEnd() throws {
        let path = directory.file("load.jsonl")
        let recorder = try ActionRecorder(file: path)
        let load = Action<String, Int, LoadError>(recording: recorder) { query in
            SignalProducer { value, failed, completed in
                if query == "offline" { return failed(LoadError()) }
                value(query.count)
                value(query.count * 2)
                completed()
            }
        }
        load.apply("swift").start()
        load.apply("offline").start()
        try recorder.close()

        let reader = try LogReader(path: path)
        let entries = try (0..<reader.entryCount).map { try reader.entry(at: $0) }
        #expect(entries.map(\.action.name) == ["apply", "value", "value", "completed", "apply", "failed"])
        #expect(entries.map(\.effectOf) == [nil, 0, 0, 0, nil, 4], "a run's events link to the apply that started it")
        #expect(try reader.state(at: 2) == ["isExecuting": true, "lastValue": 10])
        #expect(try reader.state(at: 3) == ["isExecuting": false, "lastValue": 10])
        #expect(try reader.state(at: 5) == ["isExecuting": false, "lastValue": 10, "lastError": "offline"])
        try Replay(log: path).verify(reducer: AsyncWorkRecording<String, Int>.reduce)
    }

    @Test func theReadmesPackageSnippetNamesTheProductsThisPackageHas() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "## Add Rewind to your package").dropFirst().first)
        let snippet = try #require(section.components(separatedBy: "```").dropFirst().first, "a Package.swift snippet")
        let products = snippet.components(separatedBy: ".product(name: \"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        #expect(products == ["Recorder", "RewindTesting", "Inspector"])
        for product in products {
            #expect(manifest.contains(".library(name: \"\(product)\""), "\(product) is a product of Package.swift")
        }
        #expect(snippet.components(separatedBy: "package: \"rewind\")").count == products.count + 1, "every product names the package")
    }

    @Test func aDisposedRunIsRecordedAsInterruptedAndNoLongerExecutingAsTheActionSays() throws {
        let path = directory.file("interrupted.jsonl")
        let recorder = try ActionRecorder(file: path)
        let load = Action<String, Int, LoadError>(recording: recorder) { query in
            SignalProducer { value, _, _ in value(query.count) }   // still loading when disposed of
        }
        let run = load.apply("swift").start()
        #expect(load.isExecuting)
        run.dispose()
        #expect(!load.isExecuting)
        try recorder.close()

        let reader = try LogReader(path: path)
        let entries = try (0..<reader.entryCount).map { try reader.entry(at: $0) }
        #expect(entries.map(\.action.name) == ["apply", "value", "interrupted"])
        #expect(entries.map(\.effectOf) == [nil, 0, 0])
        #expect(try reader.state(at: 2) == ["isExecuting": false, "lastValue": 5], "the log agrees with the Action: the run ended")
        try Replay(log: path).verify(reducer: AsyncWorkRecording<String, Int>.reduce)
    }

    @Test func aKeyValueStorageRecordsEverySetAsAnActionWithItsContentsAsTheState() throws {
        let path = directory.file("settings.jsonl")
        let recorder = try ActionRecorder(file: path)
        let storage: any KeyValueStorage = RecordingStorage(base: InMemoryStorage(), recording: KeyValueRecording(recorder: recorder))
        storage.setValue(123, forKey: "foobar")
        storage.setValue("dark", forKey: "theme")
        storage.setValue(124, forKey: "foobar")
        storage.setValue(nil as String?, forKey: "theme")
        #expect(storage.value(forKey: "foobar") == 124)
        try recorder.close()

        let reader = try LogReader(path: path)
        let first = try reader.entry(at: 0)
        #expect(first.action.name == "set")
        #expect(ActionSummary.payload(first.action.payload, actionType: first.action.name) == #"key: "foobar", value: 123"#)
        #expect(try reader.state(at: 1) == ["foobar": 123, "theme": "dark"])
        #expect(try reader.state(at: 3) == ["foobar": 124])
        #expect(try reader.entry(at: 2).changedPaths.map(\.description) == ["/foobar"])
        try Replay(log: path).verify(reducer: KeyValueRecording.reduce)
    }

    @Test func anObservableObjectStoreLinksEffectActionsToTheActionThatStartedThem() throws {
        let path = directory.file("profile.jsonl")
        let recorder = try ActionRecorder(file: path)
        let store = ProfileStore(recorder: recorder)
        store.send(.load)
        try recorder.close()
        let reader = try LogReader(path: path)
        #expect(try reader.entry(at: 0).action.name == "load")
        #expect(try reader.entry(at: 1).action.name == "loaded")
        #expect(try reader.entry(at: 1).effectOf == 0)
        #expect(try reader.state(at: 1) == ["name": "Ada", "isLoading": false])
        #expect(try reader.entry(at: 0).trace?.file == "RecorderTests/QuickstartTests.swift")
    }

    @Test func composableArchitecture() throws {
        let path = directory.file("feature.jsonl")
        let recorder = try ActionRecorder(file: path)
        typealias Feature = CounterFeature
        let store = TCA.Store(initialState: Feature.State()) {
            Reduce(recorder.recording(Feature().reduce(into:action:)))
        }
        store.send(.add(2))
        try recorder.close()
        #expect(try LogReader(path: path).state(at: 0) == ["count": 2])
    }

    @Test func referenceStore() async throws {
        let path = directory.file("search.jsonl")
        let recorder = try ActionRecorder(file: path)
        let store = Store(initialState: SearchState(), recorder: recorder) { state, action in
            let answers = SearchDomain.reduce(&state, action)
            return .run { send in answers.forEach { send($0) } }
        }
        store.send(.queryChanged("swift"))
        await store.finishEffects()
        try recorder.close()
        #expect(try LogReader(path: path).entry(at: 1).effectOf == 0)
    }
}

