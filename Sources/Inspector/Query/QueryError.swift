/// Why a query did not parse, with the 1-based column of the problem, as one
/// line: `column 14: expected a value after '<', found the end of the query`.
struct QueryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 1-based column (in characters) of the token that is wrong.
    var column: Int
    var reason: String

    var description: String { "column \(column): \(reason)" }
}
