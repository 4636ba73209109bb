import Recorder

/// Input: a JSON array `[document, patch]`. Applying must either succeed or
/// throw a JSONPatchError, and a failed patch must leave the document as it was.
/// Whenever two documents parse, diffing them and applying the diff must give
/// back the second one.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPatchApply(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: start, count: count)
    guard case .array(let pair)? = try? JSONParser.parse(bytes), pair.count == 2 else { return 0 }
    let document = pair[0]
    if let patch = try? JSONPatch(jsonValue: pair[1]) {
        _ = try? patch.applied(to: document)
    }
    let diff = JSONDiff.patch(from: document, to: pair[1])
    guard let rebuilt = try? diff.applied(to: document) else {
        fatalError("a computed diff failed to apply: \(diff.jsonValue)")
    }
    precondition(rebuilt == pair[1] || "\(rebuilt)" == "\(pair[1])", "diff then apply did not give the target document")
    return 0
}
