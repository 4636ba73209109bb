/// How the writer turns recorded Swift values into JSON, on its own thread.
enum RecordedValue {
    /// `Codable` values losslessly (replayable); anything else through reflection,
    /// marked not replayable. Never fails.
    static func encode(_ value: Any) -> (value: JSONValue, replayable: Bool) {
        if let copy = value as? PreEncodedValue { return (copy.json, copy.replayable) }
        let encoded = JSONEncoding.encodeAny(value)
        // Replay decodes the value back, so an Encodable-only type is not replayable.
        return (encoded.value, encoded.replayable && type(of: value) is any Decodable.Type)
    }

    /// The enum case path of an action: `.primary(.brakeTapped)` is
    /// `primary.brakeTapped`, `.add(title: "x")` is `add`, `.car(.secondary, .brakeTapped)`
    /// is `car.brakeTapped`; a struct action is its type name. A payload enum is followed only when its type name ends in `Action`
    /// (`Car.Action`, `EngineAction`), so `.setFilter(.done)` stays `setFilter`.
    static func actionName(_ action: Any) -> String {
        if let copy = action as? PreEncodedValue, let name = copy.actionName { return name }
        var parts: [String] = []
        var current = action
        while true {
            let mirror = Mirror(reflecting: current)
            if mirror.displayStyle == .optional {
                guard let wrapped = mirror.children.first?.value else { return parts.isEmpty ? "nil" : parts.joined(separator: ".") }
                current = wrapped
                continue
            }
            guard mirror.displayStyle == .enum else {
                if parts.isEmpty { parts.append(String(describing: type(of: current))) }
                break
            }
            guard let child = mirror.children.first, let label = child.label else {
                // A case without payload reflects as its name.
                parts.append(String(describing: current))
                break
            }
            parts.append(label)
            // Follow a payload that is itself an action enum: `.primary(.brakeTapped)`.
            var payload = child.value
            let mirrorOfPayload = Mirror(reflecting: payload)
            if mirrorOfPayload.displayStyle == .tuple {
                // `.car(.secondary, .accelerate(by: 10))`: follow the one child action.
                let actions = mirrorOfPayload.children.filter { isActionType(type(of: $0.value)) }
                guard actions.count == 1, let only = actions.first else { break }
                payload = only.value
            }
            guard Mirror(reflecting: payload).displayStyle == .enum, isActionType(type(of: payload)) else { break }
            current = payload
        }
        return parts.joined(separator: ".")
    }

    private static func isActionType(_ type: Any.Type) -> Bool {
        String(describing: type).hasSuffix("Action")
    }
}

/// A value already in the log's JSON form, written as it is: what saving a
/// branch copies from the log it forks (an action recorded through reflection,
/// recorded outside values). ``RecordedValue`` recognises it; a writer that
/// encodes values another way must too.
struct PreEncodedValue: Sendable {
    var json: JSONValue
    var replayable = true
    /// For an action: its recorded case path.
    var actionName: String?
}
