import Recorder

/// The state paths an action changed, as the panes use them.
enum ChangedPaths {
    /// Resolves the JSON Patch append token `-` (`/todos/-`) to the index the
    /// element landed at in `state` (the state after the action), so the node
    /// can be found and highlighted. Several appends to one array resolve to
    /// consecutive indexes ending at its last element.
    static func resolvingAppends(_ paths: [JSONPointer], in state: JSONNode?) -> [JSONPointer] {
        var appends: [JSONPointer: Int] = [:]
        for path in paths where path.lastToken == "-" {
            if let parent = path.parent { appends[parent, default: 0] += 1 }
        }
        guard !appends.isEmpty else { return paths }
        return paths.map { path in
            guard path.lastToken == "-", let parent = path.parent else { return path }
            let remaining = appends[parent, default: 1]
            appends[parent] = remaining - 1
            guard let list = state?[pointer: parent], list.kind == .array, list.count - remaining >= 0 else { return parent }
            return parent.appending(list.count - remaining)
        }
    }

    /// The paths a patch touches (both ends of a move; `test` changes nothing).
    static func of(_ patch: JSONPatch) -> [JSONPointer] {
        patch.operations.flatMap { operation -> [JSONPointer] in
            switch operation {
            case .test: []
            case .move(let from, let path): [from, path]
            default: [operation.path]
            }
        }
    }
}
