import Testing
@testable import Recorder

@Suite struct RedactionTests {
    let document: JSONValue = [
        "password": "hunter2",
        "user": ["email": "ann@example.com", "name": "Ann", "session": ["token": "tok-1"]],
        "users": [["token": "tok-2", "name": "Bo"], ["token": "tok-3", "name": "Cy"]],
        "token": "top-level",
    ]

    @Test func aKeyNameHidesThatMemberAtAnyDepth() throws {
        let redaction = try Redaction(rules: ["token"])
        let text = "\(redaction.redact(document))"
        for secret in ["tok-1", "tok-2", "tok-3", "top-level"] { #expect(!text.contains(secret)) }
        #expect(text.contains("hunter2"))
    }

    @Test func anAnchoredPointerHidesOnlyThatPath() throws {
        let redacted = try Redaction(rules: ["/user/email"]).redact(document)
        #expect(redacted[pointer: try JSONPointer(parsing: "/user/email")]?.stringValue?.hasPrefix("‹redacted ") == true)
        #expect(redacted[pointer: try JSONPointer(parsing: "/user/name")] == "Ann")
    }

    @Test func wildcardsMatchOneOrManySegments() throws {
        let oneLevel = try Redaction(rules: ["/users/*/token"]).redact(document)
        #expect(!"\(oneLevel)".contains("tok-2") && !"\(oneLevel)".contains("tok-3"))
        #expect("\(oneLevel)".contains("tok-1") && "\(oneLevel)".contains("top-level"))

        let withParent = try Redaction(rules: ["*/token"]).redact(document)
        #expect(!"\(withParent)".contains("tok-1"))
        #expect("\(withParent)".contains("top-level"), "a rule starting with */ needs a parent")
    }

    @Test func markersShowWhetherTheSecretChangedWithoutRevealingIt() throws {
        let redaction = try Redaction(rules: ["password"])
        let a = redaction.redact(["password": "hunter2"])
        let b = redaction.redact(["password": "hunter2"])
        let c = redaction.redact(["password": "correct horse"])
        #expect(a == b)
        #expect(a != c)
        #expect(a["password"]?.stringValue?.count == "‹redacted 00000000›".count)
    }

    @Test func separateRedactionsUseSeparateKeys() throws {
        let first = try Redaction(rules: ["password"]).redact(["password": "hunter2"])
        let second = try Redaction(rules: ["password"]).redact(["password": "hunter2"])
        #expect(first != second, "the hash key is random, so markers cannot be compared across recordings")
    }

    @Test func malformedRulesAreRejectedWithAReason() {
        #expect(throws: RedactionRuleError.self) { try Redaction(rules: [""]) }
        #expect(throws: RedactionRuleError.self) { try Redaction(rules: ["/a~2"]) }
        #expect(throws: RedactionRuleError.self) { try Redaction(rules: ["/a//b"]) }
    }
}
