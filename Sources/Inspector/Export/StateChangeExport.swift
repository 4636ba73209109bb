import Recorder

/// The `patch` and `unified` formats: what changed between two states, for the
/// whole range or entry by entry, optionally limited to one path of the state.
enum StateChangeExport {
    /// RFC 6902 operations as pretty JSON: one array for the range, or with
    /// `perEntry` an array of `{"entry", "action", "patch"}` objects.
    static func patchText(for slice: ExportSlice, perEntry: Bool, path: JSONPointer?) throws(ExportError) -> String {
        let scope = path ?? JSONPointer()
        guard perEntry else {
            let patch = try self.patch(from: slice.startState, to: slice.endState, at: scope, after: slice.entries.last?.number ?? 0)
            return JSONWriter.prettyString(patch.jsonValue) + "\n"
        }
        var parts: [JSONValue] = []
        for (position, entry) in slice.entries.enumerated() {
            let patch = try self.patch(from: slice.state(before: position), to: entry.state, at: scope, after: entry.number)
            parts.append(.object(JSONObject([
                ("entry", .integer(Int64(entry.number))),
                ("action", .string(entry.action.name)),
                ("patch", patch.jsonValue),
            ])))
        }
        return JSONWriter.prettyString(.array(parts)) + "\n"
    }

    /// `diff -u` text of the pretty-printed states (or parts of them); empty when nothing changed.
    static func unifiedText(for slice: ExportSlice, perEntry: Bool, path: JSONPointer?) throws(ExportError) -> String {
        let scope = path ?? JSONPointer()
        let suffix = scope.isRoot ? "" : " at \(scope)"
        let name = slice.logName
        guard perEntry else {
            let first = slice.entries.first?.number ?? 1
            let last = slice.entries.last?.number ?? 0
            return try unified(
                from: slice.startState, to: slice.endState, at: scope, after: last,
                fromLabel: "\(name) before entry \(first)\(suffix)", toLabel: "\(name) after entry \(last)\(suffix)")
        }
        var text = ""
        for (position, entry) in slice.entries.enumerated() {
            text += try unified(
                from: slice.state(before: position), to: entry.state, at: scope, after: entry.number,
                fromLabel: "\(name) before entry \(entry.number) (\(entry.action.name))\(suffix)",
                toLabel: "\(name) after entry \(entry.number) (\(entry.action.name))\(suffix)")
        }
        return text
    }

    private static func unified(
        from old: JSONValue?, to new: JSONValue?, at scope: JSONPointer, after number: Int, fromLabel: String, toLabel: String
    ) throws(ExportError) -> String {
        let (before, after) = try parts(old, new, at: scope, after: number)
        guard let text = JSONDiff.unifiedText(from: before ?? .null, to: after ?? .null, fromLabel: fromLabel, toLabel: toLabel) else {
            return ""
        }
        return text.hasSuffix("\n") ? text : text + "\n"
    }

    /// The patch from `old` to `new` restricted to `scope`, with paths from the document root.
    static func patch(from old: JSONValue?, to new: JSONValue?, at scope: JSONPointer, after number: Int) throws(ExportError) -> JSONPatch {
        switch try parts(old, new, at: scope, after: number) {
        case (let before?, let after?):
            return JSONPatch(JSONDiff.patch(from: before, to: after).operations.map { $0.rooted(at: scope) })
        case (nil, let after?):
            return JSONPatch([.add(path: scope, value: after)])
        case (_?, nil):
            return JSONPatch([.remove(path: scope)])
        case (nil, nil):
            return JSONPatch()
        }
    }

    /// The values at `scope`; an error when neither state has it.
    private static func parts(_ old: JSONValue?, _ new: JSONValue?, at scope: JSONPointer, after number: Int)
        throws(ExportError) -> (JSONValue?, JSONValue?)
    {
        let before = old?[pointer: scope]
        let after = new?[pointer: scope]
        if !scope.isRoot, before == nil, after == nil {
            throw ExportError(.pathNotFound, "\(scope) does not exist in the state before or after entry \(number)")
        }
        return (before, after)
    }
}
