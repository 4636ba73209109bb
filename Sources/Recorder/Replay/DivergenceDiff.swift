/// The readable difference between a recorded and a recomputed state.
enum DivergenceDiff {
    /// One line per changed path, recorded value then recomputed value:
    /// ```text
    /// /todos/3/id: 4 → 17
    /// + /todos/4: {"id":5,"title":"x"}
    /// - /filter: "done"
    /// ```
    /// Until the JSON engine's tree diff lands this is built from the JSON Patch.
    static func text(recorded: JSONValue, recomputed: JSONValue) -> String {
        let patch = JSONDiff.patch(from: recorded, to: recomputed)
        guard !patch.operations.isEmpty else { return "(no difference)" }
        var lines: [String] = []
        for operation in patch.operations {
            switch operation {
            case .replace(let path, let value):
                let old = recorded[pointer: path]
                lines.append("\(label(path)): \(old.map { ReplayText.short($0, limit: 60) } ?? "?") → \(ReplayText.short(value, limit: 60))")
            case .add(let path, let value):
                lines.append("+ \(label(path)): \(ReplayText.short(value, limit: 100))")
            case .remove(let path):
                let old = recorded[pointer: path]
                lines.append("- \(label(path))" + (old.map { ": " + ReplayText.short($0, limit: 100) } ?? ""))
            default:
                lines.append("\(operation)")
            }
        }
        return lines.joined(separator: "\n")
    }

    private static func label(_ path: JSONPointer) -> String { path.tokens.isEmpty ? "(whole state)" : path.description }
}
