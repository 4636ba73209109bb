@_spi(Testing) import Recorder

/// Any bytes: the parser must either return a value or throw, never crash or
/// hang. A parsed value must survive a write/parse round trip unchanged,
/// numbers (kept exactly) and strings (compared by Unicode scalars) included.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONParser(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: start, count: count)
    checkSplitParseAgrees(bytes)
    guard let value = try? JSONParser.parse(bytes) else { return 0 }
    let written = JSONWriter.compact(value)
    guard let reparsed = try? JSONParser.parse(written) else {
        fatalError("written JSON does not parse back: \(String(decoding: written, as: UTF8.self))")
    }
    precondition(reparsed == value, "round trip changed the value")
    // Key order counts too: objects of one shape share key lists, which must never leak between objects.
    precondition(sameKeyOrder(reparsed, value), "round trip changed the order of keys")
    // Rejecting repeated keys may only fail where a key repeats; otherwise it parses the same value.
    if let strict = try? JSONParser.parse(bytes, duplicateKeys: .reject) {
        precondition(sameKeyOrder(strict, value) && strict == value, "strict parse disagrees with the lenient one")
    }
    return 0
}

/// Large arrays are parsed in speculative concurrent runs; splitting every
/// array must give exactly the sequential outcome, value or error.
private func checkSplitParseAgrees(_ bytes: UnsafeBufferPointer<UInt8>) {
    func outcome(_ splitting: ArraySplitting?) -> Result<JSONValue, JSONParseError> {
        Result { () throws(JSONParseError) -> JSONValue in try JSONParser.parse(buffer: bytes, duplicateKeys: .lastValueWins, splitting: splitting) }
    }
    switch (outcome(nil), outcome(ArraySplitting(minimumBytes: 1, runs: 3))) {
    case (.success(let sequential), .success(let split)):
        precondition(sameKeyOrder(split, sequential) && split == sequential, "a split parse disagrees with the sequential one")
    case (.failure(let sequential), .failure(let split)):
        precondition(split == sequential, "a split parse fails differently: \(split) instead of \(sequential)")
    default:
        preconditionFailure("a split parse and the sequential one disagree on whether the input is valid")
    }
}

private func sameKeyOrder(_ a: JSONValue, _ b: JSONValue) -> Bool {
    switch (a, b) {
    case (.array(let left), .array(let right)):
        left.count == right.count && zip(left, right).allSatisfy(sameKeyOrder)
    case (.object(let left), .object(let right)):
        left.keys.count == right.keys.count && zip(left.keys, right.keys).allSatisfy { $0.utf8.elementsEqual($1.utf8) }
            && zip(left.values, right.values).allSatisfy(sameKeyOrder)
    default:
        true
    }
}
