import Testing
import Recorder
@testable import RewindQuery

/// Equality and order in queries, defined once (docs/QUERIES.md, "What comparisons
/// mean"): every operator agrees with them, on numbers of every form, strings that
/// differ only in how an accent is written, and paths that are absent.
@Suite struct QueryComparisonTests {
    /// Whether `/a OP /b` holds where the state has `a` and `b` (nil: the member is absent).
    static func holds(_ a: JSONValue?, _ comparison: String, _ b: JSONValue?) throws -> Bool {
        var state = JSONObject()
        if let a { state["a"] = a }
        if let b { state["b"] = b }
        return try Query(parsing: "/a \(comparison) /b").matches(QueryInput(state: .object(state), actionType: "x"))
    }

    static func holds(_ query: String, in state: JSONValue) throws -> Bool {
        try Query(parsing: query).matches(QueryInput(state: state, actionType: "x"))
    }

    @Test func twoAbsentPathsAreNotEqualAsNotEqualSays() throws {
        #expect(try !Self.holds(nil, "==", nil))
        #expect(try Self.holds(nil, "!=", nil))
        #expect(try Self.holds("not /a == /b", in: [:]))
        for comparison in ["<", "<=", ">", ">="] { #expect(try !Self.holds(nil, comparison, nil), "\(comparison)") }
    }

    @Test func negativeZeroIsNotZeroAndComesRightBeforeIt() throws {
        let state: JSONValue = ["z": .double(-0.0)]
        #expect(try !Self.holds("/z == 0", in: state))
        #expect(try Self.holds("/z != 0", in: state))
        #expect(try Self.holds("/z < 0", in: state))
        #expect(try Self.holds("/z <= 0", in: state))
        #expect(try !Self.holds("/z >= 0", in: state))
        #expect(try !Self.holds("/z > 0", in: state))
        #expect(try Self.holds("/z == -0.0 and /z < 0.000001 and /z > -0.000001", in: state))
    }

    @Test func largeIntegersCompareExactlyWithDoubles() throws {
        let state: JSONValue = ["n": 9_007_199_254_740_993]
        #expect(try !Self.holds("/n == 9007199254740992.0", in: state))
        #expect(try Self.holds("/n > 9007199254740992.0", in: state))
        #expect(try !Self.holds("/n < 9007199254740992.0", in: state))
        #expect(try Self.holds("/n == 9007199254740993 and /n < 9007199254740994", in: state))
        #expect(try Self.holds("/n < 1e400 and /n > -1e400 and /n == 9007199254740993.0e0", in: state))
    }

    @Test func stringsCompareByUnicodeScalars() throws {
        // "é" as one scalar (NFC) and as "e" with a combining accent (NFD): different strings, as in the recorded bytes.
        let state: JSONValue = ["nfd": "e\u{301}", "nfc": "\u{E9}"]
        #expect(try !Self.holds("/nfd == /nfc", in: state))
        #expect(try Self.holds("/nfd != /nfc", in: state))
        #expect(try Self.holds("/nfd < /nfc", in: state), "U+0065 comes before U+00E9")
        #expect(try !Self.holds("/nfd > /nfc", in: state))
        #expect(try Self.holds(#"/nfc == "\u00e9" and /nfd == "e\u0301""#, in: state))
        #expect(try Self.holds("/nfd length == 2 and /nfc length == 1", in: state), "length counts scalars")
        #expect(try !Self.holds(#"/nfd contains "\u00e9""#, in: state))
        #expect(try Self.holds(#"/nfd contains "\u0301""#, in: state))
        #expect(try !Self.holds(#"action == "\u00e9""#, in: state), "action types too")
        #expect(try Query(parsing: #"action == "\u00e9""#).matches(QueryInput(state: state, actionType: "\u{E9}")))
        #expect(try !Query(parsing: #"action == "\u00e9""#).matches(QueryInput(state: state, actionType: "e\u{301}")))
        #expect(try !Query(parsing: #"action == "\u00e9*""#).matches(QueryInput(state: state, actionType: "e\u{301}x")))
    }

    @Test func everyStringContainsTheEmptyOne() throws {
        #expect(try Self.holds(#""abc" contains """#, in: [:]))
        #expect(try Self.holds(#""" contains """#, in: [:]))
        #expect(try Self.holds(#"/s contains "" and /s contains "bc" and not /s contains "cb""#, in: ["s": "abc"]))
    }

    /// Numbers of every form (integers at the edges, doubles, exact decimals and
    /// exponents far beyond a double's), strings that differ in accents and
    /// order, the other kinds, and an absent path.
    static func values() throws -> [JSONValue?] {
        let numbers = ["0", "-0", "-0.0", "0e7", "1", "1.0", "10e-1", "-1", "0.5", "0.1", "0.10000000000000001",
                       "9007199254740992", "9007199254740992.0", "9007199254740993", "9223372036854775807",
                       "-9223372036854775808", "18446744073709551616", "1e300", "1e400", "10e399", "-1e400", "1e-400",
                       "1e99999999999999999999", "10e99999999999999999998", "1e100000000000000000000", "-1e99999999999999999999",
                       "1e-99999999999999999999", "5e-324", "1152921504606846976", "1152921504606847000", "1.152921504606847e18"]
        var values: [JSONValue?] = try numbers.map { try JSONParser.parse($0) }
        values += [.integer(Int64.max), .integer(Int64.min), .double(.nan), .double(.infinity), .double(-.infinity),
                   .double(0x1p60), .double(-0.0)]
        values += ["", "a", "ab", "b", "é", "e\u{301}", "\u{E9}\u{301}", "NaN", "Infinity", "日本", "\u{1F600}", "Z"]
        values += [.null, .bool(false), .bool(true), [], [1], [1.0], [1, "a"], [:], ["k": 1], ["k": 1.0], ["é": 1], ["e\u{301}": 1]]
        values.append(nil)
        return values
    }

    /// The laws every value obeys, through the evaluator: `!=` is `not ==`, `<=`
    /// is `<` or `==`, `a > b` is `b < a`; equality is symmetric; two numbers or two
    /// strings are exactly one of `<`, `==`, `>`; anything else orders with nothing;
    /// and the order is transitive.
    @Test func comparisonsObeyOneEqualityAndOneOrder() throws {
        let values = try Self.values()
        /// What a value orders with: numbers, strings (a non-finite double is the string it is written as), or nothing.
        func kind(_ value: JSONValue?) -> String? {
            switch value {
            case .double(let double)?: double.isFinite ? "number" : "string"
            case .integer?, .number?: "number"
            case .string?: "string"
            default: nil
            }
        }
        var less: [[Bool]] = []
        var checked = 0
        for a in values {
            var row: [Bool] = []
            for b in values {
                let results = try ["==", "!=", "<", "<=", ">", ">="].map { try Self.holds(a, $0, b) }
                let (equal, notEqual, isLess, lessOrEqual, greater, greaterOrEqual) = (results[0], results[1], results[2], results[3], results[4], results[5])
                let what = "\(a.map { "\($0)" } ?? "absent") against \(b.map { "\($0)" } ?? "absent")"
                #expect(notEqual == !equal, "!= is not ==: \(what)")
                let negated = try Query(parsing: "not /a == /b").matches(QueryInput(state: state(a, b), actionType: "x"))
                #expect(notEqual == negated, "!= is not (==): \(what)")
                #expect(lessOrEqual == (isLess || equal) && greaterOrEqual == (greater || equal), "<= and >=: \(what)")
                #expect(isLess == (try Self.holds(b, ">", a)), "a < b is b > a: \(what)")
                #expect(equal == (try Self.holds(b, "==", a)), "== is symmetric: \(what)")
                if let ordered = kind(a), ordered == kind(b) {
                    #expect([isLess, equal, greater].filter { $0 }.count == 1, "trichotomy: \(what)")
                } else {
                    #expect(!isLess && !greater, "only two numbers or two strings order: \(what)")
                }
                row.append(isLess)
                checked += 1
            }
            less.append(row)
        }
        for a in values.indices {
            for b in values.indices where less[a][b] {
                for c in values.indices where less[b][c] { #expect(less[a][c], "transitive: \(values[a]!) < \(values[b]!) < \(values[c]!)") }
            }
        }
        #expect(checked == values.count * values.count)
    }

    private func state(_ a: JSONValue?, _ b: JSONValue?) -> JSONValue {
        var state = JSONObject()
        if let a { state["a"] = a }
        if let b { state["b"] = b }
        return .object(state)
    }

    @Test func numbersWrittenDifferentlyWithTheSameValueAreEqual() throws {
        for (left, right) in [("1", "1.0"), ("10e-1", "1"), ("1e400", "10e399"), ("1e99999999999999999999", "10e99999999999999999998"),
                              ("1e100000000000000000000", "10e99999999999999999999"), ("0e7", "0"), ("-0", "-0.0"),
                              ("1152921504606847000", "1.152921504606847e18")] {
            let state: JSONValue = ["a": try JSONParser.parse(left), "b": try JSONParser.parse(right)]
            #expect(try Self.holds("/a == /b and /a <= /b and /a >= /b and not /a < /b", in: state), "\(left) == \(right)")
            #expect(try JSONParser.parse(left) == (try JSONParser.parse(right)), "the JSON engine agrees: \(left) == \(right)")
        }
    }
}
