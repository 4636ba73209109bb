import Recorder

/// The readable state diff used in failure reports.
enum StateChange {
    static func text(from old: JSONValue, to new: JSONValue) -> String? {
        JSONDiff.treeText(from: old, to: new)
    }
}
