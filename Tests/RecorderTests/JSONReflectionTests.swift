import Foundation
import Testing
@testable import Recorder

private enum Status { case idle, loaded(Int), failed(code: Int, message: String) }
private struct Item { var title: String; var done: Bool; var status: Status; var note: String? }
private final class Parent { var name = "p"; var child: Child?; init() {} }
private final class Child { var parent: Parent?; var siblings: [Child] = [] }
private class Animal { var legs = 4 }
private final class Dog: Animal { var name = "Rex" }
private struct NotCodable { var onTap: (Int) -> Int = { $0 }; var failure: any Error = CocoaError(.fileNoSuchFile) }
private struct Thrower: Encodable {
    struct Refused: Error {}
    var field = 1
    func encode(to encoder: any Encoder) throws { throw Refused() }
}

@Suite struct JSONReflectionTests {
    @Test func structsAndEnumsShowFieldsAndCaseNames() {
        let items = [
            Item(title: "a", done: false, status: .idle, note: nil),
            Item(title: "b", done: true, status: .loaded(3), note: "n"),
            Item(title: "c", done: false, status: .failed(code: 4, message: "m"), note: nil),
        ]
        #expect(JSONWriter.compactString(JSONEncoding.reflecting(items)) == """
            [{"title":"a","done":false,"status":"idle","note":null},\
            {"title":"b","done":true,"status":{"loaded":{"_0":3}},"note":"n"},\
            {"title":"c","done":false,"status":{"failed":{"code":4,"message":"m"}},"note":null}]
            """)
    }

    @Test func referenceCyclesBecomeRefMarkers() {
        let parent = Parent()
        let child = Child()
        parent.child = child
        child.parent = parent
        child.siblings = [child]
        #expect(JSONWriter.compactString(JSONEncoding.reflecting(parent)) == """
            {"name":"p","child":{"parent":{"$ref":"Parent"},"siblings":[{"$ref":"Child"}]}}
            """)
    }

    @Test func subclassesIncludeInheritedProperties() {
        #expect(JSONEncoding.reflecting(Dog()) == ["legs": 4, "name": "Rex"])
    }

    @Test func dictionariesAndSetsAreSortedForDeterministicOutput() {
        let dictionary: [Int: String] = [3: "c", 1: "a", 2: "b"]
        #expect(JSONWriter.compactString(JSONEncoding.reflecting(dictionary)) == #"{"1":"a","2":"b","3":"c"}"#)
        let set: Set<String> = ["pear", "apple", "fig"]
        #expect(JSONWriter.compactString(JSONEncoding.reflecting(set)) == #"["apple","fig","pear"]"#)
        #expect(JSONEncoding.reflecting((1, "x")) == [1, "x"])
        #expect(JSONEncoding.reflecting((a: 1, b: "x")) == ["a": 1, "b": "x"])
    }

    @Test func closuresAndErrorsAreReadableText() {
        let value = JSONEncoding.reflecting(NotCodable())
        #expect(value["onTap"] == "<function (Int) -> Int>")
        #expect(value["failure"]?.stringValue?.isEmpty == false)
    }

    @Test func recordedValuesPreferEncodableAndFallBackToReflection() throws {
        func recorded(_ value: Any) throws -> (value: JSONValue, replayable: Bool) {
            let payload = RecordedValue.encodePayload(value)
            return (try JSONParser.parse(payload.bytes), payload.replayable)
        }
        let encodable = try recorded(["a": 1])
        #expect(encodable.replayable && encodable.value == ["a": 1])
        let reflected = try recorded(Item(title: "t", done: true, status: .idle, note: nil))
        #expect(!reflected.replayable && reflected.value["title"] == "t")
        let thrower = try recorded(Thrower())
        #expect(!thrower.replayable && thrower.value == ["field": 1])
    }

    @Test func deepSelfReferenceTerminates() {
        final class Loop { var next: Loop?; var items: [Loop] = [] }
        let loop = Loop()
        loop.next = loop
        loop.items = [loop, loop]
        #expect(JSONWriter.compactString(JSONEncoding.reflecting(loop)) == #"{"next":{"$ref":"Loop"},"items":[{"$ref":"Loop"},{"$ref":"Loop"}]}"#)
    }
}
