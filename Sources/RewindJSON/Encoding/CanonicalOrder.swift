/// Collections whose own `encode(to:)` writes in hash order: `Dictionary` and
/// `Set`. Hash order differs between processes (Swift seeds hashing per
/// process) and between two equal values in one process, so the same state
/// would give different bytes: a spurious patch in every entry, and a false
/// divergence when `verify` runs in another process. Rewind's encoders write
/// them in a fixed order instead (docs/JSON.md, "Canonical encoding"):
///
/// - dictionaries keyed by `String` (and `CodingKeyRepresentable` keys): an
///   object, members sorted by the UTF-8 bytes of their keys;
/// - keyed by `Int`: an object, members in numeric order;
/// - other keys: the flat `[key, value, …]` array `JSONEncoder` writes, pairs
///   sorted by the encoded bytes of their keys;
/// - sets: an array sorted by the values (strings by UTF-8, integers
///   numerically), or by their encoded bytes.
///
/// The JSON is what `JSONDecoder` reads back as the same collection.
protocol _CanonicallyOrdered {
    /// Encodes the collection as its own `encode(to:)` would, in canonical order.
    func encodeCanonically(to encoder: any Encoder) throws
}

extension Dictionary: _CanonicallyOrdered where Key: Encodable, Value: Encodable {
    func encodeCanonically(to encoder: any Encoder) throws {
        if Key.self == Int.self {
            var container = encoder.container(keyedBy: _CanonicalKey.self)
            for (key, value) in sorted(by: { ($0.key as! Int) < ($1.key as! Int) }) {
                try container.encode(value, forKey: _CanonicalKey(String(key as! Int)))
            }
        } else if Key.self == String.self || Key.self is any CodingKeyRepresentable.Type {
            let members = map { (key: Self.stringKey($0.key), value: $0.value) }
                .sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            var container = encoder.container(keyedBy: _CanonicalKey.self)
            for member in members { try container.encode(member.value, forKey: _CanonicalKey(member.key)) }
        } else {
            let pairs = try map { (key: try JSONEncoding.compact($0.key), pair: $0) }
                .sorted { $0.key.lexicographicallyPrecedes($1.key) }
            var container = encoder.unkeyedContainer()
            for item in pairs {
                try container.encode(item.pair.key)
                try container.encode(item.pair.value)
            }
        }
    }

    private static func stringKey(_ key: Key) -> String {
        if let string = key as? String { return string }
        return (key as! any CodingKeyRepresentable).codingKey.stringValue
    }
}

extension Set: _CanonicallyOrdered where Element: Encodable {
    func encodeCanonically(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        if Element.self == String.self {
            for element in sorted(by: { ($0 as! String).utf8.lexicographicallyPrecedes(($1 as! String).utf8) }) {
                try container.encode(element)
            }
        } else if Element.self == Int.self {
            for element in sorted(by: { ($0 as! Int) < ($1 as! Int) }) { try container.encode(element) }
        } else {
            let encoded = try map { (bytes: try JSONEncoding.compact($0), element: $0) }
            for item in encoded.sorted(by: { $0.bytes.lexicographicallyPrecedes($1.bytes) }) {
                try container.encode(item.element)
            }
        }
    }
}

/// A member key given as text.
struct _CanonicalKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
