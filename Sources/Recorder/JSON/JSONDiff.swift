/// Structural differences between two JSON documents.
///
/// ```swift
/// let patch = JSONDiff.patch(from: old, to: new)
/// try patch.applied(to: old) == new   // always true
/// ```
public enum JSONDiff {
    /// An RFC 6902 patch that turns `old` into `new`.
    public static func patch(from old: JSONValue, to new: JSONValue) -> JSONPatch {
        var operations: [JSONPatchOperation] = []
        diff(old, new, at: JSONPointer(), into: &operations)
        return JSONPatch(operations)
    }

    // Interim: objects by key, arrays element-wise with a tail add/remove.
    static func diff(_ old: JSONValue, _ new: JSONValue, at path: JSONPointer, into operations: inout [JSONPatchOperation]) {
        switch (old, new) {
        case (.object(let a), .object(let b)):
            for (key, value) in a.members {
                if let other = b[key] {
                    diff(value, other, at: path.appending(key), into: &operations)
                } else {
                    operations.append(.remove(path: path.appending(key)))
                }
            }
            for (key, value) in b.members where a[key] == nil {
                operations.append(.add(path: path.appending(key), value: value))
            }
        case (.array(let a), .array(let b)):
            let shared = min(a.count, b.count)
            for index in 0..<shared { diff(a[index], b[index], at: path.appending(index), into: &operations) }
            if a.count > b.count {
                for index in (shared..<a.count).reversed() { operations.append(.remove(path: path.appending(index))) }
            } else {
                for index in shared..<b.count { operations.append(.add(path: path.appending("-"), value: b[index])) }
            }
        default:
            if old != new { operations.append(.replace(path: path, value: new)) }
        }
    }
}
