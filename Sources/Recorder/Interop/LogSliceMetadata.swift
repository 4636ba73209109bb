/// Header metadata a log slice (`rewind export --format jsonl`, a `testgen` fixture) carries
/// about the recording it was cut from.
package enum LogSliceMetadata {
    /// Where the slice came from, for people: `todos.jsonl, entries 3–9 of 12`.
    package static let sourceKey = "rewind.slice"
    /// The number `rewind log` gives the slice's first entry in that recording, so that
    /// `FixtureReplay` names failed steps by the numbers the recording has.
    package static let firstEntryKey = "rewind.slice.firstEntry"
}
