import Foundation
import Recorder

/// The inspector linked with your reducer: everything `rewind` does, plus
/// replay (`r`), edited actions (`a`), saving a branch (`s`), skipping (`x`)
/// and `verify <log>`. Put this in a small executable target of your package:
///
/// ```swift
/// import Inspector
/// @main struct Debug {
///     static func main() { Inspector.main(reducer: appReducer, state: AppState.self, action: AppAction.self) }
/// }
/// ```
///
/// Then `swift run debug checkout.jsonl` opens the log, and
/// `swift run debug verify checkout.jsonl` exits 0 or 1 with a divergence report.
///
/// Invariants in Swift, over the decoded state, are checked by `bisect`
/// next to (or instead of) a query:
///
/// ```swift
/// Inspector.main(reducer: cartReducer, invariants: [
///     StateInvariant("total is never negative") { (state: CartState) in state.total >= 0 },
/// ])
/// // swift run debug bisect cart.jsonl   → the first entry that breaks one, with its diff
/// ```
public enum Inspector {
    /// Runs the command line with `reducer` linked for replay, and exits with its status.
    ///
    /// The reducer may return anything (an effect, `[Action]`, `Void`); replay ignores
    /// the result, so effects are not run (the actions they sent are in the log).
    /// `invariants` are checked by `bisect <log> ['<query>']` on every recorded state.
    public static func main<State: Codable, Action: Decodable, Result>(
        reducer: @escaping (inout State, Action) -> Result,
        state: State.Type = State.self, action: Action.Type = Action.self,
        invariants: [StateInvariant<State>] = [],
        arguments: [String] = Array(CommandLine.arguments.dropFirst())
    ) -> Never {
        var streams = StandardStreams()
        let status = run(arguments, replay: link(reducer), invariants: invariants.map(\.erased), streams: &streams)
        exit(streams.finish(status: status))
    }

    /// ``main(reducer:state:action:invariants:arguments:)`` for a ReSwift reducer, `(Action, State?) -> State`:
    ///
    /// ```swift
    /// Inspector.main(reducer: ReSwiftReducer(appReducer, actions: [AddTodo.self, ToggleTodo.self]))
    /// ```
    public static func main<State, Action>(
        reducer: ReSwiftReducer<State, Action>, arguments: [String] = Array(CommandLine.arguments.dropFirst())
    ) -> Never {
        var streams = StandardStreams()
        let status = run(arguments, replay: link(reducer), streams: &streams)
        exit(streams.finish(status: status))
    }

    /// What `main` runs; tests capture the streams. The commands are `rewind`'s plus the
    /// replay-only ones (``CommandTable/debugCommands(invariants:)``), and usage, help and
    /// errors name the executable as it was started (`debug`, not `rewind`).
    static func run(_ arguments: [String], programName: String = programName, replay: @escaping ReplayLink,
                    invariants: [AnyStateInvariant] = [], streams: inout some TextStreams) -> Int32 {
        CommandLineProgram.debug(name: programName, replay: replay, invariants: invariants).run(arguments, streams: &streams)
    }

    /// The name this executable was started by (`debug` for `swift run debug` or `.build/debug/debug`).
    static var programName: String {
        CommandLine.arguments.first.map { ($0 as NSString).lastPathComponent }.flatMap { $0.isEmpty ? nil : $0 } ?? "debug"
    }

    /// Makes a replay engine for a log, with the user's types captured.
    static func link<State: Codable, Action: Decodable, Result>(_ reducer: @escaping (inout State, Action) -> Result) -> ReplayLink {
        { reader in ReplayWorkbench(ReplaySession<State, Action>(reader: reader, reducer: reducer)) }
    }

    static func link<State, Action>(_ reducer: ReSwiftReducer<State, Action>) -> ReplayLink {
        { reader in ReplayWorkbench(reducer.session(reader: reader)) }
    }
}

/// Builds the replay engine for an opened log; present only when a reducer is linked.
typealias ReplayLink = (LogReader) -> any ReplayEngine
