extension LogLine {
    /// Appends a sealed gap record (docs/FORMAT.md, "Gap"): `count` entries from `firstSequence` are missing.
    static func appendGap(firstSequence: Int64, count: Int64, reason: String, to buffer: inout [UInt8]) {
        let start = buffer.count
        buffer.append(contentsOf: gapPrefix)
        buffer.append(contentsOf: #","firstSeq":"#.utf8)
        JSONWriter.appendInteger(firstSequence, to: &buffer)
        buffer.append(contentsOf: #","dropped":"#.utf8)
        JSONWriter.appendInteger(count, to: &buffer)
        buffer.append(contentsOf: #","reason":"#.utf8)
        JSONWriter.appendString(reason, to: &buffer)
        seal(&buffer, recordStart: start)
    }
}
