import Recorder

/// The `redux-devtools` format: the file the Redux DevTools extension imports,
/// `{"payload": "<JSON text of the actions>", "preloadedState": "<JSON text of the state>"}`.
///
/// Each action is `{"type": name, "payload": payload}` (no `payload` member
/// when the action has none). The extension replays the actions through the
/// app's reducer from the preloaded state. Rewind adds `rewindStates`, the JSON
/// text of the state after each action, which the extension ignores and
/// `rewind import` reads, so the states come back exactly.
enum ReduxDevToolsExport {
    /// Member names, shared with ``ReduxDevToolsImport``.
    static let statesMember = "rewindStates"

    static func text(for slice: ExportSlice) -> String {
        var object = JSONObject()
        object["payload"] = .string(JSONWriter.compactString(.array(slice.entries.map { action($0.action) })))
        if let start = slice.startState { object["preloadedState"] = .string(JSONWriter.compactString(start)) }
        object[statesMember] = .string(JSONWriter.compactString(.array(slice.entries.map(\.state))))
        return JSONWriter.compactString(.object(object)) + "\n"
    }

    /// A Redux action: the type, then the payload.
    static func action(_ action: LogEntry.Action) -> JSONValue {
        var object = JSONObject()
        object["type"] = .string(action.name)
        if action.payload != .null { object["payload"] = action.payload }
        return .object(object)
    }
}
