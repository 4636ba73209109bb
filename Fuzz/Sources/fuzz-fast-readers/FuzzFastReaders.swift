@_spi(Fuzzing) import RewindQuery

/// Any bytes, read by every reading job's fast path and its reference
/// (docs/ARCHITECTURE.md, "Reading: one reference, one fast path"): as an entry
/// line (the template and the patch reader against `ParsedEntry`), a patch,
/// a document (the checked skim and the tape against the parser), a string's
/// inside (the plain run, UTF-8), a pointer and a checksummed buffer (CRC-32's
/// folding against its tables). Where a fast path answers, it answers as the
/// reference does; it never crashes or hangs.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFastReaders(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let disagreements = FastPathAgreement.disagreements(UnsafeBufferPointer(start: start, count: count))
    precondition(disagreements.isEmpty, "a fast path disagrees with its reference: \(disagreements.joined(separator: "; "))")
    return 0
}
