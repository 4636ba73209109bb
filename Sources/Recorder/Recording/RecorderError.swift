/// Why recording could not start or stopped. `description` is one line:
/// `/tmp/x.jsonl: cannot write: No space left on device`.
public struct RecorderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The log (or `host:port` stream) the recorder was writing.
    public let path: String
    /// What went wrong, for people.
    public let reason: String
    /// The `errno` value when the error came from the system.
    public let code: Int32?

    init(path: String, reason: String, code: Int32? = nil) {
        self.path = path
        self.reason = reason
        self.code = code
    }

    public var description: String { "\(path): \(reason)" + (code.map { ": " + String(cString: strerror($0)) } ?? "") }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
