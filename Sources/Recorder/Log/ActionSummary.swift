/// How a recorded action reads on one line, shared by the inspector's
/// timeline, `rewind log` and replay reports.
package enum ActionSummary {
    /// A payload without what the action name already says; callers truncate to fit.
    ///
    /// Recorded enum actions arrive wrapped in their cases, `{"add":{"title":"Buy milk"}}`
    /// for `.add(title:)` named `add`. The summary peels the cases named in `actionType`
    /// and lists the associated values like a call: `title: "Buy milk"`, `id: 2, tag: "work"`;
    /// unlabelled ones (`_0`) as bare values, `"active"`; cases without values as nothing.
    /// Other payloads (struct actions, imported Redux actions) stay compact JSON.
    package static func payload(_ payload: JSONValue, actionType: String) -> String {
        if payload == .null { return "" }
        let casePath = actionType.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if let arguments = caseArguments(payload, casePath: casePath[...]) {
            return arguments.map { label, value in
                label.map { "\($0): \(value.description)" } ?? value.description
            }.joined(separator: ", ")
        }
        // Single-member objects read better without their braces: `id: 3`.
        if case .object(let object) = payload, object.count == 1, let (key, value) = object.members.first(where: { _ in true }),
           !value.isContainer {
            return "\(key): \(value.description)"
        }
        return payload.description
    }

    /// The associated values of the innermost case in `casePath`, with the
    /// other values of the cases on the way (`.car(.secondary, .accelerate(by: 20))`
    /// named `car.accelerate` gives `"secondary", by: 20`); nil when the payload
    /// is not a case wrapper of that path.
    private static func caseArguments(_ payload: JSONValue, casePath: ArraySlice<String>) -> [(label: String?, value: JSONValue)]? {
        guard let name = casePath.first else { return nil }
        // A case without values: reflection records its name, Codable an empty object.
        if case .string(let string) = payload { return string == name && casePath.count == 1 ? [] : nil }
        guard case .object(let wrapper) = payload, wrapper.count == 1, case .object(let values)? = wrapper[name] else { return nil }
        let rest = casePath.dropFirst()
        var arguments: [(label: String?, value: JSONValue)] = []
        var followed = rest.isEmpty
        for (key, value) in values.members {
            if !followed, let nested = caseArguments(value, casePath: rest) {
                arguments += nested
                followed = true
            } else {
                arguments.append((isPositional(key) ? nil : key, value))
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
