/// How a recorded action reads on one line, shared by the inspector's
/// timeline, `rewind log` and replay reports.
package enum ActionSummary {
    /// A payload without what the action name already says; callers truncate to fit.
    ///
    /// Recorded enum actions arrive wrapped in their cases, `{"add":{"title":"Buy milk"}}`
    /// for `.add(title:)` named `add`. The summary peels the cases named in `actionType`
    /// and lists the associated values like a call: `title: "Buy milk"`, `id: 2, tag: "work"`;
    /// unlabelled ones (`_0`) as bare values, `"active"`; cases without values as nothing.
    /// Other payloads (struct actions, imported Redux actions) stay compact JSON. Numbers at
    /// `datePaths` (the entry's `payloadDates`) are `Date`s: shown as ISO-8601 dates, as the
    /// inspector shows the state's (`tick 2026-01-01T09:00:01Z`; inside JSON, as strings).
    package static func payload(_ payload: JSONValue, actionType: String, datePaths: [String] = []) -> String {
        if payload == .null { return "" }
        let dates = DatePaths(datePaths)
        func text(_ value: JSONValue, at path: JSONPointer) -> String {
            if dates.isEmpty { return value.description }
            return dates.date(value, at: path) ?? withDates(value, at: path, dates).description
        }
        let casePath = actionType.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if let arguments = caseArguments(payload, casePath: casePath[...], at: JSONPointer()) {
            return arguments.map { label, value, path in
                label.map { "\($0): \(text(value, at: path))" } ?? text(value, at: path)
            }.joined(separator: ", ")
        }
        // Single-member objects read better without their braces: `id: 3`.
        if case .object(let object) = payload, object.count == 1, let (key, value) = object.members.first(where: { _ in true }),
           !value.isContainer {
            return "\(key): \(text(value, at: JSONPointer().appending(key)))"
        }
        return text(payload, at: JSONPointer())
    }

    /// The summary of `action`'s payload, its dates shown as dates.
    package static func payload(of action: LogEntry.Action) -> String {
        payload(action.payload, actionType: action.name, datePaths: action.datePaths)
    }

    /// `value` (at `path`) with the numbers at date paths replaced by their ISO-8601 dates, as strings.
    private static func withDates(_ value: JSONValue, at path: JSONPointer, _ dates: DatePaths) -> JSONValue {
        switch value {
        case .object(let object):
            .object(JSONObject(object.members.map { key, member in (key, withDates(member, at: path.appending(key), dates)) }))
        case .array(let elements):
            .array(elements.enumerated().map { withDates($0.element, at: path.appending($0.offset), dates) })
        default:
            dates.date(value, at: path).map(JSONValue.string) ?? value
        }
    }

    /// The associated values of the innermost case in `casePath`, with the
    /// other values of the cases on the way (`.car(.secondary, .accelerate(by: 20))`
    /// named `car.accelerate` gives `"secondary", by: 20`); nil when the payload
    /// is not a case wrapper of that path.
    private static func caseArguments(_ payload: JSONValue, casePath: ArraySlice<String>, at path: JSONPointer)
        -> [(label: String?, value: JSONValue, path: JSONPointer)]? {
        guard let name = casePath.first else { return nil }
        // A case without values: reflection records its name, Codable an empty object.
        if case .string(let string) = payload { return string == name && casePath.count == 1 ? [] : nil }
        guard case .object(let wrapper) = payload, wrapper.count == 1, case .object(let values)? = wrapper[name] else { return nil }
        let rest = casePath.dropFirst()
        let valuesPath = path.appending(name)
        var arguments: [(label: String?, value: JSONValue, path: JSONPointer)] = []
        var followed = rest.isEmpty
        for (key, value) in values.members {
            if !followed, let nested = caseArguments(value, casePath: rest, at: valuesPath.appending(key)) {
                arguments += nested
                followed = true
            } else {
                arguments.append((isPositional(key) ? nil : key, value, valuesPath.appending(key)))
            }
        }
        return followed ? arguments : nil
    }

    /// `_0`, `_1`…: how Codable and reflection name unlabelled associated values.
    private static func isPositional(_ key: String) -> Bool {
        key.count > 1 && key.first == "_" && key.dropFirst().allSatisfy(\.isASCII) && key.dropFirst().allSatisfy(\.isNumber)
    }
}

extension JSONValue {
    /// True for objects and arrays.
    package var isContainer: Bool {
        switch self {
        case .object, .array: true
        default: false
        }
    }
}
