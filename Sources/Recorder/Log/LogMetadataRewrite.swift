import Foundation

/// Rewrites a closed log with one more member in its header's `metadata`: what
/// RewindTesting does when a test fails (`outcome: failed`), so `rewind ls`
/// lists failed recordings first. The header is written anew and every later
/// record of its session is sealed again in the new header's chain (the old
/// header's checksum was their key); later sessions (the log was opened again)
/// are kept as they are, and a torn last line of the first is left out. The file is
/// replaced atomically, so a crash leaves the old log or the new one.
package enum LogMetadataRewrite {
    package static func set(_ key: String, to value: String, inLogAt path: String) throws(RecorderError) {
        guard let contents = FileManager.default.contents(atPath: path) else {
            throw RecorderError(.cannotOpen, path: path, reason: "cannot read the log to mark it")
        }
        let lines = Array(contents).split(separator: 0x0A, omittingEmptySubsequences: false)
        guard let first = lines.first, Array(first).withUnsafeBytes({ LogLine.verify($0) }),
            case .object(var header)? = try? JSONParser.parse(Array(first)) else {
            throw RecorderError(.notARewindLog, path: path, reason: "is not a Rewind log; not marking it")
        }
        header.removeValue(forKey: "n")
        header.removeValue(forKey: "crc")
        var metadata = header["metadata"]?.objectValue ?? JSONObject()
        metadata[key] = .string(value)
        header["metadata"] = .object(metadata)

        var output = JSONWriter.compact(.object(header))
        output.removeLast()  // the closing brace: sealing closes the record
        var chain = LogChain()
        LogLine.seal(&output, recordStart: 0, chain: &chain)
        for (offset, line) in lines.enumerated().dropFirst() where !line.isEmpty {
            let record = Array(line)
            if record.starts(with: LogLine.headerPrefix) {
                // Later sessions are chained to their own headers: kept as they are.
                output += Array(lines[offset...].joined(separator: [0x0A]))
                break
            }
            guard record.withUnsafeBytes({ LogLine.unseal($0) != nil }) else { break }   // a torn tail
            record.withUnsafeBytes { LogLine.reseal($0, into: &output, chain: &chain) }
        }
        let temporary = path + ".rewind-rewrite"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(output), attributes: [.posixPermissions: 0o600]),
            rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw RecorderError(.cannotWrite, path: path, reason: "cannot rewrite the log to mark it", code: code)
        }
    }
}
