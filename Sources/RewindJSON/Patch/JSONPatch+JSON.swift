extension JSONPatch {
    /// The patch as RFC 6902 JSON: `[{"op":"replace","path":"/count","value":2}]`.
    public var jsonValue: JSONValue {
        .array(operations.map { operation in
            var object = JSONObject()
            object["op"] = .string(operation.name)
            switch operation {
            case .add(let path, let value), .replace(let path, let value), .test(let path, let value):
                object["path"] = .string(path.description)
                object["value"] = value
            case .remove(let path):
                object["path"] = .string(path.description)
            case .move(let from, let path), .copy(let from, let path):
                object["from"] = .string(from.description)
                object["path"] = .string(path.description)
            }
            return .object(object)
        })
    }

    /// Reads RFC 6902 JSON text. Stricter than parsing the text and calling
    /// ``init(jsonValue:)``: a member named twice in one object (two `"op"`s,
    /// RFC 6902 appendix A.13) is an error instead of the last one winning.
    ///
    /// ```swift
    /// let patch = try JSONPatch(json: #"[{"op":"remove","path":"/todos/0"}]"#)
    /// ```
    public init(json text: String) throws(JSONPatchError) {
        let value: JSONValue
        do {
            value = try JSONParser.parse(text, duplicateKeys: .reject)
        } catch {
            throw JSONPatchError(operationIndex: 0, operation: "patch", pointer: "", reason: "not valid JSON: \(error)")
        }
        try self.init(jsonValue: value)
    }

    /// Reads RFC 6902 JSON; errors name the operation index.
    public init(jsonValue: JSONValue) throws(JSONPatchError) {
        guard case .array(let items) = jsonValue else {
            throw JSONPatchError(operationIndex: 0, operation: "patch", pointer: "", reason: "a JSON Patch must be an array, found \(jsonValue.kindName)")
        }
        var operations: [JSONPatchOperation] = []
        operations.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            func fail(_ reason: String, op: String = "?", pointer: String = "") -> JSONPatchError {
                JSONPatchError(operationIndex: index, operation: op, pointer: pointer, reason: reason)
            }
            guard case .object(let object) = item else { throw fail("an operation must be an object") }
            guard let op = object["op"]?.stringValue else { throw fail("missing \"op\" member") }
            guard let pathText = object["path"]?.stringValue else { throw fail("missing \"path\" member", op: op) }
            let path: JSONPointer
            do { path = try JSONPointer(parsing: pathText) } catch { throw fail(error.reason, op: op, pointer: pathText) }
            func from() throws(JSONPatchError) -> JSONPointer {
                guard let text = object["from"]?.stringValue else { throw fail("missing \"from\" member", op: op, pointer: pathText) }
                do { return try JSONPointer(parsing: text) } catch { throw fail(error.reason, op: op, pointer: pathText) }
            }
            func value() throws(JSONPatchError) -> JSONValue {
                guard let value = object["value"] else { throw fail("missing \"value\" member", op: op, pointer: pathText) }
                return value
            }
            switch op {
            case "add": operations.append(.add(path: path, value: try value()))
            case "remove": operations.append(.remove(path: path))
            case "replace": operations.append(.replace(path: path, value: try value()))
            case "move": operations.append(.move(from: try from(), path: path))
            case "copy": operations.append(.copy(from: try from(), path: path))
            case "test": operations.append(.test(path: path, value: try value()))
            default: throw fail("unknown operation \"\(op)\"", op: op, pointer: pathText)
            }
        }
        self.init(operations)
    }
}
