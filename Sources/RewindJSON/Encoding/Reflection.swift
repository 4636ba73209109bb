import Foundation

extension JSONEncoding {
    /// A readable, deterministic JSON dump of any value through `Mirror`; for
    /// reading, not for decoding back. Never fails.
    ///
    /// - Structs, tuples with labels and classes become objects of their stored
    ///   properties (a class includes its superclasses' properties).
    /// - A class instance that is already being dumped further up the same path
    ///   becomes `{"$ref": "ClassName"}`, so reference cycles terminate.
    /// - Enum cases without payload are their name (`"idle"`); with a payload,
    ///   `{"loaded": {"_0": …}}` (labelled associated values use their labels).
    /// - Optionals are the wrapped value or `null`; arrays and unlabelled tuples
    ///   are arrays; dictionaries are objects with keys as text, sorted; sets are
    ///   arrays sorted by their JSON text.
    /// - Closures are `"<function (Int) -> Int>"`; errors their description.
    ///
    /// ```swift
    /// JSONEncoding.reflecting(Status.loaded(3))   // {"loaded":{"_0":3}}
    /// ```
    public static func reflecting(_ value: Any) -> JSONValue {
        var reflector = _Reflector()
        return reflector.reflect(value, depth: 0)
    }
}

/// Walks a value through `Mirror`, remembering the class instances on the
/// current path to cut cycles.
struct _Reflector {
    private var objectsOnPath = Set<ObjectIdentifier>()

    mutating func reflect(_ value: Any, depth: Int) -> JSONValue {
        if let scalar = Self.scalar(value) { return scalar }
        guard depth < JSONEncoding.maximumDepth else { return .string("…") }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            guard let wrapped = mirror.children.first else { return .null }
            return reflect(wrapped.value, depth: depth)
        case .collection:
            return .array(mirror.children.map { reflect($0.value, depth: depth + 1) })
        case .set:
            let elements = mirror.children.map { reflect($0.value, depth: depth + 1) }
            return .array(elements.map { ($0, JSONWriter.compactString($0)) }.sorted { $0.1 < $1.1 }.map(\.0))
        case .dictionary:
            var pairs: [(String, JSONValue)] = []
            for child in mirror.children {
                let pair = Array(Mirror(reflecting: child.value).children)
                guard pair.count == 2 else { continue }
                let key = pair[0].value as? String ?? String(describing: pair[0].value)
                pairs.append((key, reflect(pair[1].value, depth: depth + 1)))
            }
            pairs.sort { $0.0 < $1.0 }
            return .object(JSONObject(pairs))
        case .enum:
            guard let payload = mirror.children.first else { return .string(String(describing: value)) }
            let caseName = payload.label ?? String(describing: value)
            return .object(JSONObject([(caseName, reflectPayload(payload.value, depth: depth + 1))]))
        case .tuple:
            if mirror.children.allSatisfy({ $0.label == nil || $0.label!.hasPrefix(".") }) {
                return .array(mirror.children.map { reflect($0.value, depth: depth + 1) })
            }
            return members(of: mirror, depth: depth)
        case .class:
            let identity = ObjectIdentifier(value as AnyObject)
            if objectsOnPath.contains(identity) { return .object(JSONObject([("$ref", .string(Self.typeName(value)))])) }
            objectsOnPath.insert(identity)
            defer { objectsOnPath.remove(identity) }
            return members(of: mirror, depth: depth)
        case .struct:
            return members(of: mirror, depth: depth)
        default:
            if mirror.children.isEmpty { return Self.opaque(value) }
            return members(of: mirror, depth: depth)
        }
    }

    /// Associated values as an object: `_0`, `_1`… or their labels.
    private mutating func reflectPayload(_ payload: Any, depth: Int) -> JSONValue {
        let mirror = Mirror(reflecting: payload)
        guard mirror.displayStyle == .tuple else { return .object(JSONObject([("_0", reflect(payload, depth: depth))])) }
        var object = JSONObject()
        for (index, child) in mirror.children.enumerated() {
            object[Self.memberName(child.label, index: index)] = reflect(child.value, depth: depth + 1)
        }
        return .object(object)
    }

    private mutating func members(of mirror: Mirror, depth: Int) -> JSONValue {
        var chain: [Mirror] = [mirror]
        while let parent = chain.last!.superclassMirror { chain.append(parent) }
        var object = JSONObject()
        var index = 0
        for level in chain.reversed() {
            for child in level.children {
                object[Self.memberName(child.label, index: index)] = reflect(child.value, depth: depth + 1)
                index += 1
            }
        }
        return .object(object)
    }

    private static func memberName(_ label: String?, index: Int) -> String {
        guard let label, !label.isEmpty else { return "_\(index)" }
        return label.hasPrefix(".") ? "_" + label.dropFirst() : label
    }

    /// Numbers, text and the Foundation types with an obvious JSON form.
    private static func scalar(_ value: Any) -> JSONValue? {
        switch value {
        case let value as String: return .string(value)
        case let value as Bool: return .bool(value)
        case let value as Int: return .integer(Int64(value))
        case let value as Double: return .double(value)
        case let value as Float: return _SpecialEncodable.float(value)
        case let value as Int64: return .integer(value)
        case let value as Int32: return .integer(Int64(value))
        case let value as Int16: return .integer(Int64(value))
        case let value as Int8: return .integer(Int64(value))
        case let value as UInt: return _SpecialEncodable.unsigned(UInt64(value))
        case let value as UInt64: return _SpecialEncodable.unsigned(value)
        case let value as UInt32: return .integer(Int64(value))
        case let value as UInt16: return .integer(Int64(value))
        case let value as UInt8: return .integer(Int64(value))
        case let value as Character: return .string(String(value))
        case let value as Substring: return .string(String(value))
        case let value as Date: return .double(value.timeIntervalSinceReferenceDate)
        case let value as Data: return .string(value.base64EncodedString())
        case let value as URL: return .string(value.absoluteString)
        case let value as UUID: return .string(value.uuidString)
        case let value as Decimal: return _SpecialEncodable.decimal(value)
        case let value as any Error: return .string(String(describing: value))
        default: return nil
        }
    }

    /// Values with no children: closures get a readable marker, anything else its description.
    private static func opaque(_ value: Any) -> JSONValue {
        let name = typeName(value)
        if name.contains("->") { return .string("<function \(name)>") }
        return .string(String(describing: value))
    }

    private static func typeName(_ value: Any) -> String { String(describing: type(of: value)) }
}
