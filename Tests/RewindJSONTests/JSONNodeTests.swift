import Foundation
import Testing
@testable import RewindJSON

/// A node held lazily over its JSON's bytes (``JSONNode/reading(_:_:containersOver:)``) answers
/// every question exactly as the node of the parsed tree does, and patches apply to it with
/// exactly the tree's results and errors. Thresholds far below the product's make small
/// documents lazy all the way down.
@Suite struct JSONNodeTests {
    @Test func aLazyNodeAnswersAsTheParsedTreeForGeneratedDocuments() throws {
        var lazyDocuments = 0
        for seed in 0..<400 as Range<UInt64> {
            var generator = JSONTextGenerator(seed: seed)
            let text = generator.document()
            // Bytes around the value, as a record has around its state.
            let bytes = Array("{\"state\":".utf8) + Array(text.utf8) + Array("}".utf8)
            let range = 9..<(bytes.count - 1)
            let tree = try JSONParser.parse(text)
            for threshold in [0, 8, 40, 1 << 20] {
                let node = try JSONNode.reading(bytes, range, containersOver: threshold)
                #expect(Self.disagreement(node, tree) == nil, "seed \(seed), threshold \(threshold): \(text)")
                if threshold == 0, !node.isHeldAsTree { lazyDocuments += 1 }
            }
        }
        #expect(lazyDocuments > 380, "documents are read lazily, long numbers and all, not handed to the parser whole")
    }

    @Test(.enabled(if: JSONConformanceTests.folder != nil)) func aLazyNodeAnswersAsTheParsedTreeForTheConformanceSuite() throws {
        let files = JSONConformanceTests.files(prefix: "")
        #expect(files.count > 300)
        for file in files {
            let bytes = try Array(Data(contentsOf: file))
            let tree = Result { () throws(JSONParseError) in try JSONParser.parse(bytes) }
            for threshold in [0, 4, 1 << 20] {
                let node = Result { () throws(JSONParseError) in try JSONNode.reading(bytes, 0..<bytes.count, containersOver: threshold) }
                switch (tree, node) {
                case (.success(let tree), .success(let node)):
                    #expect(Self.disagreement(node, tree) == nil, "\(file.lastPathComponent), threshold \(threshold)")
                case (.failure(let treeError), .failure(let nodeError)):
                    #expect("\(treeError)" == "\(nodeError)", "\(file.lastPathComponent)")
                default:
                    Issue.record("\(file.lastPathComponent): the parser says \(tree), the lazy reading \(node)")
                }
            }
        }
    }

    @Test func aBigDocumentIsHeldAsItsBigContainersChildrenAndBytes() throws {
        let items = (0..<2_000).map { "{\"id\":\($0),\"title\":\"task \($0)\",\"done\":\($0 % 2 == 0)}" }
        let text = "{\"filter\":\"all\",\"items\":[" + items.joined(separator: ",") + "],\"count\":2000}"
        let bytes = Array(text.utf8)
        let node = try JSONNode.reading(bytes, 0..<bytes.count, containersOver: 4_096)
        // The root and the list are big containers; each item is bytes until read.
        #expect(node.unparsedBytes == bytes.count - "{\"filter\":,\"items\":[],\"count\":}".utf8.count - (items.count - 1))
        #expect(node.child("items")?.child(at: 1_999)?.unparsedBytes == items[1_999].utf8.count)
        #expect(node.child("items")?.child(at: 7)?.child("title")?.value == "task 7")
        #expect(node.keys == ["filter", "items", "count"])
        #expect(node.compactByteCount == bytes.count)
        #expect(node.prettyLineCount == 2 + 1 + (2 + 2_000 * 5) + 1)
        #expect(MemoryLayout<JSONNode>.stride <= 24, "100,000 of them sit beside a huge state's bytes")
    }

    @Test func aNumberTheSkimLeavesToTheParserIsParsedAloneNotTheWholeDocument() throws {
        let items = (0..<500).map { "{\"id\":\($0),\"serial\":\($0 == 3 ? "12345678901234567890" : "7")}" }
        let text = "{\"items\":[" + items.joined(separator: ",") + "]}"
        let bytes = Array(text.utf8)
        let node = try JSONNode.reading(bytes, 0..<bytes.count, containersOver: 1_024)
        #expect(!node.isHeldAsTree && !(node.child("items")?.isHeldAsTree ?? true))
        #expect(node.child("items")?.child(at: 3)?.isHeldAsTree == true, "the item holding the long number")
        #expect(node.child("items")?.child(at: 4)?.isHeldAsTree == false)
        #expect(node.disagreement(with: try JSONParser.parse(bytes)) == nil)
    }

    @Test func nodesOverTheSameBytesAreEqualWithoutParsingAndOthersByJSONEquality() throws {
        let bytes = Array("[{\"a\":1,\"b\":[1,2]},{\"b\":[1,2.0],\"a\":1},{\"a\":2}]".utf8)
        let node = try JSONNode.reading(bytes, 0..<bytes.count, containersOver: 0)
        let first = node.child(at: 0)!, second = node.child(at: 1)!, third = node.child(at: 2)!
        #expect(first == node.child(at: 0)!)
        #expect(first == second, "members in another order, 2.0 == 2")
        #expect(first != third)
        #expect(node == JSONNode(try JSONParser.parse(bytes)))
        #expect(node != JSONNode(.array([])))
    }

    @Test func patchesApplyToALazyNodeAsToItsTree() throws {
        var failures = 0
        for seed in 0..<300 as Range<UInt64> {
            var generator = JSONTextGenerator(seed: seed)
            let text = generator.document()
            let bytes = Array(text.utf8)
            var tree = try JSONParser.parse(text)
            let original = tree
            var node = try JSONNode.reading(bytes, 0..<bytes.count, containersOver: [0, 8, 40][Int(seed % 3)])
            // Shared with the node patched, as a cached keyframe's state is: it must not change.
            let keyframe = node
            var treeLimits = PatchLimits(copiedBytes: 600, maximumNesting: 7)
            var nodeLimits = treeLimits
            for step in 0..<24 {
                let patch = JSONPatch((0..<(1 + generator.below(3))).map { _ in generator.operation(on: tree) })
                let treeError = Result { () throws(JSONPatchError) in try patch.applyDiscardingOnFailure(to: &tree, limits: &treeLimits) }
                let nodeError = Result { () throws(JSONPatchError) in try patch.applyDiscardingOnFailure(to: &node, limits: &nodeLimits) }
                if case .failure = treeError { failures += 1 }
                let context = "seed \(seed) step \(step): \(patch.operations) on \(text)"
                #expect(String(describing: nodeError) == String(describing: treeError), "\(context)")
                #expect(Self.disagreement(node, tree) == nil, "\(context)")
                #expect(nodeLimits.copiedBytesLeft == treeLimits.copiedBytesLeft, "\(context)")
            }
            #expect(Self.disagreement(keyframe, original) == nil, "seed \(seed): the shared node is untouched")
        }
        #expect(failures > 500, "the operations exercise the failures too")
    }

    @Test func aNodeInMemoryIsPatchedInPlace() throws {
        var node = JSONNode(["items": .array((0..<1_000).map { .integer($0) })])
        let storage = node.value["items"]!.arrayValue!.withUnsafeBufferPointer { $0.baseAddress }
        var limits = PatchLimits(copiedBytes: 1 << 20, maximumNesting: 100)
        try JSONPatch([.replace(path: JSONPointer(tokens: ["items", "5"]), value: -5)]).applyDiscardingOnFailure(to: &node, limits: &limits)
        #expect(node.value["items"]?[5] == -5)
        #expect(node.value["items"]!.arrayValue!.withUnsafeBufferPointer { $0.baseAddress } == storage, "the list was not copied")
    }

    static func disagreement(_ node: JSONNode, _ tree: JSONValue) -> String? { node.disagreement(with: tree) }
}

extension JSONNode {
    /// Whether the node is a tree in memory (tests: that the lazy form is what is tested).
    var isHeldAsTree: Bool {
        if case .tree = storage { return true }
        return false
    }
}

/// JSON texts at random: every kind of value, numbers the skim leaves to the parser, escapes,
/// space between tokens, repeated keys and keys JSON tells apart that Swift's `==` does not.
struct JSONTextGenerator {
    var random: SplitMix64
    let spaced: Bool
    /// Whether numbers the checked skim leaves to the parser appear (then the whole document is parsed).
    let undecidedNumbers: Bool

    init(seed: UInt64) {
        random = SplitMix64(seed: seed &* 0x9E37_79B9 &+ 1)
        spaced = seed % 5 == 0
        undecidedNumbers = seed % 7 == 3
    }

    mutating func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }

    mutating func document() -> String { value(depth: 0) }

    static let keys = ["a", "b", "id", "title", "é", "e\u{301}", "a/b", "m~n", "", "items"]
    static let scalars = [
        "null", "true", "false", "0", "-0", "7", "-12", "123456789012345678", "0.5", "-1.25e3", "1E9", "\"\"", "\"plain\"", "\"line\\nbreak\"", "\"\\u00e9t\\u00e9\"",
        "\"\\ud83d\\ude00\"", "\"slash\\/\"", "\"café\"", "\"quote \\\" inside\"",
    ]
    static let undecidedScalars = ["1234567890123456789", "-98765432109876543210987", "1E400", "2.5e-400", "3.14159265358979323846"]

    mutating func value(depth: Int) -> String {
        let space = spaced && below(2) == 0 ? " \n" : ""
        let roll = below(10)
        if depth >= 5 || roll < 4 {
            if undecidedNumbers && below(3) == 0 { return Self.undecidedScalars[below(Self.undecidedScalars.count)] }
            return Self.scalars[below(Self.scalars.count)]
        }
        let count = below(depth == 0 ? 9 : 6)
        if roll < 7 {
            let elements = (0..<count).map { _ in space + value(depth: depth + 1) + space }
            return "[" + space + elements.joined(separator: ",") + "]"
        }
        let members = (0..<count).map { _ in
            let key = Self.keys[below(Self.keys.count)].replacingOccurrences(of: "\u{301}", with: below(2) == 0 ? "\u{301}" : "\\u0301")
            return space + "\"" + key + "\"" + space + ":" + space + value(depth: depth + 1) + space
        }
        return "{" + space + members.joined(separator: ",") + "}"
    }

    /// A small value for an operation to write.
    mutating func smallValue() -> JSONValue {
        let text = value(depth: 3)
        return (try? JSONParser.parse(text)) ?? .null
    }

    /// A pointer into `document` most of the time (a random walk from its root), else one a
    /// step past its end, through a scalar, or with a token no array index reads.
    mutating func pointer(in document: JSONValue) -> JSONPointer {
        var tokens: [String] = []
        var current: JSONValue? = document
        while let node = current, below(4) != 0 {
            switch node {
            case .object(let object) where !object.isEmpty:
                let key = object.keys[below(object.count)]
                tokens.append(key)
                current = object[key]
            case .array(let elements) where !elements.isEmpty:
                let index = below(elements.count)
                tokens.append(String(index))
                current = elements[index]
            default:
                current = nil
            }
        }
        if below(4) == 0 { tokens.append(["-", "0", "01", "99", "zz", "a", "é", "m~n", ""][below(9)]) }
        return JSONPointer(tokens: tokens)
    }

    mutating func operation(on document: JSONValue) -> JSONPatchOperation {
        let path = pointer(in: document)
        switch below(7) {
        case 0: return .add(path: path, value: smallValue())
        case 1: return .remove(path: path)
        case 2: return .replace(path: path, value: smallValue())
        case 3: return .move(from: pointer(in: document), path: path)
        case 4: return .copy(from: pointer(in: document), path: path)
        case 5: return .test(path: path, value: document[pointer: path] ?? .null)
        default: return .test(path: path, value: smallValue())
        }
    }
}

@Suite struct JSONNodeScalarTests {
    /// A container has no scalar value, in every form: not JSON's null (which `nil` becomes
    /// where a `JSONValue` is expected), or a search for "null" matches every container.
    @Test func aContainerHasNoScalarValueAndNullHasOne() throws {
        let bytes = Array(#"{"list":[1,{"a":null}],"empty":{},"nothing":null}"#.utf8)
        for node in [JSONNode(try JSONParser.parse(bytes)), try JSONNode.reading(bytes, 0..<bytes.count, containersOver: 0)] {
            for container in [node, node.child("list")!, node.child("empty")!, node.child("list")!.child(at: 1)!] {
                if case .some(let value) = container.scalarValue { Issue.record("a container's scalar value: \(value)") }
            }
            if case .some(.null) = node.child("nothing")!.scalarValue {} else { Issue.record("null's scalar value is null") }
        }
    }

    /// Lines are counted from the bytes whatever their spacing, escapes and numbers (not only
    /// from bytes exactly as `compact` writes them): the count the pretty writer gives.
    @Test func prettyLinesAreCountedFromAnyValidBytes() throws {
        let text = #"{ "a" : [ 1.50 , "q\"u,o[te" , { } , [ ] , [ 1e3 ] ] , "b\\" : { "c" : "\u002c" } }"#
        let bytes = Array(text.utf8)
        let node = try JSONNode.reading(bytes, 0..<bytes.count, containersOver: 0)
        let tree = try JSONParser.parse(bytes)
        #expect(node.prettyLineCount == JSONWriter.prettyString(tree).split(separator: "\n", omittingEmptySubsequences: false).count)
        #expect(node.child("a")!.prettyLineCount == JSONWriter.prettyString(tree["a"]!).split(separator: "\n").count)
    }

    /// An object that repeats a key has fewer members than its bytes show: counted from its tree,
    /// among few keys or many, and a key spelled with an escape may be any other key.
    @Test func anObjectRepeatingAKeyIsCountedAsItsTree() throws {
        let many = (0..<40).map { "\"k\($0)\":[1,2]" }.joined(separator: ",")
        for text in [#"{"a":[1],"b":2,"a":[3,4]}"#, "{\(many),\"k7\":[5]}", "{\(many)}", #"{"a":[1,2],"\u0061":[3]}"#, #"[{"a":1},{"a":1}]"#] {
            let bytes = Array(" \(text) ".utf8)
            let node = try JSONNode.reading(bytes, 1..<(bytes.count - 1), containersOver: 1 << 20)
            let tree = try JSONParser.parse(bytes)
            #expect(node.prettyLineCount == JSONWriter.prettyString(tree).split(separator: "\n").count, "\(text)")
        }
    }
}
