import Recorder

/// One tool of `rewind mcp` as its table declares it (``RecordingTools/all``): what `tools/list`
/// shows (name, title, description, the input schema made from the parameters) and what
/// `tools/call` checks the arguments against before running it, so the two cannot disagree.
struct MCPTool {
    var name: String
    var title: String
    var description: String
    var parameters: [Parameter]
    /// Runs the call with arguments already checked against ``parameters``.
    var run: @Sendable (ToolArguments, ToolContext) -> ToolResult

    /// A named argument: its JSON type, what it means, and whether it must be given.
    struct Parameter {
        enum Kind {
            case string
            /// A whole number, within the bounds when given.
            case integer(minimum: Int? = nil, maximum: Int? = nil)
            case boolean
            /// An array of strings (`--module NAME`...).
            case strings
            /// A string among these.
            case choice([String])
        }

        var name: String
        var kind: Kind
        var description: String
        var isRequired = false

        static func required(_ name: String, _ kind: Kind, _ description: String) -> Parameter {
            Parameter(name: name, kind: kind, description: description, isRequired: true)
        }

        static func optional(_ name: String, _ kind: Kind, _ description: String) -> Parameter {
            Parameter(name: name, kind: kind, description: description)
        }

        /// This parameter's JSON Schema (2020-12, the protocol's default dialect).
        var schema: JSONValue {
            var object = JSONObject()
            switch kind {
            case .string:
                object["type"] = "string"
            case .integer(let minimum, let maximum):
                object["type"] = "integer"
                if let minimum { object["minimum"] = .integer(Int64(minimum)) }
                if let maximum { object["maximum"] = .integer(Int64(maximum)) }
            case .boolean:
                object["type"] = "boolean"
            case .strings:
                object["type"] = "array"
                object["items"] = .object(JSONObject([("type", .string("string"))]))
            case .choice(let choices):
                object["type"] = "string"
                object["enum"] = .array(choices.map(JSONValue.string))
            }
            object["description"] = .string(description)
            return .object(object)
        }

        /// Nil when `value` fits; otherwise what is wrong, for a `-32602` error.
        func problem(with value: JSONValue) -> String? {
            switch (kind, value) {
            case (.string, .string), (.boolean, .bool):
                return nil
            case (.integer(let minimum, let maximum), _):
                guard let number = Self.wholeNumber(value) else { return "\(name) is a whole number, not \(Self.shown(value))" }
                if let minimum, number < minimum { return "\(name) is at least \(minimum), not \(number)" }
                if let maximum, number > maximum { return "\(name) is at most \(maximum), not \(number)" }
                return nil
            case (.strings, .array(let items)):
                return items.allSatisfy { $0.stringValue != nil } ? nil : "\(name) is an array of strings"
            case (.choice(let choices), .string(let text)):
                return choices.contains(text) ? nil : "\(name) is one of \(choices.joined(separator: ", ")), not \(Self.shown(value))"
            case (.string, _), (.choice, _):
                return "\(name) is a string, not \(Self.shown(value))"
            case (.boolean, _):
                return "\(name) is true or false, not \(Self.shown(value))"
            case (.strings, _):
                return "\(name) is an array of strings, not \(Self.shown(value))"
            }
        }

        /// `3` and `3.0` are the same JSON number; `3.5` is not whole.
        static func wholeNumber(_ value: JSONValue) -> Int? {
            switch value {
            case .integer(let number): return Int(exactly: number)
            case .double(let number): return number.rounded() == number ? Int(exactly: number) : nil
            default: return nil
            }
        }

        private static func shown(_ value: JSONValue) -> String {
            let text = JSONWriter.compactString(value)
            return text.count > 40 ? String(text.prefix(40)) + "…" : text
        }
    }

    /// `{"type":"object","properties":{…},"required":[…],"additionalProperties":false}`.
    var inputSchema: JSONValue {
        var properties = JSONObject()
        for parameter in parameters { properties[parameter.name] = parameter.schema }
        var object = JSONObject([("type", .string("object")), ("properties", .object(properties))])
        let required = parameters.filter(\.isRequired).map { JSONValue.string($0.name) }
        if !required.isEmpty { object["required"] = .array(required) }
        object["additionalProperties"] = false
        return .object(object)
    }

    /// How `tools/list` shows the tool. Every tool only reads: the hints say so.
    var listing: JSONValue {
        .object(JSONObject([
            ("name", .string(name)),
            ("title", .string(title)),
            ("description", .string(description)),
            ("inputSchema", inputSchema),
            ("annotations", .object(JSONObject([
                ("title", .string(title)),
                ("readOnlyHint", true),
                ("destructiveHint", false),
                ("idempotentHint", true),
                ("openWorldHint", false),
            ]))),
        ]))
    }

    /// The arguments checked against the parameters: unknown names, missing required ones
    /// and values of the wrong type are a `-32602` error naming the argument.
    func check(_ arguments: JSONObject) -> Result<ToolArguments, JSONRPCError> {
        for (key, value) in arguments.members {
            guard let parameter = parameters.first(where: { $0.name == key }) else {
                let known = parameters.map(\.name).joined(separator: ", ")
                return .failure(JSONRPCError(.invalidParams, "\(name) has no argument '\(key)' (its arguments: \(known))"))
            }
            // An optional argument given as null is left out, as many clients send it.
            if case .null = value, !parameter.isRequired { continue }
            if let problem = parameter.problem(with: value) {
                return .failure(JSONRPCError(.invalidParams, "\(name): \(problem)"))
            }
        }
        if let missing = parameters.first(where: { $0.isRequired && (arguments[$0.name] == nil || arguments[$0.name] == .null) }) {
            return .failure(JSONRPCError(.invalidParams, "\(name) needs the argument '\(missing.name)': \(missing.description)"))
        }
        return .success(ToolArguments(values: arguments))
    }
}

/// A call's arguments once they fit the tool's parameters.
struct ToolArguments: Sendable {
    var values: JSONObject

    func string(_ name: String) -> String? { values[name]?.stringValue }
    func integer(_ name: String) -> Int? { values[name].flatMap(MCPTool.Parameter.wholeNumber) }
    func flag(_ name: String) -> Bool { values[name]?.boolValue ?? false }
    func strings(_ name: String) -> [String] { values[name]?.arrayValue?.compactMap(\.stringValue) ?? [] }
}
