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
