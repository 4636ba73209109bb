/// The readable difference between a recorded and a recomputed state.
enum DivergenceDiff {
    /// A tree diff, `-` for the recorded value and `+` for the recomputed one,
    /// unchanged siblings collapsed:
    /// ```text
    ///   {
    ///     … (3 unchanged)
    ///     "stats": {
    ///       … (1 unchanged)
    /// -     "done": 1
    /// +     "done": 0
    ///     }
    ///   }
    /// ```
    static func text(recorded: JSONValue, recomputed: JSONValue) -> String {
        JSONDiff.treeText(from: recorded, to: recomputed) ?? "(no difference)"
    }

    /// The paths that differ, from the JSON Patch between the two.
    static func paths(recorded: JSONValue, recomputed: JSONValue) -> [JSONPointer] {
        JSONDiff.patch(from: recorded, to: recomputed).operations.map(\.path)
    }
}
