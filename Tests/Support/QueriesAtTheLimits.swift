/// Queries at and past the parser's limits (docs/QUERIES.md, "Limits"): 65,536
/// characters, 256 levels of `(` and `not`, 1,000 conditions. Past them a query
/// is a bad query, where it used to overflow the stack while parsing, compiling or
/// evaluating, or take minutes and gigabytes to read.
package enum QueriesAtTheLimits {
    /// The parser's limits, as docs/QUERIES.md states them (`QueryLanguageTests` holds the parser to these).
    package static let length = 65_536
    package static let nesting = 256
    package static let conditions = 1_000

    /// `condition` inside `levels` parentheses; the first `(` too many is at column `levels`.
    package static func parenthesized(_ condition: String, levels: Int) -> String {
        String(repeating: "(", count: levels) + condition + String(repeating: ")", count: levels)
    }

    /// `not not … condition`; the `not` too many, the 257th, is at column 1025.
    package static func negated(_ condition: String, times: Int) -> String {
        String(repeating: "not ", count: times) + condition
    }

    /// `action == none or … or last`, `count` conditions in all (each 14 characters and ` or `).
    package static func orChain(endingWith last: String, count: Int) -> String {
        (Array(repeating: "action == none", count: count - 1) + [last]).joined(separator: " or ")
    }

    /// Both limits at once, the deepest tree a query may make: `condition` last of
    /// 1,000 `or`ed conditions, inside 128 `not (`. Means the same as `condition`.
    package static func deepest(_ condition: String) -> String {
        let levels = nesting / 2
        return String(repeating: "not (", count: levels) + orChain(endingWith: condition, count: conditions) + String(repeating: ")", count: levels)
    }

    package static let tooLong = "the query is longer than 65536 characters; split it into several queries"
    package static let tooDeep = "more than 256 levels of '(' and 'not' inside one another; nest less deeply"
    package static let tooMany = "more than 1000 conditions in one query; split it into several queries"
    /// Where the 1,001st condition of an ``orChain(endingWith:count:)`` starts.
    package static let firstConditionTooMany = 1_000 * ("action == none".count + " or ".count) + 1
}
