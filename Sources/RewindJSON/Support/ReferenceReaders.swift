internal import CJSONScan

/// The reading jobs that have a fast path beside their reference (docs/ARCHITECTURE.md,
/// "Reading: one reference, one fast path"), and which of them run the reference
/// instead: those named in `REWIND_REFERENCE_READERS` when the process started
/// (`all`, or a comma-separated list of `entry`, `patch`, `pointer`, `plain-run`,
/// `tape`, `crc32`). Slower; for telling a fast path's bug from the data's, and for
/// measuring what each fast path gains (`rewind-bench readers`).
///
/// ```sh
/// REWIND_REFERENCE_READERS=all rewind find app.jsonl '/cart/total < 0'   # the same answer, the slow way
/// ```
package struct ReferenceReaders: OptionSet, Sendable {
    package let rawValue: UInt32
    package init(rawValue: UInt32) { self.rawValue = rawValue }

    /// An entry line: `ParsedEntry` instead of the members matched as `RecordEncoder` writes them.
    package static let entry = ReferenceReaders(rawValue: UInt32(REWIND_REFERENCE_ENTRY))
    /// A patch: the parser and `JSONPatch(jsonValue:)` instead of the bytes as a recorder writes them.
    package static let patch = ReferenceReaders(rawValue: UInt32(REWIND_REFERENCE_PATCH))
    /// A JSON Pointer: split character by character instead of as ASCII bytes.
    package static let pointer = ReferenceReaders(rawValue: UInt32(REWIND_REFERENCE_POINTER))
    /// Where a string's plain run ends: byte by byte instead of 64 bytes a branch.
    package static let plainRun = ReferenceReaders(rawValue: UInt32(REWIND_REFERENCE_PLAIN_RUN))
    /// A keyframe a search looks values up in: parsed whole instead of checked and taped.
    package static let tape = ReferenceReaders(rawValue: UInt32(REWIND_REFERENCE_TAPE))
    /// CRC-32: the tables instead of carry-less multiplication.
    package static let crc32 = ReferenceReaders(rawValue: UInt32(REWIND_REFERENCE_CRC32))

    /// What this process runs the reference for (read by C when the library loaded).
    package static var current: ReferenceReaders { ReferenceReaders(rawValue: UInt32(rewind_reference_readers())) }
}
