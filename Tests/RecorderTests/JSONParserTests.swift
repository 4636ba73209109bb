import Testing
@testable import Recorder

@Suite struct JSONParserTests {
    @Test func parsesNestedDocumentsKeepingKeyOrder() throws {
        let value = try JSONParser.parse(#"{"b":1,"a":[true,null,"x\n",2.5,-0,1e3]}"#)
        #expect(value.objectValue?.keys == ["b", "a"])
        #expect(JSONWriter.compactString(value) == #"{"b":1,"a":[true,null,"x\n",2.5,0,1000]}"#)
    }

    @Test func reportsLineAndColumnOfTheProblem() {
        #expect(throws: JSONParseError.self) { try JSONParser.parse("{\n  \"a\": 1,\n}") }
        do {
            _ = try JSONParser.parse("{\n  \"a\": 1,\n}")
        } catch {
            #expect(error.line == 3)
            #expect(error.column == 1)
        }
    }
}
