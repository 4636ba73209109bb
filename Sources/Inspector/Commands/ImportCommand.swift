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

    /// The most `import` reads: far more than the extension exports (it keeps
    /// 50 actions by default), little enough that a file that never ends
    /// (`/dev/zero`, a pipe fed forever) is stopped long before memory runs out.
    static let maximumInputBytes = 256 << 20

    /// The whole file at `path` (a pipe too, such as `/dev/stdin`), or why it cannot be read, in one line.
    static func readInput(_ path: String, maximumBytes: Int = maximumInputBytes) -> Result<[UInt8], UsageError> {
        func refuse(_ why: String) -> Result<[UInt8], UsageError> { .failure(UsageError("cannot read \(path): \(why)")) }
        let limit = maximumBytes >= 1 << 20 ? "\(maximumBytes >> 20) MB" : "\(maximumBytes) bytes"
        let tooLarge = "it is larger than \(limit), more than a Redux DevTools export holds"
        // O_NONBLOCK: opening a FIFO must not wait for a writer (with none, it reads as empty).
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            let code = errno
            return refuse(code == ENOENT ? "no such file" : String(cString: strerror(code)))
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return refuse(String(cString: strerror(errno))) }
        switch status.st_mode & S_IFMT {
        case S_IFREG:
            guard status.st_size <= maximumBytes else { return refuse(tooLarge) }
        case S_IFIFO: break
        case S_IFDIR: return refuse("it is a directory")
        default: return refuse("it is \(FileKind.name(of: status.st_mode)), not an exported file")
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
            if count > 0 {
                // A file that grows while read, or a pipe fed forever, stops here.
                guard bytes.count + count <= maximumBytes else { return refuse(tooLarge) }
                bytes += chunk[..<count]
            } else if count < 0 && errno == EINTR {
                continue
            } else if count < 0 {
                return refuse(String(cString: strerror(errno)))
            } else {
                return .success(bytes)
            }
        }
    }
}
