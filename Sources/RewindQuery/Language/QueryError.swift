/// Why a query did not parse, with the 1-based column of the problem, as one
/// line: `column 14: expected a value after '<', found the end of the query`.
package struct QueryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 1-based column (in characters) of the token that is wrong.
    package var column: Int
    /// What is wrong there, and what to write instead.
    package var reason: String

    package var description: String { "column \(column): \(reason)" }
}
