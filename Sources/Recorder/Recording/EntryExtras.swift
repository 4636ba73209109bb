/// The optional members of an entry record that come from what the caller's
/// thread captured besides the action and the state (docs/FORMAT.md, "Entry"):
///
/// - `values`: the outside values the reducer read through ``Recorded``, in order,
///   `[{"name":"uuid","value":"…"},{"name":"now","value":786451200.5}]`;
/// - `trace`: where the action was dispatched,
///   `{"file":"MyApp/CartView.swift","line":42,"stack":["CartView.checkout() + 52",…]}`.
///
/// ``RecordEncoder`` writes them after `effectOf`.
enum EntryExtras {
    /// The `values` and `trace` members' values, when the entry has them.
    /// Values are redacted like states (a redacted value replays as a missing one).
    static func values(of entry: PendingEntry, redaction: Redaction?) -> (values: JSONValue?, trace: JSONValue?) {
        var valuesMember: JSONValue?
        if !entry.recordedValues.isEmpty {
            var values: [JSONValue] = []
            values.reserveCapacity(entry.recordedValues.count)
            for captured in entry.recordedValues {
                var value = RecordedValue.encode(captured.value).value
                if let redaction { value = redaction.redact(value) }
                values.append(.object(JSONObject([("name", .string(captured.name)), ("value", value)])))
            }
            valuesMember = .array(values)
        }
        var traceMember: JSONValue?
        if let trace = entry.trace {
            var members: [(String, JSONValue)] = []
            if let fileID = trace.fileID {
                members.append(("file", .string(fileID.description)))
                members.append(("line", .integer(Int64(clamping: trace.line))))
            }
            if let stack = trace.stack {
                members.append(("stack", .array(stack.names().map(JSONValue.string))))
            }
            traceMember = .object(JSONObject(members))
        }
        return (valuesMember, traceMember)
    }
}
