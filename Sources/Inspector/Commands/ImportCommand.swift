import Foundation
import Recorder

/// `rewind import <export.json> -o out.jsonl`: a Redux DevTools export as a Rewind log.
enum ImportCommand: CommandRunner {
    static func run(_ invocation: Invocation, streams: inout some TextStreams) -> Int32 {
        func fail(_ message: String) -> Int32 { invocation.fail(message, streams: &streams) }
        guard let output = invocation["-o"] else { return invocation.usageError("-o is required", streams: &streams) }  // the table requires it, so the parser has checked
        let path = invocation.positional[0]
        let data: [UInt8]
        switch readInput(path) {
        case .success(let bytes): data = bytes
        case .failure(let error): return fail(error.description)
        }
        guard !data.isEmpty else { return fail("\(path): empty file, not a Redux DevTools export") }
        let log: [UInt8]
        do {
            log = try ReduxDevToolsImport.log(from: data, created: Date())
        } catch {
            return fail("\(path): \(error.description)")
        }
        return CommandSupport.write(log, to: output, inputs: [path], invocation: invocation, streams: &streams)
    }

    /// The whole file at `path` (a pipe or device too), or why it cannot be read, in one line.
    static func readInput(_ path: String) -> Result<[UInt8], UsageError> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            return .failure(UsageError("cannot read \(path): " + (code == ENOENT ? "no such file" : String(cString: strerror(code)))))
        }
        defer { close(descriptor) }
        var status = stat()
        if fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
            return .failure(UsageError("cannot read \(path): it is a directory"))
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
            if count > 0 {
                bytes += chunk[..<count]
            } else if count < 0 && errno == EINTR {
                continue
            } else if count < 0 {
                return .failure(UsageError("cannot read \(path): \(String(cString: strerror(errno)))"))
            } else {
                return .success(bytes)
            }
        }
    }
}
