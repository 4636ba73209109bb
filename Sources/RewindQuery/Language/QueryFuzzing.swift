import Recorder

/// The query language as the fuzz target reaches it (`fuzz-query-parser`, in the
/// `Fuzz/` package, which sees no `package` declarations): public only to it.
@_spi(Fuzzing) public enum QueryFuzzing {
    /// Why `text` is not a query, as its column and reason; nil when it parses.
    public static func refusal(_ text: String) -> (column: Int, reason: String)? {
        do {
            _ = try Query(parsing: text)
            return nil
        } catch {
            return (error.column, error.reason)
        }
    }

    /// Whether the query `text` holds for an entry, and whether its negation
    /// (`Query(negating:)`, what `bisect` asks) does; nil when `text` does not parse.
    public static func evaluate(_ text: String, state: JSONValue?, previousState: JSONValue?,
                                actionType: String) -> (holds: Bool, negationHolds: Bool)? {
        guard let query = try? Query(parsing: text) else { return nil }
        let input = QueryInput(state: state, previousState: previousState, actionType: actionType)
        return (query.matches(input), Query(negating: query).matches(input))
    }
}
