// A debug executable: the inspector linked with the sample domains' reducers,
// so `r`, `a`, `s`, `x` and `verify <log>` work on the sample logs.
//
//     swift run rewind-debug-demo sample-logs/todos.jsonl
//     swift run rewind-debug-demo verify sample-logs/garage.jsonl
//
// An app links its one reducer in one line:
//     Inspector.main(reducer: appReducer, state: AppState.self, action: AppAction.self)
// This demo serves every sample log, so it picks the domain from the log's header.
import Inspector
import Recorder
import SampleDomains

let stateType = CommandLine.arguments.dropFirst().last.flatMap { try? LogReader(path: $0).header.stateTypeName }
switch stateType {
case String(reflecting: GarageState.self): Inspector.main(reducer: GarageDomain.reduce)
case String(reflecting: SearchState.self): Inspector.main(reducer: SearchDomain.reduce)
default: Inspector.main(reducer: TodoDomain.reduce)   // the player domain is not Codable: replay reports it
}
