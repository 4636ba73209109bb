import Recorder
@_spi(Fuzzing) import RewindQuery

/// Any bytes as a query (docs/QUERIES.md): the parser either reads it or refuses it
/// with a column inside the text and a one-line reason, never crashes or hangs
/// (a query costs in proportion to its length); what it reads evaluates on states
/// of every kind of value, and a query and its negation never agree.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzQueryParser(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    if let (column, reason) = QueryFuzzing.refusal(text) {
        precondition(column >= 1 && column <= text.count + 1, "column \(column) outside a query of \(text.count) characters")
        precondition(!reason.isEmpty && !reason.contains("\n"), "not one line: \(reason)")
        return 0
    }
    for (state, previous) in samples {
        guard let (holds, negationHolds) = QueryFuzzing.evaluate(text, state: state, previousState: previous, actionType: "cart/add") else {
            preconditionFailure("a query that parses once parses again")
        }
        precondition(holds != negationHolds, "a query and its negation agree: \(text)")
        // `A or not A` always holds and `A and not A` never does, whatever A reads.
        if let both = QueryFuzzing.evaluate("(\(text)) and not (\(text))", state: state, previousState: previous, actionType: "cart/add") {
            precondition(!both.holds, "A and not A: \(text)")
        }
    }
    return 0
}

/// States (and the states before them) holding a value of every kind at short paths a fuzzed query may name.
private let samples: [(JSONValue?, JSONValue?)] = {
    // `before` differs at /a and has no /c (the fuzz package sees JSONValue's public face only: built whole).
    func state(a: JSONValue, withC: Bool) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("a", a), ("b", "x"), ("d", ["k": .double(-0.0), "é": 2]), ("e", .null), ("f", true),
            ("n", 9_007_199_254_740_993), ("m", .double(9_007_199_254_740_992)), ("s", "e\u{301}"), ("t", "\u{E9}"), ("z", 0),
            ("", ["": "empty"]), ("0", [[1.5, "NaN"], .double(.infinity)]),
        ]
        if withC { members.append(("c", [1, "x", .null])) }
        return .object(JSONObject(members))
    }
    let now = state(a: 1, withC: true), before = state(a: 2, withC: false)
    return [(now, before), (now, nil), (nil, now), ([1, 2], .string("x"))]
}()
