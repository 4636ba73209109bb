import Foundation
import Recorder

// Hand-made records for tests that damage or extend a real log: they use the
// recorder's own framing (`LogLine`, package API), so a record added by hand
// is a genuine one, not a foreign line.

/// `line` (one record, with or without its newline) without its framing:
/// the object up to, not including, `,"n":N` (format 2) or `,"crc":…`, ready to be sealed again.
public func unsealed(_ line: [UInt8]) -> [UInt8] {
    var text = String(decoding: line, as: UTF8.self)
    if text.hasSuffix("\n") { text.removeLast() }
    text.removeLast(18)  // ,"crc":"xxxxxxxx"}
    if let range = text.range(of: #","n":[0-9]+$"#, options: .regularExpression) { text.removeSubrange(range) }
    return Array(text.utf8)
}

/// Seals `record` (an object missing its closing brace) as record `number` of the
/// last session in the log at `path`, as the recorder would have.
public func sealAsRecord(_ record: [UInt8], number: Int64, ofLastSessionIn path: String) -> [UInt8] {
    let headers = String(decoding: fileBytes(path), as: UTF8.self).split(separator: "\n").filter { $0.hasPrefix(#"{"kind":"header""#) }
    var chain = LogChain()
    chain.key = UInt32(headers.last!.suffix(10).prefix(8), radix: 16)!
    chain.nextNumber = number
    var bytes = record
    LogLine.seal(&bytes, recordStart: 0, chain: &chain)
    return bytes
}
