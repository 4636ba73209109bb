import Recorder

/// The readable state diff used in failure reports.
enum StateChange {
    static func text(from old: JSONValue, to new: JSONValue) -> String? {
        let patch = JSONDiff.patch(from: old, to: new)
        guard !patch.isEmpty else { return nil }
        return patch.operations.map { operation in
            let path = operation.path
            let before = old[pointer: path].map { "- \(path): \($0)" }
            switch operation {
            case .add(_, let value): return "+ \(path): \(value)"
            case .replace(_, let value): return [before, "+ \(path): \(value)"].compactMap { $0 }.joined(separator: "\n")
            case .remove: return before ?? "- \(path)"
            default: return "\(operation.name) \(path)"
            }
        }.joined(separator: "\n")
    }
}
