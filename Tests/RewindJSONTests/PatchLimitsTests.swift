import Testing
@testable import RewindJSON

/// What a patch from elsewhere may build (issue 37): copies add at most so many bytes
/// from one whole state to the next, and no operation nests values past the limit.
@Suite struct PatchLimitsTests {
    /// `/a` appended to itself 40 times: it doubles each time.
    static let copyInto = String(repeating: #"{"op":"copy","from":"/a","path":"/a/-"},"#, count: 40).dropLast()
    static let copyAlong = (0..<40).map { #"{"op":"copy","from":"/c\#($0)","path":"/c\#($0 + 1)"}"# }.joined(separator: ",")

    @Test func aValueCopiedIntoItselfFortyTimesStopsAtTheCopyLimit() throws {
        var document = try JSONParser.parse(#"{"a":["0123456789"]}"#)
        let before = document
        var limits = PatchLimits(copiedBytes: 1 << 20, maximumNesting: 509)
        let patch = try JSONPatch(json: "[\(Self.copyInto)]")
        #expect(throws: JSONPatchError.self) { try patch.apply(to: &document, limits: &limits) }
        do {
            try patch.apply(to: &document, limits: &limits)
        } catch {
            #expect(error.description.hasSuffix(": it copies more than 1 MB since the last whole state, more than a log record holds"))
        }
        #expect(document == before, "atomic: nothing of the patch applied")
    }

    @Test func copiesAddUpAcrossPatchesUntilAWholeState() throws {
        var document = try JSONParser.parse(#"{"a":["0123456789"]}"#)
        var limits = PatchLimits(copiedBytes: 1 << 20, maximumNesting: 509)
        let one = try JSONPatch(json: #"[{"op":"copy","from":"/a","path":"/a/-"}]"#)
        var applied = 0
        while (try? one.apply(to: &document, limits: &limits)) != nil { applied += 1 }
        #expect((14...18).contains(applied), "about 2¹⁶ copies of 16 bytes: \(applied) doublings")
        limits.restart()
        #expect(throws: Never.self) { try one.apply(to: &document, limits: &limits) }
    }

    @Test func aChainOfCopiesIsCharged() throws {
        var document = try JSONParser.parse(#"{"c0":[[1,2,3,4,5,6,7,8]]}"#)
        var limits = PatchLimits(copiedBytes: 2048, maximumNesting: 509)
        // Each copy is small; together they pass the limit.
        let patch = try JSONPatch(json: "[\(Self.copyAlong)]")
        #expect(throws: JSONPatchError.self) { try patch.apply(to: &document, limits: &limits) }
        var unlimited = try JSONParser.parse(#"{"c0":[[1,2,3,4,5,6,7,8]]}"#)
        try patch.apply(to: &unlimited)
        #expect(unlimited["c40"] == unlimited["c0"], "without limits the public apply is as it was")
    }

    @Test func noOperationNestsPastTheLimit() throws {
        let deep = String(repeating: "[", count: 8) + String(repeating: "]", count: 8)
        var limits = PatchLimits(copiedBytes: 1 << 20, maximumNesting: 10)
        var document = try JSONParser.parse(#"{"a":{"b":{}}}"#)
        try JSONPatch(json: #"[{"op":"add","path":"/a/c","value":\#(deep)}]"#).apply(to: &document, limits: &limits)
        for operation in [#"{"op":"add","path":"/a/b/d","value":\#(deep)}"#, #"{"op":"replace","path":"/a/b","value":[\#(deep),[1]]}"#,
                          #"{"op":"move","from":"/a/c","path":"/a/b/e"}"#, #"{"op":"copy","from":"/a/c","path":"/a/b/f"}"#] {
            do {
                var copy = document
                try JSONPatch(json: "[\(operation)]").apply(to: &copy, limits: &limits)
                Issue.record("\(operation) nested past the limit")
            } catch {
                #expect(error.description.hasSuffix(": it nests values more than 10 levels deep, more than a log record holds"))
            }
        }
        // A scalar anywhere within the limit is fine, and the path's own depth counts.
        try JSONPatch(json: #"[{"op":"add","path":"/a/b/s","value":1}]"#).apply(to: &document, limits: &limits)
    }

    @Test func aValueSharedTwoToTheSixtyTimesIsMeasuredOnce() {
        var value: JSONValue = ["leaf"]
        for _ in 0..<60 { value = .array([value, value]) }
        #expect(value.encodedSize(atMost: 1 << 26) == nil)
        #expect(value.nesting(atMost: 100) == 61)
        #expect(JSONValue.array([1, "ab", ["k": nil]]).encodedSize(atMost: 1000) == 3 + 8 + 4 + (3 + 4 + 5))
    }

    @Test func whatARecorderWritesIsNeverRefused() throws {
        var limits = PatchLimits(copiedBytes: 1 << 20, maximumNesting: 509)
        var state: JSONValue = ["todos": [], "n": 0]
        var todos: [JSONValue] = []
        for step in 0..<200 {
            todos.append(["title": .string("todo \(step)"), "tags": [["deep": ["er": [.bool(step % 3 == 0)]]]]])
            if step % 7 == 0 { todos.removeFirst(min(2, todos.count)) }
            let next: JSONValue = ["todos": .array(todos), "n": .integer(Int64(step))]
            try JSONDiff.patch(from: state, to: next).apply(to: &state, limits: &limits)
            #expect(state == next)
        }
        #expect(limits.copiedBytesLeft == 1 << 20)
    }
}
