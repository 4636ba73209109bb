/// How ``JSONDiff`` aligns arrays.
///
/// ```swift
/// var options = JSONDiffOptions()
/// options.identityFields = ["sku"]      // match rows by their "sku" member
/// JSONDiff.patch(from: old, to: new, options: options)
/// ```
public struct JSONDiffOptions: Sendable, Equatable {
    /// Members that identify array elements. An array is aligned by identity
    /// when every element of both versions is an object with the first of these
    /// members that all of them have; a matched element that changed is then
    /// diffed inside (`replace /todos/4/done`) instead of removed and re-added.
    /// Empty: align by whole values only.
    public var identityFields: [String] = ["id", "_id", "uuid", "key"]

    /// Most insertions plus deletions one array alignment may need. Beyond it
    /// (pathological reorderings of large arrays) the diff falls back to
    /// comparing elements position by position, then adding or removing the
    /// tail: still a correct patch, just not a minimal one. Bounds alignment to
    /// O((N+M)·D) time and O(D²) memory.
    public var maximumEditDistance = 1_000

    /// Whether an element removed at one index and added unchanged (or, with
    /// identity, with the same identity) at another becomes one `move`.
    public var detectsMoves = true

    /// The defaults: identity fields `id`, `_id`, `uuid`, `key`, moves detected.
    public init() {}
}
