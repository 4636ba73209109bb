/// A JSON object that remembers the order its keys were inserted in.
///
/// Lookups are O(1) for large objects (a key index is kept once the object
/// grows past a few members) and a linear scan for small ones, which is faster
/// there. Equality ignores order, as JSON does.
public struct JSONObject: Sendable {
    public private(set) var keys: [String] = []
    public private(set) var values: [JSONValue] = []
    /// Position of each key; only maintained above `indexThreshold` members.
    private var positions: [String: Int]? = nil
    private static let indexThreshold = 12

    public init() {}

    /// Builds an object from key/value pairs; a repeated key keeps its first
    /// position and its last value.
    public init<S: Sequence>(_ pairs: S) where S.Element == (String, JSONValue) {
        for (key, value) in pairs { self[key] = value }
    }

    public var count: Int { keys.count }
    public var isEmpty: Bool { keys.isEmpty }

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
            for index in keys.indices.dropFirst() where keys[..<index].contains(keys[index]) { return true }
            return false
        }
        return Set(keys).count != keys.count
    }

    /// Members whose keys are known to be distinct (the parser checks).
    init(uniqueKeys keys: [String], values: [JSONValue]) {
        self.keys = keys
        self.values = values
        if keys.count > Self.indexThreshold { rebuildIndex() }
    }

    /// The keys of an object, in order, with their lookup index: objects of
    /// one shape (the elements of an array of structs) share a single copy.
    struct Shape {
        let keys: [String]
        let positions: [String: Int]?

        /// `keys` must be distinct.
        init(uniqueKeys keys: [String]) {
            self.keys = keys
            positions = keys.count > JSONObject.indexThreshold ? JSONObject.index(of: keys) : nil
        }
    }

    /// Members with the keys of `shape`, in order.
    init(shape: Shape, values: [JSONValue]) {
        keys = shape.keys
        self.values = values
        positions = shape.positions
    }

    /// The members in order.
    public var members: Zip2Sequence<[String], [JSONValue]> { zip(keys, values) }

    public func index(of key: String) -> Int? {
        if let positions { return positions[key] }
        return keys.firstIndex(of: key)
    }

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
                keys.append(key)
                values.append(newValue)
                if positions != nil {
                    positions![key] = keys.count - 1
                } else if keys.count > Self.indexThreshold {
                    rebuildIndex()
                }
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
        keys.insert(key, at: position)
        values.insert(value, at: position)
        if keys.count > Self.indexThreshold { rebuildIndex() }
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
        keys.remove(at: position)
        values.remove(at: position)
        if positions != nil {
            if keys.count > Self.indexThreshold { rebuildIndex() } else { positions = nil }
        }
    }

    private mutating func rebuildIndex() { positions = Self.index(of: keys) }

    private static func index(of keys: [String]) -> [String: Int] {
        var index = [String: Int](minimumCapacity: keys.count)
        for (position, key) in keys.enumerated() { index[key] = position }
        return index
    }
}

extension JSONObject: Equatable {
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if lhs.keys == rhs.keys { return lhs.values == rhs.values }
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
            member.combine(key)
            member.combine(value)
            combined ^= member.finalize()
        }
        hasher.combine(count)
        hasher.combine(combined)
    }
}
