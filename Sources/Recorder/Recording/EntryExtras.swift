/// The optional members of an entry record that come from what the caller's
/// thread captured besides the action and the state (docs/FORMAT.md, "Entry"):
///
/// - `values`: the outside values the reducer read through ``Recorded``, in order,
///   `[{"name":"uuid","value":"…"},{"name":"now","value":786451200.5}]`;
/// - `trace`: where the action was dispatched,
///   `{"file":"MyApp/CartView.swift","line":42,"stack":["CartView.checkout() + 52",…]}`.
///
/// One function writes them, so a rewrite of the writer carries them over by
/// calling it (or doing what it does) once per entry, after `effectOf`.
enum EntryExtras {
    /// Appends `,"values":[…]` and `,"trace":{…}` when the entry has them.
    /// Values are redacted like states (a redacted value replays as a missing one).
    static func append(_ entry: PendingEntry, redaction: Redaction?, to buffer: inout [UInt8]) {
        if !entry.recordedValues.isEmpty {
            var values: [JSONValue] = []
            values.reserveCapacity(entry.recordedValues.count)
            for captured in entry.recordedValues {
                var value = RecordedValue.encode(captured.value).value
                if let redaction { value = redaction.redact(value) }
                values.append(.object(JSONObject([("name", .string(captured.name)), ("value", value)])))
            }
            buffer.append(contentsOf: #","values":"#.utf8)
            JSONWriter.appendCompact(.array(values), to: &buffer)
        }
        if let trace = entry.trace {
            var members: [(String, JSONValue)] = []
            if let fileID = trace.fileID {
                members.append(("file", .string(fileID.description)))
                members.append(("line", .integer(Int64(clamping: trace.line))))
            }
            if let stack = trace.stack {
                members.append(("stack", .array(stack.names().map(JSONValue.string))))
            }
            buffer.append(contentsOf: #","trace":"#.utf8)
            JSONWriter.appendCompact(.object(JSONObject(members)), to: &buffer)
        }
    }
}
