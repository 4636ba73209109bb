extension JSONPatch {
    /// ``applyDiscardingOnFailure(to:limits:)`` on a node, with exactly its results and errors.
    ///
    /// A node in memory is patched in place as a tree is (its value taken out first, so
    /// nothing is copied). On a lazily held node, a big container on a path copies only its
    /// children's array (shared with the node it came from otherwise), and a value held as
    /// bytes that an operation goes into is parsed into a tree and patched there.
    package func applyDiscardingOnFailure(to node: inout JSONNode, limits: inout PatchLimits) throws(JSONPatchError) {
        if case .tree(var document) = node.storage {
            node.storage = .tree(.null)
            defer { node.storage = .tree(document) }
            try applyDiscardingOnFailure(to: &document, limits: &limits)
            return
        }
        for (index, operation) in operations.enumerated() {
            do {
                try node.apply(operation, limits: &limits)
            } catch {
                throw JSONPatchError(operationIndex: index, operation: operation.name, pointer: operation.path.description, reason: error.reason)
            }
        }
    }
}

extension JSONNode {
    /// One operation, charged to `limits` first, as ``JSONPatch`` applies it to a tree.
    mutating func apply(_ operation: JSONPatchOperation, limits: inout PatchLimits) throws(_PatchFailure) {
        try charge(operation, to: &limits)
        switch operation {
        case .add(let path, let value):
            try add(JSONNode(value), at: path.tokens[...])
        case .remove(let path):
            _ = try remove(at: path.tokens[...])
        case .replace(let path, let value):
            try replace(at: path.tokens[...], with: JSONNode(value))
        case .copy(let from, let path):
            guard let value = self[pointer: from] else { throw _PatchFailure(reason: "'from' path \(from) does not exist") }
            try add(value, at: path.tokens[...])
        case .move(let from, let path):
            if from == path {
                guard self[pointer: from] != nil else { throw _PatchFailure(reason: "'from' path \(from) does not exist") }
                return
            }
            if path.hasPrefix(from) { throw _PatchFailure(reason: "cannot move a value into one of its own children") }
            let value = try remove(at: from.tokens[...])
            do {
                try add(value, at: path.tokens[...])
            } catch {
                try? add(value, at: from.tokens[...])
                throw error
            }
        case .test(let path, let value):
            guard let actual = self[pointer: path] else { throw _PatchFailure(reason: "path does not exist") }
            guard actual == JSONNode(value) else { throw _PatchFailure(reason: "test failed: expected \(value), found \(actual.value)") }
        }
    }

    /// ``PatchLimits/charge(_:in:)`` for this document. Only a move's or a copy's value is
    /// read from the document: it is charged as the whole document of the same operation from its root.
    private func charge(_ operation: JSONPatchOperation, to limits: inout PatchLimits) throws(_PatchFailure) {
        switch operation {
        case .add, .replace, .remove, .test:
            try limits.charge(operation, in: .null)
        case .move(let from, let path):
            guard let moved = self[pointer: from] else { return }
            try limits.charge(.move(from: JSONPointer(), path: path), in: moved.value)
        case .copy(let from, let path):
            guard let copied = self[pointer: from] else { return }
            try limits.charge(.copy(from: JSONPointer(), path: path), in: copied.value)
        }
    }

    private mutating func add(_ value: JSONNode, at tokens: ArraySlice<String>) throws(_PatchFailure) {
        guard let token = tokens.last else { self = value; return }
        try descend(tokens.dropLast(), missing: "parent path does not exist") { (parent, rest) throws(_PatchFailure) in
            guard rest.isEmpty, parent.isBigContainer else {
                return try parent.applyToTree(.add(path: JSONPointer(tokens: Array(rest) + [token]), value: value.value))
            }
            try parent.addChild(value, token)
        }
    }

    private mutating func remove(at tokens: ArraySlice<String>) throws(_PatchFailure) -> JSONNode {
        guard let token = tokens.last else { throw _PatchFailure(reason: "cannot remove the whole document") }
        return try descend(tokens.dropLast(), missing: "path does not exist") { (parent, rest) throws(_PatchFailure) -> JSONNode in
            guard rest.isEmpty, parent.isBigContainer else {
                let path = JSONPointer(tokens: Array(rest) + [token])
                let removed = parent[pointer: path]
                try parent.applyToTree(.remove(path: path))
                return removed ?? JSONNode(.null)
            }
            return try parent.removeChild(token)
        }
    }

    private mutating func replace(at tokens: ArraySlice<String>, with value: JSONNode) throws(_PatchFailure) {
        guard !tokens.isEmpty else { self = value; return }
        try descend(tokens, missing: "path does not exist") { (target, rest) throws(_PatchFailure) in
            guard rest.isEmpty else { return try target.applyToTree(.replace(path: JSONPointer(tokens: Array(rest)), value: value.value)) }
            target = value
        }
    }

    /// Runs `body` on the node at `tokens`, or on the first node on the way that is not a big
    /// container with the tokens left, editing the big containers on the way in place: each is
    /// taken out of its node while its child is edited, so its array is copied only when
    /// another node shares it (the keyframe's state, cached). Fails as the tree's descent does.
    private mutating func descend<Result>(
        _ tokens: ArraySlice<String>, missing: String,
        _ body: (inout JSONNode, _ rest: ArraySlice<String>) throws(_PatchFailure) -> Result
    ) throws(_PatchFailure) -> Result {
        guard let token = tokens.first else { return try body(&self, tokens) }
        switch storage {
        case .array(var nodes):
            let index = try JSONPatch.existingIndex(token, count: nodes.count)
            storage = .tree(.null)
            defer { storage = .array(nodes) }
            return try nodes[index].descend(tokens.dropFirst(), missing: missing, body)
        case .object(var members):
            guard let position = members.shape.index(of: token) else { throw _PatchFailure(reason: missing) }
            storage = .tree(.null)
            defer { storage = .object(members) }
            return try members.nodes[position].descend(tokens.dropFirst(), missing: missing, body)
        case .tree, .bytes:
            return try body(&self, tokens)
        }
    }

    /// Applies `operation` (its path relative to this node) with the tree's code, to this node
    /// made a tree: in place when it is one, parsed first when it is bytes.
    private mutating func applyToTree(_ operation: JSONPatchOperation) throws(_PatchFailure) {
        var document = value
        storage = .tree(.null)
        defer { storage = .tree(document) }
        try JSONPatch.apply(operation, to: &document)
    }

    /// Adds `child` to this big container as `add` does to its parent: an object's member
    /// (replaced in place when the key is there), an array's element at `token` or at its end (`-`).
    private mutating func addChild(_ child: JSONNode, _ token: String) throws(_PatchFailure) {
        switch storage {
        case .object(var members):
            storage = .tree(.null)
            defer { storage = .object(members) }
            if let position = members.shape.index(of: token) {
                members.nodes[position] = child
            } else {
                members.uniqueShape().append(token)
                members.nodes.append(child)
            }
        case .array(var nodes):
            storage = .tree(.null)
            defer { storage = .array(nodes) }
            if token == "-" { nodes.append(child); return }
            guard let index = JSONPointer.arrayIndex(token), index <= nodes.count else {
                throw _PatchFailure(reason: JSONPatch.indexProblem(token, count: nodes.count))
            }
            nodes.insert(child, at: index)
        case .tree, .bytes:
            preconditionFailure("addChild is for a container held as its children's nodes")
        }
    }

    /// Removes and returns this big container's child `token`, as `remove` does from its parent.
    private mutating func removeChild(_ token: String) throws(_PatchFailure) -> JSONNode {
        switch storage {
        case .object(var members):
            guard let position = members.shape.index(of: token) else { throw _PatchFailure(reason: "path does not exist") }
            storage = .tree(.null)
            defer { storage = .object(members) }
            members.uniqueShape().remove(at: position)
            return members.nodes.remove(at: position)
        case .array(var nodes):
            let index = try JSONPatch.existingIndex(token, count: nodes.count)
            storage = .tree(.null)
            defer { storage = .array(nodes) }
            return nodes.remove(at: index)
        case .tree, .bytes:
            preconditionFailure("removeChild is for a container held as its children's nodes")
        }
    }

    /// True for a container held as its children's nodes.
    var isBigContainer: Bool {
        switch storage {
        case .array, .object: true
        case .tree, .bytes: false
        }
    }
}
