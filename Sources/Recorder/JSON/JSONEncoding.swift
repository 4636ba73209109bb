import Foundation

/// Turns Swift values into JSON.
///
/// ```swift
/// let value = try JSONEncoding.value(of: appState)       // Encodable, lossless
/// let dump = JSONEncoding.reflecting(nonCodableThing)      // any value, through Mirror
/// ```
public enum JSONEncoding {
    /// Encodes an `Encodable` value to a ``JSONValue``, keys in encoding order.
    public static func value<T: Encodable>(of value: T) throws -> JSONValue {
        // Interim implementation through Foundation; replaced by the fast encoder.
        let data = try JSONEncoder().encode(value)
        return try JSONParser.parse(data)
    }

    /// Encodes an `Encodable` value straight to compact UTF-8 JSON.
    public static func bytes<T: Encodable>(of value: T) throws -> [UInt8] {
        JSONWriter.compact(try self.value(of: value))
    }

    /// A readable JSON-shaped dump of any value through reflection (`Mirror`).
    /// Never fails; the result is for reading, not for decoding back.
    public static func reflecting(_ value: Any) -> JSONValue {
        let mirror = Mirror(reflecting: value)
        switch value {
        case let string as String: return .string(string)
        case let bool as Bool: return .bool(bool)
        case let int as Int: return .integer(Int64(int))
        case let double as Double: return .double(double)
        default: break
        }
        if mirror.children.isEmpty { return .string(String(describing: value)) }
        var object = JSONObject()
        for (index, child) in mirror.children.enumerated() {
            object[child.label ?? "\(index)"] = reflecting(child.value)
        }
        return .object(object)
    }
}
