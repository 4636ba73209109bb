extension JSONPatch {
    /// Applies every operation in order and returns the result. Atomic: when an
    /// operation fails the error is thrown and the input is untouched.
    public func applied(to document: JSONValue) throws(JSONPatchError) -> JSONValue {
        var result = document
        for (index, operation) in operations.enumerated() {
            do {
                try Self.apply(operation, to: &result)
            } catch {
                throw JSONPatchError(operationIndex: index, operation: operation.name, pointer: operation.path.description, reason: error.reason)
            }
        }
        return result
    }

    static func apply(_ operation: JSONPatchOperation, to document: inout JSONValue) throws(_PatchFailure) {
        switch operation {
        case .add(let path, let value):
            try add(value, at: path.tokens[...], in: &document)
        case .remove(let path):
            _ = try remove(at: path.tokens[...], in: &document)
        case .replace(let path, let value):
            try replace(at: path.tokens[...], with: value, in: &document)
        case .move(let from, let path):
            if from == path { return }
            if path.hasPrefix(from) { throw _PatchFailure(reason: "cannot move a value into one of its own children") }
            let value = try remove(at: from.tokens[...], in: &document)
            try add(value, at: path.tokens[...], in: &document)
        case .copy(let from, let path):
            guard let value = document[pointer: from] else { throw _PatchFailure(reason: "'from' path \(from) does not exist") }
            try add(value, at: path.tokens[...], in: &document)
        case .test(let path, let value):
            guard let actual = document[pointer: path] else { throw _PatchFailure(reason: "path does not exist") }
            guard actual == value else { throw _PatchFailure(reason: "test failed: expected \(value), found \(actual)") }
        }
    }

    private static func add(_ value: JSONValue, at tokens: ArraySlice<String>, in node: inout JSONValue) throws(_PatchFailure) {
        guard let token = tokens.first else { node = value; return }
        let rest = tokens.dropFirst()
        switch node {
        case .object(var object):
            node = .null  // release the enum's reference so the edit below is in place
            defer { node = .object(object) }
            if rest.isEmpty {
                object[token] = value
            } else {
                guard var child = object[token] else { throw _PatchFailure(reason: "parent path does not exist") }
                object[token] = .null
                try add(value, at: rest, in: &child)
                object[token] = child
            }
        case .array(var elements):
            node = .null
            defer { node = .array(elements) }
            if rest.isEmpty {
                if token == "-" { elements.append(value); return }
                guard let index = JSONPointer.arrayIndex(token), index <= elements.count else {
                    throw _PatchFailure(reason: "array index '\(token)' is out of bounds (count \(elements.count))")
                }
                elements.insert(value, at: index)
            } else {
                let index = try existingIndex(token, count: elements.count)
                try add(value, at: rest, in: &elements[index])
            }
        default:
            throw _PatchFailure(reason: "cannot add inside a \(node.kindName)")
        }
    }

    private static func remove(at tokens: ArraySlice<String>, in node: inout JSONValue) throws(_PatchFailure) -> JSONValue {
        guard let token = tokens.first else { throw _PatchFailure(reason: "cannot remove the whole document") }
        let rest = tokens.dropFirst()
        switch node {
        case .object(var object):
            node = .null
            defer { node = .object(object) }
            if rest.isEmpty {
                guard let removed = object.removeValue(forKey: token) else { throw _PatchFailure(reason: "path does not exist") }
                return removed
            }
            guard var child = object[token] else { throw _PatchFailure(reason: "path does not exist") }
            object[token] = .null
            defer { object[token] = child }
            return try remove(at: rest, in: &child)
        case .array(var elements):
            node = .null
            defer { node = .array(elements) }
            let index = try existingIndex(token, count: elements.count)
            if rest.isEmpty { return elements.remove(at: index) }
            return try remove(at: rest, in: &elements[index])
        default:
            throw _PatchFailure(reason: "path does not exist")
        }
    }

    private static func replace(at tokens: ArraySlice<String>, with value: JSONValue, in node: inout JSONValue) throws(_PatchFailure) {
        guard let token = tokens.first else { node = value; return }
        let rest = tokens.dropFirst()
        switch node {
        case .object(var object):
            guard var child = object[token] else { throw _PatchFailure(reason: "path does not exist") }
            node = .null
            defer { node = .object(object) }
            object[token] = .null
            defer { object[token] = child }
            try replace(at: rest, with: value, in: &child)
        case .array(var elements):
            let index = try existingIndex(token, count: elements.count)
            node = .null
            defer { node = .array(elements) }
            try replace(at: rest, with: value, in: &elements[index])
        default:
            throw _PatchFailure(reason: "path does not exist")
        }
    }

    private static func existingIndex(_ token: String, count: Int) throws(_PatchFailure) -> Int {
        guard let index = JSONPointer.arrayIndex(token), index < count else {
            throw _PatchFailure(reason: token == "-" ? "'-' names no existing element" : "array index '\(token)' is out of bounds (count \(count))")
        }
        return index
    }
}

struct _PatchFailure: Error { var reason: String }
