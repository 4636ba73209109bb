import Recorder

extension JSONNode {
    /// Nodes with more than this much JSON still to parse are built a child at a time.
    static let childWiseBytes = 1 << 20

    /// The node whole, as ``value`` gives it; a node with over `childWiseBytes` of JSON
    /// still to parse (a huge state's keyframe, held as its bytes) is built a child at a
    /// time with a look at `isCancelled` between them, so `e` on a 30 MB state stops
    /// within a child's parse when Esc is pressed, not after the whole state's. Nil once
    /// cancelled.
    func value(childWiseAbove threshold: Int = childWiseBytes, unlessCancelled isCancelled: () -> Bool) -> JSONValue? {
        guard isContainer, unparsedBytes >= threshold else { return value }
        if isCancelled() { return nil }
        var cancelled = false
        var keys: [String] = []
        var values: [JSONValue] = []
        values.reserveCapacity(count)
        forEachChild { key, child in
            guard let built = child.value(childWiseAbove: threshold, unlessCancelled: isCancelled), !isCancelled() else {
                cancelled = true
                return false
            }
            if let key { keys.append(key) }
            values.append(built)
            return true
        }
        if cancelled { return nil }
        // The node's keys are distinct already (a repeated key is read as its last value, at its first position).
        return kind == .object ? .object(JSONObject(zip(keys, values))) : .array(values)
    }
}
