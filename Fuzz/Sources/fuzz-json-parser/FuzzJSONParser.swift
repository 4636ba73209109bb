import Recorder

/// Any bytes: the parser must either return a value or throw, never crash or
/// hang. A parsed value must survive a write/parse round trip unchanged.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONParser(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: start, count: count)
    guard let value = try? JSONParser.parse(buffer: bytes) else { return 0 }
    let written = JSONWriter.compact(value)
    guard let reparsed = try? JSONParser.parse(written) else {
        fatalError("written JSON does not parse back: \(String(decoding: written, as: UTF8.self))")
    }
    precondition(reparsed == value || containsNonFinite(value), "round trip changed the value")
    // Key order counts too: objects of one shape share key lists, which must never leak between objects.
    precondition(sameKeyOrder(reparsed, value), "round trip changed the order of keys")
    // Rejecting repeated keys may only fail where a key repeats; otherwise it parses the same value.
    if let strict = try? JSONParser.parse(buffer: bytes, duplicateKeys: .reject) {
        precondition(sameKeyOrder(strict, value) && (strict == value || containsNonFinite(value)), "strict parse disagrees with the lenient one")
    }
    return 0
}

private func containsNonFinite(_ value: JSONValue) -> Bool {
    switch value {
    case .double(let number): !number.isFinite
    case .array(let elements): elements.contains(where: containsNonFinite)
    case .object(let object): object.values.contains(where: containsNonFinite)
    default: false
    }
}

private func sameKeyOrder(_ a: JSONValue, _ b: JSONValue) -> Bool {
    switch (a, b) {
    case (.array(let left), .array(let right)):
        left.count == right.count && zip(left, right).allSatisfy(sameKeyOrder)
    case (.object(let left), .object(let right)):
        left.keys == right.keys && zip(left.values, right.values).allSatisfy(sameKeyOrder)
    default:
        true
    }
}
