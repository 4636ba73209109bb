import Recorder

/// Short text for values, payloads and times in the panes.
enum ValueFormatting {
    /// `+1.234s`, `+2m05s`, `+1h02m`: time since the first entry.
    static func timeOffset(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0 else { return "+?" }
        if seconds < 100 {
            let milliseconds = Int((seconds * 1000).rounded())
            let fraction = String(milliseconds % 1000)
            return "+\(milliseconds / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)s"
        }
        let whole = Int(seconds)
        if whole < 3600 { return "+\(whole / 60)m\(twoDigits(whole % 60))s" }
        return "+\(whole / 3600)h\(twoDigits(whole / 60 % 60))m"
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }

    /// A payload without what the action name already says; callers truncate to fit.
    ///
    /// Recorded enum actions arrive wrapped in their cases, `{"add":{"title":"Buy milk"}}`
    /// for `.add(title:)` named `add`. The summary peels the cases named in `actionType`
    /// and lists the associated values like a call: `title: "Buy milk"`, `id: 2, tag: "work"`;
    /// unlabelled ones (`_0`) as bare values, `"active"`; cases without values as nothing.
    /// Other payloads (struct actions, imported Redux actions) stay compact JSON.
    static func payloadSummary(_ payload: JSONValue, actionType: String) -> String {
        if payload == .null { return "" }
        let casePath = actionType.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if let arguments = caseArguments(payload, casePath: casePath[...]) {
            return arguments.map { label, value in
                label.map { "\($0): \(value.description)" } ?? value.description
            }.joined(separator: ", ")
        }
        // Single-member objects read better without their braces: `id: 3`.
        if case .object(let object) = payload, object.count == 1, let (key, value) = object.members.first(where: { _ in true }),
           !isContainer(value) {
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

    /// What a tree row shows after its key: a scalar, or a summary of a container.
    static func nodeSummary(_ value: JSONValue, expanded: Bool) -> String {
        switch value {
        case .object(let object):
            if expanded { return "{\(object.count)}" }
            let keys = object.keys.prefix(6).joined(separator: ", ")
            return object.count > 6 ? "{\(keys), …}" : "{\(keys)}"
        case .array(let elements):
            return elements.isEmpty ? "[]" : "[\(elements.count)]"
        default:
            return value.description
        }
    }

    static func isContainer(_ value: JSONValue) -> Bool {
        switch value {
        case .object, .array: true
        default: false
        }
    }
}
