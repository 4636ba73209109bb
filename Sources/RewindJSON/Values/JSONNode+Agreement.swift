extension JSONNode {
    /// Where this node answers anything differently from the node of `tree` (kind, count,
    /// keys, children by offset, key, token and pointer, the visit order, value, sizes,
    /// equality), down through every child: the path and what, or nil when it agrees.
    /// What holds a node read lazily to the tree the parser builds of the same bytes,
    /// in the tests and the `fast-readers` fuzz target (`FastPathAgreement`).
    package func disagreement(with tree: JSONValue, at path: String = "") -> String? {
        let reference = JSONNode(tree)
        func text(_ value: JSONValue) -> String { String(decoding: JSONWriter.compact(value), as: UTF8.self) }
        func differs<T: Equatable>(_ what: String, _ answer: T, _ expected: T) -> String? {
            answer == expected ? nil : "\(path.isEmpty ? "/" : path): \(what) is \(answer), the tree's \(expected)"
        }
        let pretty = JSONWriter.prettyString(tree).split(separator: "\n", omittingEmptySubsequences: false).count
        let checks: [() -> String?] = [
            { differs("kind", self.kind, reference.kind) },
            { differs("isContainer", self.isContainer, reference.isContainer) },
            { differs("opens", self.opens, reference.opens) },
            { differs("count", self.count, reference.count) },
            // Keys as JSON compares them: by their scalars (`==` on strings would call "é" and "e\u{301}" one).
            { differs("keys", self.keys.map { Array($0.unicodeScalars) }, reference.keys.map { Array($0.unicodeScalars) }) },
            { differs("value", text(self.value), text(tree)) },
            { differs("value ==", self.value == tree, true) },
            { differs("scalarValue", self.scalarValue.map(text), reference.scalarValue.map(text)) },
            { differs("prettyLineCount", self.prettyLineCount, pretty) },
            { differs("compactByteCount", self.compactByteCount, JSONWriter.compact(tree).count) },
            { differs("==", self == reference && reference == self, true) },
        ]
        for check in checks { if let found = check() { return found } }

        var visited: [[Unicode.Scalar]?] = []
        forEachChild { key, _ in visited.append(key.map { Array($0.unicodeScalars) }); return true }
        var expectedVisits: [[Unicode.Scalar]?] = []
        reference.forEachChild { key, _ in expectedVisits.append(key.map { Array($0.unicodeScalars) }); return true }
        var stoppedAfter = 0
        forEachChild { _, _ in stoppedAfter += 1; return false }
        if let found = differs("forEachChild", visited, expectedVisits) ?? differs("forEachChild stopping", stoppedAfter, min(1, reference.count)) {
            return found
        }

        var tokens = keys + ["", "missing", "-", "01", "0", String(count), String(max(0, count - 1))]
        if kind == .array { tokens += (0..<count).map(String.init) }
        for token in tokens {
            if let found = differs("offset(ofKey: \(token))", offset(ofKey: token), reference.offset(ofKey: token))
                ?? differs("child(\(token))", child(token).map { text($0.value) }, reference.child(token).map { text($0.value) }) {
                return found
            }
        }
        if let found = differs("child(at: -1)", child(at: -1) == nil, true) ?? differs("child(at: count)", child(at: count) == nil, true) {
            return found
        }
        for offset in 0..<reference.count {
            let token = kind == .object ? keys[offset] : String(offset)
            let pointer = JSONPointer(tokens: [token])
            if let found = differs("[pointer: \(pointer)]", self[pointer: pointer].map { text($0.value) }, reference[pointer: pointer].map { text($0.value) }) {
                return found
            }
            if let found = child(at: offset)!.disagreement(with: reference.child(at: offset)!.value, at: path + "/" + token) { return found }
        }
        return nil
    }
}
