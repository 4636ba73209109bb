import Foundation

// Reading and writing test files as bytes and lines, without Foundation's
// traps (`FileHandle.write` traps on EINTR) or its text decoding in the way.

/// The file's lines, split on `\n` (a last empty string when it ends with a newline); `[""]` when it cannot be read.
public func readLines(_ path: String) -> [String] {
    let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    return text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
}

/// The file's bytes; empty when it cannot be read.
public func fileBytes(_ path: String) -> [UInt8] {
    Array(FileManager.default.contents(atPath: path) ?? Data())
}

/// Appends `bytes` to the file at `path` with `write(2)` (`FileHandle.write` traps on EINTR).
public func append(_ bytes: [UInt8], to path: String) {
    let descriptor = open(path, O_WRONLY | O_APPEND)
    precondition(descriptor >= 0, "cannot open \(path)")
    var written = 0
    while written < bytes.count {
        let result = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
        if result > 0 { written += result } else if result < 0 && errno == EINTR { continue } else { break }
    }
    close(descriptor)
}

/// Creates (or replaces) the file at `path` with `bytes`.
public func writeBytes(_ bytes: [UInt8], to path: String) {
    _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
}
