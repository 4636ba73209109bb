@_spi(Testing) import Inspector

/// Any bytes as what a peer sends `rewind listen` after its hello, cut into reads of a size
/// the first byte chooses: the frame parser returns checked records or one problem, never
/// crashes or hangs, looks at each byte once for a record's end, returns only whole
/// records within the limit, and nothing once it has refused the stream.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLiveStream(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let bytes = UnsafeBufferPointer(start: start, count: count)
    let readSize = Int(bytes[0]) % 64 + 1
    let maximumRecordBytes = 4096
    var framer = LiveRecordFramer(maximumRecordBytes: maximumRecordBytes)
    var appended = 0
    var position = 1
    var failed = false
    while position < count {
        let end = min(count, position + readSize)
        framer.append(bytes[position..<end])
        appended += end - position
        position = end
        switch framer.takeRecords() {
        case .failure:
            failed = true
        case .success(let records):
            precondition(!failed, "records after the stream was refused")
            check(records, maximumRecordBytes: maximumRecordBytes)
        }
        if failed { break }
    }
    precondition(framer.bytesExamined <= appended, "a byte looked at twice: \(framer.bytesExamined) of \(appended)")
    if failed, case .success = framer.takeRecords() { preconditionFailure("a refused stream went on") }
    return 0
}

private func check(_ records: LiveRecordFramer.Records, maximumRecordBytes: Int) {
    var start = 0
    for (index, byte) in records.bytes.enumerated() where byte == 0x0A {
        let line = Array(records.bytes[start..<index])
        precondition(line.count <= maximumRecordBytes, "a record over the limit")
        precondition(line.starts(with: Array(#"{"kind":""#.utf8)), "a record that is not one")
        precondition(line.suffix(2) == [UInt8(ascii: "\""), UInt8(ascii: "}")], "a record without its checksum member")
        start = index + 1
    }
    precondition(start == records.bytes.count, "a record without its newline")
}
