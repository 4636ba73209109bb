extension JSONPatch {
    /// Applies every operation in order and returns the result. Atomic: when an
    /// operation fails the error is thrown and the input is untouched.
    ///
    /// The containers along each edited path are copied once (the input keeps
    /// its own); to edit a large document repeatedly, use ``apply(to:)``.
    public func applied(to document: JSONValue) throws(JSONPatchError) -> JSONValue {
        var result = document
        for (index, operation) in operations.enumerated() {
            do {
                try Self.apply(operation, to: &result)
            } catch {
                throw Self.error(error, operation: operation, index: index)
            }
        }
        return result
    }

    /// Applies every operation in place, without copying the document: each
    /// edit touches only the containers on its path. Atomic: when an operation
    /// fails, the ones before it are undone and the error is thrown.
    ///
    /// ```swift
    /// try patch.apply(to: &state)
    /// ```
    public func apply(to document: inout JSONValue) throws(JSONPatchError) {
        var unlimited: PatchLimits?
        try apply(to: &document, limits: &unlimited)
    }

    /// ``apply(to:)``, each operation charged to `limits` first: a patch from elsewhere
    /// that would build past them fails, naming the operation and the limit.
    package func apply(to document: inout JSONValue, limits: inout PatchLimits) throws(JSONPatchError) {
        var some: PatchLimits? = limits
        defer { limits = some! }
        try apply(to: &document, limits: &some)
    }

    private func apply(to document: inout JSONValue, limits: inout PatchLimits?) throws(JSONPatchError) {
        var undo: [[_UndoStep]] = []
        undo.reserveCapacity(operations.count)
        for (index, operation) in operations.enumerated() {
            do {
                try limits?.charge(operation, in: document)
                undo.append(try Self.applyRecordingUndo(operation, to: &document))
            } catch {
                for steps in undo.reversed() {
                    for step in steps { step.undo(in: &document) }
                }
                throw Self.error(error, operation: operation, index: index)
            }
        }
    }

    /// Applies every operation in place, each charged to `limits` first, as
    /// ``apply(to:limits:)`` does, without keeping what would undo them: when an
    /// operation fails, the error is thrown and the document is left part-way. For
    /// a caller that then drops the document (a log's rebuild), which need not read
    /// each old value and keep it.
    package func applyDiscardingOnFailure(to document: inout JSONValue, limits: inout PatchLimits) throws(JSONPatchError) {
        for (index, operation) in operations.enumerated() {
            do {
                try Self.apply(operation, to: &document, limits: &limits)
            } catch {
                throw Self.error(error, operation: operation, index: index)
            }
        }
    }

    private static func error(_ failure: _PatchFailure, operation: JSONPatchOperation, index: Int) -> JSONPatchError {
        JSONPatchError(operationIndex: index, operation: operation.name, pointer: operation.path.description, reason: failure.reason)
    }

    package static func apply(_ operation: JSONPatchOperation, to document: inout JSONValue) throws(_PatchFailure) {
        _ = try apply(operation, to: &document, recordingUndo: false)
    }

    /// One operation, charged to `limits` first (see ``PatchLimits``).
    package static func apply(_ operation: JSONPatchOperation, to document: inout JSONValue, limits: inout PatchLimits) throws(_PatchFailure) {
        try limits.charge(operation, in: document)
        _ = try apply(operation, to: &document, recordingUndo: false)
    }

    /// Applies one operation and returns the steps that undo it, in order.
    static func applyRecordingUndo(_ operation: JSONPatchOperation, to document: inout JSONValue) throws(_PatchFailure) -> [_UndoStep] {
        try apply(operation, to: &document, recordingUndo: true)
    }

    private static func apply(_ operation: JSONPatchOperation, to document: inout JSONValue, recordingUndo: Bool) throws(_PatchFailure) -> [_UndoStep] {
        switch operation {
        case .add(let path, let value):
            let undo = recordingUndo ? undoForAdd(at: path, in: document) : []
            try add(value, at: path.tokens[...], in: &document)
            return undo
        case .copy(let from, let path):
            guard let value = document[pointer: from] else { throw _PatchFailure(reason: "'from' path \(from) does not exist") }
            let undo = recordingUndo ? undoForAdd(at: path, in: document) : []
            try add(value, at: path.tokens[...], in: &document)
            return undo
        case .remove(let path):
            let restore = recordingUndo ? undoForRemove(at: path, in: document) : nil
            let removed = try remove(at: path.tokens[...], in: &document)
            return restore.map { [$0(removed)] } ?? []
        case .replace(let path, let value):
            let old = recordingUndo ? document[pointer: path] : nil
            try replace(at: path.tokens[...], with: value, in: &document)
            return old.map { [.operation(.replace(path: path, value: $0))] } ?? []
        case .move(let from, let path):
            if from == path {
                guard document[pointer: from] != nil else { throw _PatchFailure(reason: "'from' path \(from) does not exist") }
                return []
            }
            if path.hasPrefix(from) { throw _PatchFailure(reason: "cannot move a value into one of its own children") }
            let restore = recordingUndo ? undoForRemove(at: from, in: document) : nil
            let value = try remove(at: from.tokens[...], in: &document)
            let undoAdd = recordingUndo ? undoForAdd(at: path, in: document) : []
            do {
                try add(value, at: path.tokens[...], in: &document)
            } catch {
                try? add(value, at: from.tokens[...], in: &document)
                throw error
            }
            return undoAdd + (restore.map { [$0(value)] } ?? [])
        case .test(let path, let value):
            guard let actual = document[pointer: path] else { throw _PatchFailure(reason: "path does not exist") }
            guard actual == value else { throw _PatchFailure(reason: "test failed: expected \(value), found \(actual)") }
            return []
        }
    }

    /// What undoes adding at `path` (read before the add): removing the new
    /// member or element, or putting back the member value it replaced.
    private static func undoForAdd(at path: JSONPointer, in document: JSONValue) -> [_UndoStep] {
        guard let parentPath = path.parent, let last = path.lastToken else { return [.operation(.replace(path: path, value: document))] }
        switch document[pointer: parentPath] {
        case .object(let object)?:
            guard let existing = object[last] else { return [.operation(.remove(path: path))] }
            return [.operation(.replace(path: path, value: existing))]
        case .array(let elements)?:
            let index = last == "-" ? elements.count : (JSONPointer.arrayIndex(last) ?? elements.count)
            return [.operation(.remove(path: parentPath.appending(index)))]
        default:
            return []
        }
    }

    /// What undoes removing at `path` (read before the removal), given the
    /// removed value: re-inserting it where it was, object members included.
    private static func undoForRemove(at path: JSONPointer, in document: JSONValue) -> ((JSONValue) -> _UndoStep)? {
        guard let parentPath = path.parent, let last = path.lastToken else { return nil }
        if case .object(let object)? = document[pointer: parentPath], let position = object.index(of: last) {
            return { .insertMember(object: parentPath, key: last, position: position, value: $0) }
        }
        return { .operation(.add(path: path, value: $0)) }
    }

    private static func add(_ value: JSONValue, at tokens: ArraySlice<String>, in document: inout JSONValue) throws(_PatchFailure) {
        guard let token = tokens.last else { document = value; return }
        try descend(tokens.dropLast(), in: &document, missing: "parent path does not exist") { (parent) throws(_PatchFailure) in
            if var object = take(objectFrom: &parent) {
                object[token] = value
                parent = .object(object)
            } else if var elements = take(arrayFrom: &parent) {
                defer { parent = .array(elements) }
                if token == "-" { elements.append(value); return }
                guard let index = JSONPointer.arrayIndex(token), index <= elements.count else {
                    throw _PatchFailure(reason: indexProblem(token, count: elements.count))
                }
                elements.insert(value, at: index)
            } else {
                throw _PatchFailure(reason: "cannot add inside a \(parent.kindName)")
            }
        }
    }

    private static func remove(at tokens: ArraySlice<String>, in document: inout JSONValue) throws(_PatchFailure) -> JSONValue {
        guard let token = tokens.last else { throw _PatchFailure(reason: "cannot remove the whole document") }
        return try descend(tokens.dropLast(), in: &document, missing: "path does not exist") { (parent) throws(_PatchFailure) -> JSONValue in
            if var object = take(objectFrom: &parent) {
                defer { parent = .object(object) }
                guard let removed = object.removeValue(forKey: token) else { throw _PatchFailure(reason: "path does not exist") }
                return removed
            } else if var elements = take(arrayFrom: &parent) {
                defer { parent = .array(elements) }
                return elements.remove(at: try existingIndex(token, count: elements.count))
            }
            throw _PatchFailure(reason: "path does not exist")
        }
    }

    private static func replace(at tokens: ArraySlice<String>, with value: JSONValue, in document: inout JSONValue) throws(_PatchFailure) {
        guard !tokens.isEmpty else { document = value; return }
        try descend(tokens, in: &document, missing: "path does not exist") { (target) throws(_PatchFailure) in target = value }
    }

    /// Runs `body` on the value at `tokens`, editing every container on the
    /// way in place: each one is taken out of its parent (leaving `null`)
    /// while its child is edited, so no array or object is ever shared, and
    /// therefore never copied, during the edit.
    private static func descend<Result>(
        _ tokens: ArraySlice<String>, in node: inout JSONValue, missing: String,
        _ body: (inout JSONValue) throws(_PatchFailure) -> Result
    ) throws(_PatchFailure) -> Result {
        guard let token = tokens.first else { return try body(&node) }
        let rest = tokens.dropFirst()
        if var object = take(objectFrom: &node) {
            defer { node = .object(object) }
            guard let position = object.index(of: token) else { throw _PatchFailure(reason: missing) }
            return try object.modifyValue(at: position) { (child) throws(_PatchFailure) -> Result in
                try descend(rest, in: &child, missing: missing, body)
            }
        }
        if var elements = take(arrayFrom: &node) {
            defer { node = .array(elements) }
            let index = try existingIndex(token, count: elements.count)
            return try descend(rest, in: &elements[index], missing: missing, body)
        }
        throw _PatchFailure(reason: missing)
    }

    /// The object in `node`, leaving `null` behind so the caller holds the only reference.
    @inline(__always)
    private static func take(objectFrom node: inout JSONValue) -> JSONObject? {
        guard case .object(let object) = node else { return nil }
        node = .null
        return object
    }

    /// The array in `node`, leaving `null` behind so the caller holds the only reference.
    @inline(__always)
    private static func take(arrayFrom node: inout JSONValue) -> [JSONValue]? {
        guard case .array(let elements) = node else { return nil }
        node = .null
        return elements
    }

    /// What is wrong with `token` as the index of an existing element among `count` (a patch's
    /// failure text, the same for a tree and a node held lazily).
    static func indexProblem(_ token: String, count: Int) -> String {
        if token == "-" { return "'-' names no existing element" }
        if JSONPointer.arrayIndex(token) == nil { return "'\(token)' is not an array index" }
        return "array index '\(token)' is out of bounds (count \(count))"
    }

    static func existingIndex(_ token: String, count: Int) throws(_PatchFailure) -> Int {
        guard let index = JSONPointer.arrayIndex(token), index < count else { throw _PatchFailure(reason: indexProblem(token, count: count)) }
        return index
    }
}

package struct _PatchFailure: Error { var reason: String }

/// One step of undoing an operation applied in place.
enum _UndoStep {
    case operation(JSONPatchOperation)
    /// Puts an object member back at its original position (a plain `add` would append it).
    case insertMember(object: JSONPointer, key: String, position: Int, value: JSONValue)

    func undo(in document: inout JSONValue) {
        switch self {
        case .operation(let operation):
            try? JSONPatch.apply(operation, to: &document)
        case .insertMember(let objectPath, let key, let position, let value):
            guard case .object(var object)? = document[pointer: objectPath] else { return }
            object.insert(value, forKey: key, at: min(position, object.count))
            try? JSONPatch.apply(.replace(path: objectPath, value: .object(object)), to: &document)
        }
    }
}
