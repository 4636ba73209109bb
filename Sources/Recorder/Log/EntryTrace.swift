/// Where an entry's action was dispatched (the entry's `trace` member): the call
/// site the reference ``Store`` and the manual ``Recorder/record(_:state:before:duration:effectOf:fileID:line:)``
/// record, and a short call stack when `ActionRecorder.Options.trace` was on.
///
/// ```swift
/// if let trace = try reader.entry(at: 4).trace { print(trace) }   // MyApp/CartView.swift:42
/// ```
public struct EntryTrace: Sendable, Equatable, CustomStringConvertible {
    /// The `#fileID` of the call site (`MyApp/CartView.swift`), when known.
    public var file: String?
    /// Its line, when known.
    public var line: Int?
    /// Call stack frames, innermost first (empty unless `Options.trace` was on).
    public var stack: [String]

    /// A trace with the given call site and stack frames.
    public init(file: String?, line: Int?, stack: [String]) {
        self.file = file
        self.line = line
        self.stack = stack
    }

    /// `MyApp/CartView.swift:42`, or the innermost frame when only a stack was recorded.
    public var description: String {
        if let file { return line.map { "\(file):\($0)" } ?? file }
        return stack.first ?? "(no call site)"
    }

    /// Reads a `trace` member; nil when it is not an object (a later writer's form is ignored, not an error).
    static func read(_ value: JSONValue?) -> EntryTrace? {
        guard case .object(let object)? = value else { return nil }
        let line = object["line"]?.int64Value.map { Int(clamping: $0) }
        let stack = object["stack"]?.arrayValue?.compactMap(\.stringValue) ?? []
        let file = object["file"]?.stringValue
        guard file != nil || !stack.isEmpty else { return nil }
        return EntryTrace(file: file, line: line, stack: stack)
    }
}

extension Recorded.Value {
    /// Reads a `values` member: `[{"name":…,"value":…}, …]`; members that are not of that form are left out.
    static func read(_ value: JSONValue?) -> [Recorded.Value] {
        (value?.arrayValue ?? []).compactMap { element in
            guard let name = element["name"]?.stringValue else { return nil }
            return Recorded.Value(name: name, json: element["value"] ?? .null)
        }
    }
}
