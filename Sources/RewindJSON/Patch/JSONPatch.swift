/// An RFC 6902 JSON Patch: a list of operations applied in order, atomically.
///
/// ```swift
/// let patch = JSONPatch([.replace(path: try JSONPointer(parsing: "/count"), value: 2)])
/// let next = try patch.applied(to: ["count": 1])   // {"count":2}
/// ```
public struct JSONPatch: Sendable, Equatable {
    /// The operations, applied in order.
    public var operations: [JSONPatchOperation]

    /// A patch of `operations` (empty: changes nothing).
    public init(_ operations: [JSONPatchOperation] = []) { self.operations = operations }

    /// True when the patch changes nothing.
    public var isEmpty: Bool { operations.isEmpty }
}

/// One RFC 6902 operation: `.replace(path: JSONPointer(tokens: ["count"]), value: 2)`.
public enum JSONPatchOperation: Sendable, Equatable {
    case add(path: JSONPointer, value: JSONValue)
    case remove(path: JSONPointer)
    case replace(path: JSONPointer, value: JSONValue)
    case move(from: JSONPointer, path: JSONPointer)
    case copy(from: JSONPointer, path: JSONPointer)
    case test(path: JSONPointer, value: JSONValue)

    /// The operation's `op` as written in JSON: `add`, `remove`, `replace`, `move`, `copy`, `test`.
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

    /// The location the operation changes (or tests).
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
    /// Index of the failing operation in the patch, from 0.
    public var operationIndex: Int
    /// Its `op`: `remove`, `add`, …
    public var operation: String
    /// Its path, as written: `/todos/7`.
    public var pointer: String
    /// What went wrong there, for people: `path does not exist`.
    public var reason: String

    /// An error about operation `operationIndex` (`operation` at `pointer`).
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
