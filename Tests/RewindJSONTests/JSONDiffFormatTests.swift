import Testing
@testable import RewindJSON

@Suite struct JSONDiffFormatTests {
    let old: JSONValue = [
        "count": 1,
        "todos": [["id": 1, "title": "a"], ["id": 2, "title": "b"], ["id": 3, "title": "c"]],
        "user": "x", "flag": true, "gone": 5,
    ]
    let new: JSONValue = [
        "count": 2,
        "todos": [["id": 1, "title": "a"], ["id": 3, "title": "C"]],
        "user": "x", "flag": true, "added": [1],
    ]

    @Test func treeTextCollapsesUnchangedSiblings() {
        #expect(JSONDiff.treeText(from: old, to: new) == """
              {
            -   "count": 1
            +   "count": 2
                "todos": [
                  … (1 unchanged: 0)
            -     {"id":2,"title":"b"}
                  {
                    … (1 unchanged)
            -       "title": "c"
            +       "title": "C"
                  }
                ]
                … (2 unchanged)
            +   "added": [1]
            -   "gone": 5
              }
            """)
        #expect(JSONDiff.treeText(from: old, to: old) == nil)
        #expect(JSONDiff.treeText(from: 1, to: "1") == "- 1\n+ \"1\"")
    }

    @Test func treeLinesCarryKindDepthAndPathForTheInspector() throws {
        let lines = JSONDiff.treeLines(from: old, to: new)
        #expect(lines.map(\.kind) == [.header, .removed, .added, .header, .collapsed, .removed, .header, .collapsed,
                                      .removed, .added, .header, .header, .collapsed, .added, .removed, .header])
        let removedTitle = lines[8]
        #expect(removedTitle.depth == 3)
        #expect(try removedTitle.path == JSONPointer(parsing: "/todos/2/title"))
        let addedTitle = lines[9]
        #expect(try addedTitle.path == JSONPointer(parsing: "/todos/1/title"))
        #expect(try lines[5].path == JSONPointer(parsing: "/todos/1"))
        #expect(JSONDiff.treeLines(from: new, to: new).isEmpty)
    }

    @Test func unifiedTextIsDiffUOfThePrettyPrintedDocuments() {
        let before = JSONValue.object(JSONObject((0..<12).map { ("k\($0)", .integer(Int64($0))) }))
        var afterObject = before.objectValue!
        afterObject["k1"] = "one"
        afterObject["k10"] = nil
        let after = JSONValue.object(afterObject)
        #expect(JSONDiff.unifiedText(from: before, to: after, fromLabel: "A.json", toLabel: "B.json") == """
            --- A.json
            +++ B.json
            @@ -1,6 +1,6 @@
             {
               "k0": 0,
            -  "k1": 1,
            +  "k1": "one",
               "k2": 2,
               "k3": 3,
               "k4": 4,
            @@ -9,6 +9,5 @@
               "k7": 7,
               "k8": 8,
               "k9": 9,
            -  "k10": 10,
               "k11": 11
             }
            """)
        #expect(JSONDiff.unifiedText(from: before, to: before) == nil)
    }
}
