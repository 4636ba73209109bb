import Testing
@testable import RewindJSON

/// Applies a patch written as RFC 6902 JSON text to a document written as JSON text.
private func apply(_ patch: String, to document: String) throws -> JSONValue {
    try JSONPatch(json: patch).applied(to: JSONParser.parse(document))
}

private func json(_ text: String) -> JSONValue { try! JSONParser.parse(text) }

/// The failure of applying `patch` to `document`, if it fails.
private func failure(_ patch: String, on document: String) -> JSONPatchError? {
    do {
        _ = try apply(patch, to: document)
        return nil
    } catch let error as JSONPatchError {
        return error
    } catch {
        return nil
    }
}

@Suite struct JSONPatchTests {
    // RFC 6902, Appendix A.
    @Test func rfc6902AppendixExamples() throws {
        #expect(try apply(#"[{"op":"add","path":"/baz","value":"qux"}]"#, to: #"{"foo":"bar"}"#) == json(#"{"baz":"qux","foo":"bar"}"#))
        #expect(try apply(#"[{"op":"add","path":"/foo/1","value":"qux"}]"#, to: #"{"foo":["bar","baz"]}"#) == json(#"{"foo":["bar","qux","baz"]}"#))
        #expect(try apply(#"[{"op":"remove","path":"/baz"}]"#, to: #"{"baz":"qux","foo":"bar"}"#) == json(#"{"foo":"bar"}"#))
        #expect(try apply(#"[{"op":"remove","path":"/foo/1"}]"#, to: #"{"foo":["bar","qux","baz"]}"#) == json(#"{"foo":["bar","baz"]}"#))
        #expect(try apply(#"[{"op":"replace","path":"/baz","value":"boo"}]"#, to: #"{"baz":"qux","foo":"bar"}"#) == json(#"{"baz":"boo","foo":"bar"}"#))
        #expect(try apply(#"[{"op":"move","from":"/foo/waldo","path":"/qux/thud"}]"#,
                          to: #"{"foo":{"bar":"baz","waldo":"fred"},"qux":{"corge":"grault"}}"#)
                == json(#"{"foo":{"bar":"baz"},"qux":{"corge":"grault","thud":"fred"}}"#))
        #expect(try apply(#"[{"op":"move","from":"/foo/1","path":"/foo/3"}]"#, to: #"{"foo":["all","grass","cows","eat"]}"#)
                == json(#"{"foo":["all","cows","eat","grass"]}"#))
        #expect(try apply(#"[{"op":"test","path":"/baz","value":"qux"},{"op":"test","path":"/foo/1","value":2}]"#,
                          to: #"{"baz":"qux","foo":["a",2,"c"]}"#) == json(#"{"baz":"qux","foo":["a",2,"c"]}"#))
        #expect(failure(#"[{"op":"test","path":"/baz","value":"bar"}]"#, on: #"{"baz":"qux"}"#)?.description
                == #"operation 0 (test /baz): test failed: expected "bar", found "qux""#)
        #expect(try apply(#"[{"op":"add","path":"/child","value":{"grandchild":{}}}]"#, to: #"{"foo":"bar"}"#)
                == json(#"{"foo":"bar","child":{"grandchild":{}}}"#))
        #expect(try apply(#"[{"op":"add","path":"/baz","value":"qux","xyz":123}]"#, to: #"{"foo":"bar"}"#) == json(#"{"foo":"bar","baz":"qux"}"#))
        // A.13: a member named twice ("op" here) is an error, not "last one wins".
        #expect(failure(#"[{"op":"add","path":"/baz","value":"qux","op":"remove"}]"#, on: #"{"foo":"bar"}"#)?.description
                == #"operation 0 (patch ""): not valid JSON: line 1, column 2 (byte 1): the key "op" appears twice in one object"#)
        #expect(failure(#"[{"op":"add","path":"/baz/bat","value":"qux"}]"#, on: #"{"foo":"bar"}"#)?.description
                == "operation 0 (add /baz/bat): parent path does not exist")
        #expect(try apply(#"[{"op":"test","path":"/~01","value":10}]"#, to: #"{"/":9,"~1":10}"#) == json(#"{"/":9,"~1":10}"#))
        #expect(failure(#"[{"op":"test","path":"/~01","value":"10"}]"#, on: #"{"/":9,"~1":10}"#) != nil)
        #expect(try apply(#"[{"op":"add","path":"/foo/-","value":["abc","def"]}]"#, to: #"{"foo":["bar"]}"#) == json(#"{"foo":["bar",["abc","def"]]}"#))
    }

    @Test func copyAndWholeDocumentOperations() throws {
        #expect(try apply(#"[{"op":"copy","from":"/a","path":"/b/0"}]"#, to: #"{"a":{"x":1},"b":[]}"#) == json(#"{"a":{"x":1},"b":[{"x":1}]}"#))
        #expect(try apply(#"[{"op":"replace","path":"","value":[1]}]"#, to: #"{"a":1}"#) == [1])
        #expect(try apply(#"[{"op":"add","path":"","value":3}]"#, to: #"{"a":1}"#) == 3)
        #expect(try apply(#"[{"op":"test","path":"","value":{"b":2,"a":1.0}}]"#, to: #"{"a":1,"b":2}"#) == json(#"{"a":1,"b":2}"#))
        #expect(try apply(#"[{"op":"add","path":"/","value":"empty key"}]"#, to: #"{}"#) == ["": "empty key"])
        #expect(try apply(#"[{"op":"move","from":"/a","path":"/a"}]"#, to: #"{"a":1}"#) == ["a": 1])
    }

    @Test func specErrorCasesNameTheOperationAndPointer() {
        let document = #"{"foo":["a","b"],"obj":{"k":1}}"#
        let cases: [(String, String)] = [
            (#"[{"op":"add","path":"/foo/3","value":1}]"#, "operation 0 (add /foo/3): array index '3' is out of bounds (count 2)"),
            (#"[{"op":"add","path":"/foo/01","value":1}]"#, "operation 0 (add /foo/01): '01' is not an array index"),
            (#"[{"op":"remove","path":"/foo/-"}]"#, "operation 0 (remove /foo/-): '-' names no existing element"),
            (#"[{"op":"replace","path":"/foo/2","value":1}]"#, "operation 0 (replace /foo/2): array index '2' is out of bounds (count 2)"),
            (#"[{"op":"replace","path":"/missing","value":1}]"#, "operation 0 (replace /missing): path does not exist"),
            (#"[{"op":"remove","path":"/obj/k"},{"op":"remove","path":"/obj/k"}]"#, "operation 1 (remove /obj/k): path does not exist"),
            (#"[{"op":"move","from":"/obj","path":"/obj/inner"}]"#, "operation 0 (move /obj/inner): cannot move a value into one of its own children"),
            (#"[{"op":"move","from":"/nope","path":"/x"}]"#, "operation 0 (move /x): path does not exist"),
            (#"[{"op":"move","from":"/nope","path":"/nope"}]"#, "operation 0 (move /nope): 'from' path /nope does not exist"),
            (#"[{"op":"copy","from":"/nope","path":"/x"}]"#, "operation 0 (copy /x): 'from' path /nope does not exist"),
            (#"[{"op":"add","path":"/foo/0/x","value":1}]"#, "operation 0 (add /foo/0/x): cannot add inside a string"),
            (#"[{"op":"test","path":"/nope","value":1}]"#, "operation 0 (test /nope): path does not exist"),
            (#"[{"op":"remove","path":""}]"#, #"operation 0 (remove ""): cannot remove the whole document"#),
            (#"[{"op":"add","path":"foo","value":1}]"#, "operation 0 (add foo): a JSON Pointer must be empty or start with '/'"),
            (#"[{"op":"add","path":"/a~2","value":1}]"#, "operation 0 (add /a~2): '~' must be followed by '0' or '1'"),
            (#"[{"op":"frobnicate","path":"/a"}]"#, #"operation 0 (frobnicate /a): unknown operation "frobnicate""#),
            (#"[{"op":"add","path":"/a"}]"#, #"operation 0 (add /a): missing "value" member"#),
            (#"[{"op":"move","path":"/a"}]"#, #"operation 0 (move /a): missing "from" member"#),
            (#"[{"path":"/a"}]"#, #"operation 0 (? ""): missing "op" member"#),
            (#"{"op":"add"}"#, #"operation 0 (patch ""): a JSON Patch must be an array, found object"#),
        ]
        for (patch, expected) in cases {
            #expect(failure(patch, on: document)?.description == expected, "\(patch)")
        }
    }

    @Test func aFailingOperationLeavesTheDocumentUnchanged() throws {
        let original: JSONValue = ["list": [1, 2, 3], "name": "x", "obj": ["a": 1, "b": 2]]
        let patch = try JSONPatch(jsonValue: json("""
            [{"op":"remove","path":"/list/0"},{"op":"replace","path":"/name","value":"y"},
             {"op":"add","path":"/list/-","value":9},{"op":"add","path":"/obj/a","value":5},{"op":"add","path":"/new","value":1},
             {"op":"move","from":"/obj/a","path":"/obj/b"},{"op":"move","from":"/list/0","path":"/list/-"},
             {"op":"copy","from":"/obj","path":"/copy"},{"op":"test","path":"/name","value":"x"}]
            """))
        var document = original
        #expect(throws: JSONPatchError.self) { document = try patch.applied(to: document) }
        #expect(document == original)
        // In place: every earlier operation is undone.
        var inPlace = original
        #expect(throws: JSONPatchError.self) { try patch.apply(to: &inPlace) }
        #expect(inPlace == original)
        #expect(JSONWriter.compactString(inPlace) == JSONWriter.compactString(original))
    }

    @Test func inPlaceUndoRestoresEveryGeneratedDocument() throws {
        var generator = SplitMix64(seed: 6_902)
        for _ in 0..<200 {
            let old = RandomJSON.document(using: &generator)
            let new = RandomJSON.mutate(old, using: &generator)
            var operations = JSONDiff.patch(from: old, to: new).operations
            var applied = old
            try JSONPatch(operations).apply(to: &applied)
            #expect(applied == new)
            operations.append(.test(path: JSONPointer(), value: "never equal"))
            var undone = old
            #expect(throws: JSONPatchError.self) { try JSONPatch(operations).apply(to: &undone) }
            #expect(undone == old)
        }
    }

    @Test func pointersEscapeTildeAndSlash() throws {
        let pointer = try JSONPointer(parsing: "/a~1b/c~0d/~01")
        #expect(pointer.tokens == ["a/b", "c~d", "~1"])
        #expect(pointer.description == "/a~1b/c~0d/~01")
        #expect(JSONPointer(tokens: ["~/"]).description == "/~0~1")
        #expect(try JSONPointer(parsing: "") == JSONPointer())
    }

    /// The pointer split's fast path (ASCII bytes) gives the reference's tokens
    /// (character by character) wherever it answers, and declines escapes and
    /// non-ASCII text, which only the reference reads right.
    @Test func pointersSplitAsBytesAreThePointersSplitByCharacter() {
        var random = SystemRandomNumberGenerator()
        let alphabet = Array("ab/0-_~ 1é\u{301}".unicodeScalars)
        var pointers = ["/", "//", "/a//b/", "/~0", "/~1x", "/é", "/a b/-/0", "/" + String(repeating: "x/", count: 40)]
        for _ in 0..<2_000 {
            let length = Int.random(in: 0...12, using: &random)
            pointers.append("/" + String(String.UnicodeScalarView((0..<length).map { _ in alphabet.randomElement(using: &random)! })))
        }
        var answered = 0
        for text in pointers {
            let reference = try? JSONPointer.tokens(text)   // nil: a `~` not followed by 0 or 1
            guard let fast = JSONPointer.asciiTokens(text) else {
                #expect(text.utf8.contains { $0 >= 0x80 || $0 == UInt8(ascii: "~") }, "declines plain ASCII: \(text.debugDescription)")
                continue
            }
            answered += 1
            #expect(fast == reference, "\(text.debugDescription)")
        }
        #expect(answered > 200)
    }

    /// A patch reader's pointer, read from the bytes of its path, is the pointer parsed
    /// from their text, and nil exactly where parsing throws (no leading `/`, a `~` not
    /// followed by 0 or 1), escapes and non-ASCII text included.
    @Test func pointersReadFromBytesAreThePointersParsedFromText() {
        var random = SystemRandomNumberGenerator()
        let alphabet = Array("ab/0-_~ 1é\u{301}".unicodeScalars)
        var texts = ["", "/", "//", "a/b", "~0", "é", "/~", "/~2", "/~01", "/a~1b/c", "/é/\u{301}", "/" + String(repeating: "x/", count: 40)]
        for _ in 0..<2_000 {
            let length = Int.random(in: 0...12, using: &random)
            texts.append(String(String.UnicodeScalarView((0..<length).map { _ in alphabet.randomElement(using: &random)! })))
        }
        for text in texts {
            let fromBytes = Array(text.utf8).withUnsafeBufferPointer { JSONPointer(validUTF8: $0) }
            #expect(fromBytes == (try? JSONPointer(parsing: text)), "\(text.debugDescription)")
        }
    }

    @Test func repeatedEditsOfALargeArrayStayInPlace() throws {
        // Guards the copy-avoiding apply: 1,000 edits of a 100,000-element array
        // deep in a document would take minutes if each one copied the array.
        var document: JSONValue = ["state": ["rows": .array((0..<100_000).map { .integer(Int64($0)) })]]
        for index in 0..<1_000 {
            let path = try JSONPointer(parsing: "/state/rows/\(index * 97)")
            try JSONPatch([.replace(path: path, value: -1)]).apply(to: &document)
        }
        #expect(document[pointer: try JSONPointer(parsing: "/state/rows/970")] == -1)
        #expect(document["state"]?["rows"]?.arrayValue?.count == 100_000)
    }

    /// An array index token is what RFC 6901 allows (digits, no leading zero)
    /// and its value, read from the bytes as `Int(_:)` reads it, with every
    /// length up to where `Int` overflows and beyond.
    @Test func arrayIndexTokensReadAsRFC6901SaysAtEveryLength() {
        func definition(_ token: String) -> Int? {
            guard !token.isEmpty, token.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            if token.utf8.count > 1 && token.utf8.first == 0x30 { return nil }
            return Int(token)
        }
        var tokens = ["", "0", "00", "01", "7", "10", "-1", "+1", "1e3", "1.0", " 1", "1 ", "x", "-", "\u{0661}", "1\u{0661}",
                      "9223372036854775807", "9223372036854775808", "99999999999999999999"]
        for length in 1...21 {
            tokens.append(String(repeating: "9", count: length))
            tokens.append("1" + String(repeating: "0", count: length - 1))
            tokens.append(String(repeating: "1", count: length - 1) + "a")
        }
        // A token long enough to live on the heap, as well as small ones.
        tokens.append(String(repeating: "1", count: 40))
        for token in tokens {
            #expect(JSONPointer.arrayIndex(token) == definition(token), "\(token.debugDescription)")
        }
        #expect(JSONPointer.arrayIndex("123456789012345678") == 123_456_789_012_345_678)
    }
}
