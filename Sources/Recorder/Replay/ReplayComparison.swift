/// How recorded and recomputed states are compared: as JSON values (so key
/// order and number spelling never cause a false divergence), with redacted
/// values left out, since a redaction marker cannot be recomputed.
enum ReplayComparison {
    static func matches(recorded: JSONValue, recomputed: JSONValue) -> Bool {
        recorded == recomputed || recorded == masked(recomputed, like: recorded)
    }

    /// `recomputed` with every value that the recording shows as a redaction
    /// marker (`"‹redacted 5f0c21a9›"`) replaced by that marker.
    static func masked(_ recomputed: JSONValue, like recorded: JSONValue) -> JSONValue {
        switch (recorded, recomputed) {
        case (.string(let marker), _) where marker.hasPrefix("‹redacted "):
            return recorded
        case (.object(let old), .object(var new)):
            for (key, value) in old.members {
                if let current = new[key] { new[key] = masked(current, like: value) }
            }
            return .object(new)
        case (.array(let old), .array(var new)):
            for index in new.indices where index < old.count { new[index] = masked(new[index], like: old[index]) }
            return .array(new)
        default:
            return recomputed
        }
    }
}
