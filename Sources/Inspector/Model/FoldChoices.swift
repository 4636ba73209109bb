import RewindJSON

/// The nodes of a tree the user opened or closed, over what opens by itself
/// (changed nodes' ancestors in the state tree, the first levels of a payload).
/// One definition for the state pane and the action pane's payload tree.
struct FoldChoices: Sendable, Equatable {
    private(set) var opened: Set<JSONPointer> = []
    private(set) var closed: Set<JSONPointer> = []

    /// Records the user's choice for `path`; the latest choice wins.
    mutating func set(_ path: JSONPointer, open: Bool) {
        if open {
            closed.remove(path)
            opened.insert(path)
        } else {
            opened.remove(path)
            closed.insert(path)
        }
    }

    /// The open nodes: `automatic` and the user-opened ones, minus the user-closed ones.
    func expansion(over automatic: Set<JSONPointer>) -> TreeExpansion {
        TreeExpansion(open: opened.union(automatic).subtracting(closed))
    }
}
