import Foundation
import SampleDomains
import Testing
@testable import Recorder

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

@Suite struct QuickstartTests {
    let directory = TemporaryDirectory()

    @Test func quickStart() throws {
        let path = directory.file("checkout.jsonl")
        let recorder = try Recorder(file: path)
        let reducer = recorder.recording(appReducer)   // same type as appReducer: (inout AppState, AppAction) -> R

        var state = AppState()
        reducer(&state, .addToCart(sku: "A-12"))        // dispatch as usual: every call is recorded

        try recorder.close()                            // writes what is queued; flush() writes without closing
        #expect(try LogReader(path: path).state(at: 0) == ["cart": ["A-12"]])
    }

    @Test func options() throws {
        let path = directory.file("checkout.jsonl")
        var options = Recorder.Options()
        options.keyframeInterval = 32                       // whole state at least every 32 entries
        options.queuePolicy = .wait                         // or .drop: never block the app, record a gap instead
        options.durability = .fsync(interval: 1)            // default .write survives app crashes; fsync survives power cuts
        options.metadata = ["build": "1.4.2"]
        options.redaction = try Redaction(rules: ["password", "*/token"])
        options.onError = { error in print("recording stopped: \(error)") }   // disk full, file removed: reported once
        let recorder = try Recorder(file: path, options: options)
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
        let recorder = try Recorder(file: path)
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

    @Test func composableArchitecture() throws {
        let path = directory.file("feature.jsonl")
        let recorder = try Recorder(file: path)
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
        let recorder = try Recorder(file: path)
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
