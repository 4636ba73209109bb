extension LogLine {
    /// Appends a gap record (docs/FORMAT.md, "Gap") without its seal: `count`
    /// entries from `firstSequence` are missing, and `reason` says why. The one
    /// definition of the record, for the recorder's writer (which seals it in its
    /// session's chain) and a live stream's backlog (see ``appendGap(firstSequence:count:reason:to:)``).
    static func appendGapMembers(firstSequence: Int64, count: Int64, reason: String, to buffer: inout [UInt8]) {
        buffer.append(contentsOf: gapPrefix)
        buffer.append(contentsOf: #","firstSeq":"#.utf8)
        JSONWriter.appendInteger(firstSequence, to: &buffer)
        buffer.append(contentsOf: #","dropped":"#.utf8)
        JSONWriter.appendInteger(count, to: &buffer)
        buffer.append(contentsOf: #","reason":"#.utf8)
        JSONWriter.appendString(reason, to: &buffer)
    }

    /// Appends a sealed, unchained gap record: what a live stream adds for entries it dropped
    /// (the listener seals what it stores in its own chain).
    static func appendGap(firstSequence: Int64, count: Int64, reason: String, to buffer: inout [UInt8]) {
        let start = buffer.count
        appendGapMembers(firstSequence: firstSequence, count: count, reason: reason, to: &buffer)
        seal(&buffer, recordStart: start)
    }
}
