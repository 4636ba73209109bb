/// How the recorder turns recorded Swift values into JSON: the one encoding
/// path for states and action payloads (docs/JSON.md, "Canonical encoding").
enum RecordedValue {
    /// Encodes `value` into the empty `encoder` with its structural index:
    /// `Codable` values through the byte encoder (replayable when the type is
    /// also `Decodable`), anything else through reflection (not replayable).
    /// Returns why the value cannot be recorded when it is nested deeper than a
    /// log record may be (a reference cycle, usually); never throws.
    static func encodeIndexed(_ value: Any, into encoder: _StreamingEncoder) -> (replayable: Bool, problem: String?) {
        encoder.indexing = true
        if let copy = value as? PreEncodedValue {
            writeIndexed(copy.json, into: encoder)
            return (copy.replayable, nil)
        }
        if let encodable = value as? any Encodable {
            do {
                try encodeTopLevel(encodable, into: encoder)
                return (type(of: value) is any Decodable.Type, nil)
            } catch is _NeedsValueEncoder {
                // The type writes its containers out of order: build a tree, then index its text.
                encoder.resetAfterFailure()
                if let tree = try? JSONEncoding.value(of: encodable) {
                    writeIndexed(tree, into: encoder)
                    return (type(of: value) is any Decodable.Type, nil)
                }
            } catch {
                if JSONEncoding.isTooDeep(error) {
                    encoder.resetAfterFailure()
                    return (false, LogLimits.nestedTooDeepToEncode)
                }
            }
            encoder.resetAfterFailure()
        }
        writeIndexed(JSONEncoding.reflecting(value), into: encoder)
        return (false, nil)
    }

    private static func encodeTopLevel<T: Encodable>(_ value: T, into encoder: _StreamingEncoder) throws {
        try encoder.encodeTopLevel(value)
    }

    /// Writes a tree into the empty `encoder` and indexes what it wrote.
    static func writeIndexed(_ tree: JSONValue, into encoder: _StreamingEncoder) {
        JSONWriter.write(tree, to: encoder)
        encoder.nodes.removeAll()
        encoder.deepestNesting = _StructuralScanner.index(UnsafeBufferPointer(start: encoder.base, count: encoder.count), into: &encoder.nodes)
    }

    /// An action payload as compact JSON: `Codable` through the byte encoder,
    /// anything else through reflection. Never throws.
    static func encodePayload(_ value: Any) -> EncodedPayload {
        if let copy = value as? PreEncodedValue { return EncodedPayload(bytes: JSONWriter.compact(copy.json), replayable: copy.replayable) }
        if let encodable = value as? any Encodable, let encoded = try? JSONEncoding.bytesAndDatePaths(of: encodable) {
            return EncodedPayload(bytes: encoded.bytes, replayable: type(of: value) is any Decodable.Type, datePaths: encoded.datePaths)
        }
        return EncodedPayload(bytes: JSONWriter.compact(JSONEncoding.reflecting(value)), replayable: false)
    }

    /// An action (or value) as the log holds it: its JSON, whether it decodes again, and where it holds `Date`s.
    struct EncodedPayload {
        var bytes: [UInt8]
        var replayable: Bool
        var datePaths: [String] = []
    }

    /// A value as a ``JSONValue``, encoded as ``encodePayload(_:)`` encodes it: for the
    /// outside values an entry records (see ``EntryExtras``).
    static func encode(_ value: Any) -> (value: JSONValue, replayable: Bool) {
        if let copy = value as? PreEncodedValue { return (copy.json, copy.replayable) }
        let payload = encodePayload(value)
        return ((try? JSONParser.parse(payload.bytes)) ?? .null, payload.replayable)
    }

    /// ``actionName(_:)`` for an action whose payload is already encoded. A
    /// `Codable` enum case's payload starts with the case's name as its first
    /// key (`{"toggle":{"_0":3}}`); when that name alone was the action's name
    /// before, for that type and case, it is again, without reflection (which
    /// took a quarter of the writer's time for small states).
    static func actionName(_ action: Any, payload: [UInt8]) -> String {
        if let copy = action as? PreEncodedValue, let name = copy.actionName { return name }
        let type = ObjectIdentifier(Swift.type(of: action))
        guard let label = firstKey(of: payload) else { return actionName(action) }
        let key = PlainCase(type: type, label: label)
        if plainCases.withLock({ $0.contains(key) }) { return label }
        let name = actionName(action)
        if name == label { plainCases.withLock { _ = $0.insert(key) } }
        return name
    }

    private struct PlainCase: Hashable {
        let type: ObjectIdentifier
        let label: String
    }

    private static let plainCases = Locked<Set<PlainCase>>([])

    /// The first key of a payload that is an object (`{"name":…`), when it has no escapes.
    private static func firstKey(of payload: [UInt8]) -> String? {
        guard payload.count > 3, payload[0] == UInt8(ascii: "{"), payload[1] == UInt8(ascii: "\"") else { return nil }
        guard let end = payload[2...].firstIndex(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }),
            payload[end] == UInt8(ascii: "\""), end > 2 else { return nil }
        return String(decoding: payload[2..<end], as: UTF8.self)
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

    /// Whether a payload type is followed into (its name ends in `Action`). Asked for every
    /// action recorded, and `String(describing:)` of a type is slow, so the answers are kept.
    private static func isActionType(_ type: Any.Type) -> Bool {
        let key = ObjectIdentifier(type)
        if let known = actionTypes.withLock({ $0[key] }) { return known }
        let answer = String(describing: type).hasSuffix("Action")
        actionTypes.withLock { $0[key] = answer }
        return answer
    }

    private static let actionTypes = Locked<[ObjectIdentifier: Bool]>([:])
}

/// A value already in the log's JSON form, written as it is: what saving a
/// branch copies from the log it forks (an action recorded through reflection,
/// recorded outside values). ``RecordedValue`` recognises it.
struct PreEncodedValue: Sendable {
    var json: JSONValue
    var replayable = true
    /// For an action: its recorded case path.
    var actionName: String?
}
