/// An RFC 6902 JSON Patch: a list of operations applied in order, atomically.
///
/// ```swift
/// let patch = JSONPatch([.replace(path: try JSONPointer(parsing: "/count"), value: 2)])
/// let next = try patch.applied(to: ["count": 1])   // {"count":2}
/// ```
public struct JSONPatch: Sendable, Equatable {
    public var operations: [JSONPatchOperation]

    public init(_ operations: [JSONPatchOperation] = []) { self.operations = operations }

    public var isEmpty: Bool { operations.isEmpty }
}

public enum JSONPatchOperation: Sendable, Equatable {
    case add(path: JSONPointer, value: JSONValue)
    case remove(path: JSONPointer)
    case replace(path: JSONPointer, value: JSONValue)
    case move(from: JSONPointer, path: JSONPointer)
    case copy(from: JSONPointer, path: JSONPointer)
    case test(path: JSONPointer, value: JSONValue)

    public var name: String {
        switch self {
        case .add: "add"
        case .remove: "remove"
        case .replace: "replace"
        case .move: "move"
        case .copy: "copy"
        case .test: "test"
        }
    }

    public var path: JSONPointer {
        switch self {
        case .add(let path, _), .remove(let path), .replace(let path, _), .test(let path, _): path
        case .move(_, let path), .copy(_, let path): path
        }
    }
}

/// Why a patch could not be applied or read. `description` names the operation
/// index and the pointer: `operation 2 (remove /todos/7): path does not exist`.
public struct JSONPatchError: Error, Sendable, Equatable, CustomStringConvertible {
    public var operationIndex: Int
    public var operation: String
    public var pointer: String
    public var reason: String

    public init(operationIndex: Int, operation: String, pointer: String, reason: String) {
        self.operationIndex = operationIndex
        self.operation = operation
        self.pointer = pointer
        self.reason = reason
    }

    public var description: String {
        "operation \(operationIndex) (\(operation) \(pointer.isEmpty ? "\"\"" : pointer)): \(reason)"
    }
}
