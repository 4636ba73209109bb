import Foundation

/// Reads a Redux DevTools export into a Rewind log. Both shapes the extension writes are accepted:
///
/// - `{"payload": "<JSON text>", "preloadedState": "<JSON text>"}`, where the payload is an
///   array of actions (or a lifted state, below). Rewind has no reducer to replay the
///   actions, so the states are the preloaded state, unless the file has Rewind's
///   `rewindStates` member (written by `rewind export --format redux-devtools`), which holds
///   the state after each action.
/// - The full lifted state: `actionsById`, `stagedActionIds`, `computedStates`,
///   `skippedActionIds`, `currentStateIndex`, `committedState`. States come from
///   `computedStates`; skipped actions are kept with `"skipped":true` in their record.
package enum ReduxDevToolsImport {
    /// Member of the pair shape holding the state after each action, as JSON text.
    package static let statesMember = "rewindStates"

    /// The log for the export in `bytes`; `created` stamps the header (and entries without a timestamp).
    package static func log(from bytes: [UInt8], created: Date) throws(ReduxDevToolsImportError) -> [UInt8] {
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw ReduxDevToolsImportError("the file is not JSON: \(error)")
        }
        guard let object = root.objectValue else {
            throw ReduxDevToolsImportError("the file holds a JSON \(root.kindName), not a Redux DevTools export (an object with \"payload\" or \"actionsById\")")
        }
        if let payload = object["payload"] {
            let lifted = try parseText(payload, member: "payload")
            let preloaded = try object["preloadedState"].map { value throws(ReduxDevToolsImportError) in try parseText(value, member: "preloadedState") }
            if case .array(let actions) = lifted {
                let states = try object[statesMember].map { value throws(ReduxDevToolsImportError) in try parseText(value, member: statesMember) }
                return try actionList(actions, preloadedState: preloaded, states: states, created: created)
            }
            guard let liftedObject = lifted.objectValue, liftedObject["actionsById"] != nil else {
                throw ReduxDevToolsImportError("\"payload\" holds neither an array of actions nor a lifted state with \"actionsById\"")
            }
            return try liftedState(liftedObject, preloadedState: preloaded, created: created)
        }
        if object["actionsById"] != nil {
            return try liftedState(object, preloadedState: nil, created: created)
        }
        throw ReduxDevToolsImportError("the file has neither \"payload\" (with \"preloadedState\") nor \"actionsById\": not a Redux DevTools export")
    }

    // MARK: The {payload, preloadedState} pair

    private static func actionList(
        _ actions: [JSONValue], preloadedState: JSONValue?, states: JSONValue?, created: Date
    ) throws(ReduxDevToolsImportError) -> [UInt8] {
        var recordedStates: [JSONValue]
        var note: String
        if let states {
            guard let list = states.arrayValue, list.count == actions.count else {
                throw ReduxDevToolsImportError("\"\(statesMember)\" must be an array with one state per action (\(actions.count))")
            }
            recordedStates = list
            note = "the state after each action, from \"\(statesMember)\""
        } else {
            guard let preloadedState else {
                throw ReduxDevToolsImportError("the export has no \"preloadedState\": with only actions (and no reducer to replay them) there is no state to record")
            }
            recordedStates = Array(repeating: preloadedState, count: actions.count)
            note = "not recorded: the export holds the actions and the preloaded state only, and Rewind has no reducer to replay them, so every entry shows the preloaded state"
        }
        var builder = LogBuilder(header: header(created: created, initialState: preloadedState, shape: "actions and preloaded state", states: note))
        for (index, value) in actions.enumerated() {
            let action = try reduxAction(value, where: "action \(index) in \"payload\"")
            builder.append(LogBuilder.Entry(time: created, action: action, state: recordedStates[index]))
        }
        return builder.bytes
    }

    // MARK: The lifted state

    private static func liftedState(_ lifted: JSONObject, preloadedState: JSONValue?, created: Date) throws(ReduxDevToolsImportError) -> [UInt8] {
        guard let actionsById = lifted["actionsById"]?.objectValue else {
            throw ReduxDevToolsImportError("\"actionsById\" must be an object of lifted actions by id")
        }
        guard let staged = lifted["stagedActionIds"]?.arrayValue else {
            throw ReduxDevToolsImportError("the lifted state has no \"stagedActionIds\" array")
        }
        let ids = try staged.map { value throws(ReduxDevToolsImportError) -> Int64 in
            guard let id = value.int64Value else { throw ReduxDevToolsImportError("\"stagedActionIds\" holds \(value), not an action id") }
            return id
        }
        let skipped = Set((lifted["skippedActionIds"]?.arrayValue ?? []).compactMap(\.int64Value))
        let committed = lifted["committedState"] ?? preloadedState
        var computed: [JSONValue]?
        if let value = lifted["computedStates"] {
            guard let list = value.arrayValue, list.count == ids.count else {
                throw ReduxDevToolsImportError("\"computedStates\" must be an array with one entry per staged action (\(ids.count))")
            }
            computed = list
        }
        if computed == nil && committed == nil {
            throw ReduxDevToolsImportError("the lifted state has neither \"computedStates\" nor \"committedState\": there is no state to record")
        }

        var entries: [(id: Int64, lifted: JSONValue, action: LogEntry.Action, state: JSONValue, error: String?)] = []
        for (position, id) in ids.enumerated() {
            guard let liftedAction = actionsById[String(id)] else {
                throw ReduxDevToolsImportError("\"actionsById\" has no action \(id), which \"stagedActionIds\" lists")
            }
            let action = try reduxAction(liftedAction["action"] ?? liftedAction, where: "action \(id) in \"actionsById\"")
            var state = committed ?? .null
            var error: String?
            if let computed {
                guard let item = computed[position].objectValue, let value = item["state"] else {
                    throw ReduxDevToolsImportError("computed state \(position) has no \"state\"")
                }
                state = value
                error = item["error"]?.stringValue
            }
            entries.append((id, liftedAction, action, state, error))
        }
        // The first staged action is the store's `@@INIT` (or the last commit): its state is where the log starts.
        var initialState = committed
        if let first = entries.first, first.action.name.hasPrefix("@@") {
            initialState = first.state
            entries.removeFirst()
        }
        let note = computed == nil
            ? "not recorded: the lifted state has no \"computedStates\", and Rewind has no reducer to replay the actions, so every entry shows \"committedState\""
            : "from \"computedStates\""
        var header = header(created: created, initialState: initialState, shape: "lifted state", states: note)
        if let current = lifted["currentStateIndex"]?.int64Value {
            header.metadata["rewind.import.currentStateIndex"] = String(current)
        }
        if !skipped.isEmpty {
            header.metadata["rewind.import.skipped"] = "skipped actions are kept, with \"skipped\":true in their record; their state is the one before them"
        }
        var builder = LogBuilder(header: header)
        for entry in entries {
            var extra: [(RecordField, JSONValue)] = []
            if skipped.contains(entry.id) { extra.append((.skipped, true)) }
            if let error = entry.error { extra.append((.reducerError, .string(error))) }
            let time = entry.lifted["timestamp"]?.doubleValue.map { Date(timeIntervalSince1970: $0 / 1000) } ?? created
            builder.append(LogBuilder.Entry(time: time, action: entry.action, state: entry.state, extra: extra))
        }
        return builder.bytes
    }

    // MARK: Pieces

    private static func header(created: Date, initialState: JSONValue?, shape: String, states: String) -> LogHeader {
        LogHeader(
            created: created, processName: "Redux DevTools import",
            metadata: ["rewind.import": "Redux DevTools export (\(shape))", "rewind.import.states": states],
            initialState: initialState)
    }

    /// A Redux action `{"type": …, …}`: `{type, payload}` keeps the payload; any
    /// other members become the payload object.
    private static func reduxAction(_ value: JSONValue, where place: String) throws(ReduxDevToolsImportError) -> LogEntry.Action {
        guard let object = value.objectValue, let type = object["type"]?.stringValue else {
            throw ReduxDevToolsImportError("\(place) has no \"type\"")
        }
        let others = object.members.filter { $0.0 != "type" }
        if others.isEmpty { return LogEntry.Action(type: type, payload: .null) }
        if others.count == 1, others[0].0 == "payload" { return LogEntry.Action(type: type, payload: others[0].1) }
        return LogEntry.Action(type: type, payload: .object(JSONObject(others)))
    }

    /// The value of a member that holds JSON as text.
    private static func parseText(_ value: JSONValue, member: String) throws(ReduxDevToolsImportError) -> JSONValue {
        guard let text = value.stringValue else {
            throw ReduxDevToolsImportError("\"\(member)\" must be a string of JSON text, not a JSON \(value.kindName)")
        }
        do {
            return try JSONParser.parse(text)
        } catch {
            throw ReduxDevToolsImportError("\"\(member)\" is not JSON text: \(error)")
        }
    }
}

/// Why an export could not be imported; `description` is one line naming what is missing or wrong.
package struct ReduxDevToolsImportError: Error, CustomStringConvertible {
    package var description: String
    init(_ description: String) { self.description = description }
}
