import Testing
import Recorder
@testable import RewindQuery

/// The query language of `find`, `bisect`, `:find` and `:bisect` (docs/QUERIES.md).
@Suite struct QueryLanguageTests {
    let state: JSONValue = [
        "cart": ["total": -5, "items": ["a", "b", "c", "d"], "coupon": .null],
        "user": ["name": "Ann", "tags": ["work", "home"], "age": 41.5],
        "flags": ["beta": true],
    ]

    func holds(_ text: String, state: JSONValue? = nil, previous: JSONValue? = nil, action: String = "checkout.submit") throws -> Bool {
        try Query(parsing: text).matches(QueryInput(state: state ?? self.state, previousState: previous, actionType: action))
    }

    @Test func comparesValuesAtPathsWithLiterals() throws {
        #expect(try holds("/cart/total < 0"))
        #expect(try !holds("/cart/total >= 0"))
        #expect(try holds(#"/user/name == "Ann""#))
        #expect(try holds(#"/user/name != "Bob""#))
        #expect(try holds("/user/age > 41 and /user/age <= 41.5"))
        #expect(try holds("/flags/beta == true"))
        #expect(try holds("/cart/coupon == null"))
        #expect(try holds(#"/user/name < "Bob""#), "strings compare in order")
        #expect(try !holds(#"/user/name < 3"#), "a string and a number do not order")
        #expect(try holds("/cart/total < /user/age"), "a path on both sides")
    }

    @Test func absentPathsOnlySatisfyNotEqual() throws {
        #expect(try !holds("/nope == null"))
        #expect(try !holds("/nope < 1"))
        #expect(try holds("/nope != 1"))
        #expect(try !holds("exists /nope"))
        #expect(try holds("exists /cart/coupon"), "a null member exists")
    }

    @Test func lengthContainsAndChanged() throws {
        #expect(try holds("/cart/items length > 3"))
        #expect(try holds("/user/name length == 3"))
        #expect(try holds("/cart length == 3"))
        #expect(try !holds("/cart/total length > 0"), "a number has no length")
        #expect(try holds(#"/user/tags contains "work""#))
        #expect(try !holds(#"/user/tags contains "play""#))
        #expect(try holds(#"/user/name contains "nn""#))
        #expect(try holds(#"/cart contains "coupon""#), "an object contains its keys")
        let before: JSONValue = ["cart": ["total": 3]]
        #expect(try holds("changed /cart/total", previous: before))
        #expect(try !holds("changed /user/name", previous: ["user": ["name": "Ann"]]))
        #expect(try holds("changed /user/name", previous: [:]), "appearing is a change")
        #expect(try !holds("changed /user/name", previous: nil), "without a state before, nothing changed")
    }

    @Test func actionTypesBooleansAndParentheses() throws {
        #expect(try holds("action == checkout.submit"))
        #expect(try holds(#"action == "checkout.submit""#))
        #expect(try holds("action == checkout.*"))
        #expect(try !holds("action == cart.*"))
        #expect(try holds("action != cart.add"))
        #expect(try holds("not /cart/total > 0"))
        #expect(try holds("/cart/total > 0 or /flags/beta == true"))
        #expect(try !holds("/cart/total > 0 or /flags/beta == false and /cart/total < 0"), "and binds tighter than or")
        #expect(try holds("(/cart/total > 0 or /flags/beta == true) and /cart/total < 0"))
        #expect(try holds("!(/cart/total > 0) && /flags/beta == true || /nope == 1"))
    }

    @Test func pointersUseJSONPointerEscapes() throws {
        let state: JSONValue = ["a/b": ["m~n": 1]]
        #expect(try holds("/a~1b/m~0n == 1", state: state))
    }

    @Test(arguments: [
        ("/cart/total < ", "column 15: found the end of the query where a path or a value should be"),
        ("/cart/total = 1", "column 13: '=' is not an operator; compare with '=='"),
        ("/user/name == Ann", #"column 15: 'Ann' is neither a path nor a value; paths start with '/', text goes in quotes ("Ann")"#),
        ("(/a == 1", "column 9: found the end of the query where ')' should close the '(' at column 1"),
        ("/a == 1 /b == 2", "column 9: found '/b' after a complete condition; join conditions with 'and' or 'or'"),
        (#"/a == "open"#, #"column 7: the string is not closed (missing '"')"#),
        ("exists cart", "column 8: found 'cart' after 'exists'; expected a path such as /user/name"),
        ("/a & /b", "column 4: '&' is not an operator; use '&&' or 'and'"),
        ("action < x", "column 8: found '<' after 'action'; write action == name or action != name"),
        ("/a ~ 1", "column 4: found '~' after /a; expected ==, !=, <, <=, >, >= or contains"),
        ("/a == 1x", "column 7: '1x' is not a number"),
        ("/a~2 == 1", #"column 1: invalid JSON Pointer "/a~2": '~' must be followed by '0' or '1'"#),
        ("", "column 1: the query is empty; try /path == value, exists /path or action == name"),
        // A raw newline or control character in a string is shown as its escape: the reason stays one line.
        ("/a == \"x\ny\u{1}\"", #"column 7: "x\ny\u0001" is not a valid string (JSON escapes only)"#),
    ])
    func badQueriesNameTheColumn(text: String, message: String) {
        #expect(throws: QueryError.self) { try Query(parsing: text) }
        do {
            _ = try Query(parsing: text)
        } catch {
            #expect(error.description == message)
        }
    }
}

extension QueryLanguageTests {
    @Test func queriesUpToTheLimitsParseAndPastThemNameTheColumn() throws {
        #expect(QueryParser.maximumNesting == QueriesAtTheLimits.nesting && QueryParser.maximumConditions == QueriesAtTheLimits.conditions)
        let condition = "/cart/total < 0"
        #expect(try holds(QueriesAtTheLimits.parenthesized(condition, levels: 256)))
        #expect(try holds(QueriesAtTheLimits.negated(condition, times: 256)))
        #expect(try holds(QueriesAtTheLimits.orChain(endingWith: condition, count: 1_000)))
        #expect(try holds(QueriesAtTheLimits.deepest(condition)))
        #expect(try !holds(QueriesAtTheLimits.deepest("/cart/total > 0")))

        let tooDeep = QueriesAtTheLimits.tooDeep, tooMany = QueriesAtTheLimits.tooMany
        let refused: [(String, String)] = [
            (QueriesAtTheLimits.parenthesized(condition, levels: 257), "column 257: \(tooDeep)"),
            (QueriesAtTheLimits.parenthesized(condition, levels: 4_000), "column 257: \(tooDeep)"),
            (QueriesAtTheLimits.negated(condition, times: 257), "column 1025: \(tooDeep)"),
            (QueriesAtTheLimits.negated(condition, times: 5_000), "column 1025: \(tooDeep)"),
            ("!" + QueriesAtTheLimits.parenthesized(condition, levels: 256), "column 257: \(tooDeep)"),
            (QueriesAtTheLimits.orChain(endingWith: condition, count: 1_001), "column \(QueriesAtTheLimits.firstConditionTooMany): \(tooMany)"),
            (QueriesAtTheLimits.orChain(endingWith: condition, count: 3_000), "column \(QueriesAtTheLimits.firstConditionTooMany): \(tooMany)"),
            (QueriesAtTheLimits.orChain(endingWith: condition, count: 100_000), "column 65537: \(QueriesAtTheLimits.tooLong)"),
            (String(repeating: " ", count: 65_536) + "/a", "column 65537: \(QueriesAtTheLimits.tooLong)"),
        ]
        #expect(QueryParser.maximumLength == QueriesAtTheLimits.length)
        // At the length limit exactly: read.
        #expect(try holds(String(repeating: " ", count: 65_536 - condition.count) + condition))
        for (text, message) in refused {
            #expect(throws: QueryError.self) { try Query(parsing: text) }
            do {
                _ = try Query(parsing: text)
            } catch {
                #expect(error.description == message)
            }
        }
    }
}
