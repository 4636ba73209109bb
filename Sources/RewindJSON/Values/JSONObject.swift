/// A JSON object that remembers the order its keys were inserted in.
///
/// Lookups are O(1) for large objects (a key index is kept once the object
/// grows past a few members) and a linear scan for small ones, which is faster
/// there. Equality ignores order, as JSON does. Keys are compared by their
/// Unicode scalars, as JSON compares them, not by canonical equivalence as
/// `String ==` does: `"é"` (U+00E9) and `"e\u{301}"` are two keys.
public struct JSONObject: Sendable {
    /// The keys and their lookup index, shared copy-on-write: the objects of
    /// an array of structs all hold one. Keeping both behind one reference
    /// makes a ``JSONValue`` three words instead of four and an object one
    /// retain instead of two.
    private var shape: Shape
    /// The members' values, in the order of ``keys``.
    public private(set) var values: [JSONValue] = []
    static let indexThreshold = 12

    /// An empty object.
    public init() { shape = Shape.empty }

    /// Builds an object from key/value pairs; a repeated key keeps its first
    /// position and its last value.
    public init<S: Sequence>(_ pairs: S) where S.Element == (String, JSONValue) {
        self.init()
        for (key, value) in pairs { self[key] = value }
    }

    /// The keys in document order.
    public var keys: [String] { shape.keys }
    /// The number of members.
    public var count: Int { values.count }
    /// True for `{}`.
    public var isEmpty: Bool { values.isEmpty }

    /// Members in order; a repeated key keeps its first position and its last value.
    init(keys: [String], values: [JSONValue]) {
        if Self.hasRepeatedKeys(keys) {
            self.init(zip(keys, values))
        } else {
            self.init(uniqueKeys: keys, values: values)
        }
    }

    static func hasRepeatedKeys(_ keys: [String]) -> Bool {
        if keys.count <= 16 {
            for index in keys.indices.dropFirst() {
                for earlier in 0..<index where keys[earlier].hasSameScalars(as: keys[index]) { return true }
            }
            return false
        }
        return Set(keys.map(_ScalarKey.init)).count != keys.count
    }

    /// Where `key` is among `keys`, comparing Unicode scalars.
    @inline(__always)
    static func firstIndex(of key: String, in keys: ArraySlice<String>) -> Int? {
        keys.firstIndex { $0.hasSameScalars(as: key) }
    }

    /// Members whose keys are known to be distinct (the parser checks).
    init(uniqueKeys keys: [String], values: [JSONValue]) {
        shape = Shape(uniqueKeys: keys)
        self.values = values
    }

    /// Members with the keys of `shape`, in order.
    init(shape: Shape, values: [JSONValue]) {
        self.shape = shape
        self.values = values
    }

    /// The keys of an object, in order, with their lookup index (kept only
    /// above `indexThreshold` keys, where it beats a linear scan).
    /// Copy-on-write: an object edits its shape in place only when it holds
    /// the only reference.
    final class Shape: @unchecked Sendable {
        // Unchecked, in both senses: a shape is mutated only by its sole
        // owner (after `uniqueShape()`), as with Array's storage, so neither
        // data races nor overlapping accesses can happen; dynamic
        // exclusivity checks on every read of the keys cost a fifth of parsing.
        @exclusivity(unchecked) private(set) var keys: [String]
        @exclusivity(unchecked) private(set) var positions: [_ScalarKey: Int]?

        static let empty = Shape(uniqueKeys: [])

        /// `keys` must be distinct.
        init(uniqueKeys keys: [String]) {
            self.keys = keys
            positions = keys.count > JSONObject.indexThreshold ? JSONObject.index(of: keys) : nil
        }

        @inline(__always)
        func index(of key: String) -> Int? {
            if positions != nil { return indexedPosition(of: key) }
            for index in keys.indices where keys[index].hasSameScalars(as: key) { return index }
            return nil
        }

        private func indexedPosition(of key: String) -> Int? { positions?[_ScalarKey(key)] }

        func append(_ key: String) {
            keys.append(key)
            if positions != nil {
                positions![_ScalarKey(key)] = keys.count - 1
            } else if keys.count > JSONObject.indexThreshold {
                positions = JSONObject.index(of: keys)
            }
        }

        func insert(_ key: String, at position: Int) {
            keys.insert(key, at: position)
            if keys.count > JSONObject.indexThreshold { positions = JSONObject.index(of: keys) }
        }

        func remove(at position: Int) {
            keys.remove(at: position)
            if positions != nil {
                positions = keys.count > JSONObject.indexThreshold ? JSONObject.index(of: keys) : nil
            }
        }
    }

    /// The shape, copied first if another object shares it.
    private mutating func uniqueShape() -> Shape {
        if !isKnownUniquelyReferenced(&shape) { shape = Shape(uniqueKeys: shape.keys) }
        return shape
    }

    /// The members in order.
    public var members: Zip2Sequence<[String], [JSONValue]> { zip(keys, values) }

    /// The position of `key` among the keys, comparing Unicode scalars.
    public func index(of key: String) -> Int? { shape.index(of: key) }

    /// Reads, replaces, appends (new keys go last) or removes (assign `nil`) a member.
    public subscript(key: String) -> JSONValue? {
        get { index(of: key).map { values[$0] } }
        set {
            if let position = index(of: key) {
                if let newValue {
                    values[position] = newValue
                } else {
                    remove(at: position)
                }
            } else if let newValue {
                uniqueShape().append(key)
                values.append(newValue)
            }
        }
    }

    /// Inserts a new member at `position`, or replaces the value of an existing
    /// key in place.
    public mutating func insert(_ value: JSONValue, forKey key: String, at position: Int) {
        if let existing = index(of: key) {
            values[existing] = value
            return
        }
        uniqueShape().insert(key, at: position)
        values.insert(value, at: position)
    }

    /// Edits the value at `position` in place.
    mutating func modifyValue<Result, Failure: Error>(at position: Int, _ body: (inout JSONValue) throws(Failure) -> Result) throws(Failure) -> Result {
        try body(&values[position])
    }

    /// Removes and returns the value for `key`, if present.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> JSONValue? {
        guard let position = index(of: key) else { return nil }
        let value = values[position]
        remove(at: position)
        return value
    }

    private mutating func remove(at position: Int) {
        uniqueShape().remove(at: position)
        values.remove(at: position)
    }

    fileprivate static func index(of keys: [String]) -> [_ScalarKey: Int] {
        var index = [_ScalarKey: Int](minimumCapacity: keys.count)
        for (position, key) in keys.enumerated() { index[_ScalarKey(key)] = position }
        return index
    }
}

extension JSONObject: Equatable {
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if lhs.shape === rhs.shape || lhs.keys.haveSameScalars(as: rhs.keys) { return lhs.values == rhs.values }
        for (key, value) in lhs.members {
            guard let other = rhs[key], other == value else { return false }
        }
        return true
    }
}

extension JSONObject: Hashable {
    // Order-independent, to agree with ==.
    public func hash(into hasher: inout Hasher) {
        var combined = 0
        for (key, value) in members {
            var member = Hasher()
            key.hashScalars(into: &member)
            member.combine(value)
            combined ^= member.finalize()
        }
        hasher.combine(count)
        hasher.combine(combined)
    }
}
