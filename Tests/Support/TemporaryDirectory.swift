import Foundation

/// A fresh directory under /tmp for one test (or one suite value), removed
/// with everything in it when the value is released. Tests running in
/// parallel each get their own, so they never share files.
///
///     @Suite struct ExportTests {
///         let directory = TemporaryDirectory()
///         @Test func writesTheFile() throws { let path = directory.file("out.json") … }
///     }
public final class TemporaryDirectory: Sendable {
    /// The directory's absolute path (no trailing slash).
    public let path: String

    /// Creates the directory with `mkdtemp(3)`, named `/tmp/<prefix>-XXXXXX`.
    public init(prefix: String = "rewind-tests") {
        var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
        guard let created = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            preconditionFailure("cannot create a temporary directory under /tmp: errno \(errno)")
        }
        path = String(cString: created)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// The path of `name` inside the directory (the file is not created).
    public func file(_ name: String) -> String { path + "/" + name }

    /// Writes each text to the file of its name; returns name → path.
    @discardableResult
    public func write(_ files: [String: String]) throws -> [String: String] {
        var paths: [String: String] = [:]
        for (name, text) in files {
            paths[name] = file(name)
            try Data(text.utf8).write(to: URL(fileURLWithPath: file(name)))
        }
        return paths
    }

    /// A new empty subdirectory `name`; returns its path.
    @discardableResult
    public func subdirectory(_ name: String) -> String {
        let subdirectory = file(name)
        try? FileManager.default.createDirectory(atPath: subdirectory, withIntermediateDirectories: true)
        return subdirectory
    }

    /// The `.jsonl` files directly inside the directory, as sorted paths (the logs a listener or a test wrote).
    public var logs: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.filter { $0.hasSuffix(".jsonl") }.sorted().map(file)
    }

    /// One directory for the whole test process, removed when the process
    /// exits: for files too big to write once per test, and for fixtures
    /// that return a bare path (`LogFixture`). A static is never released,
    /// hence the exit hook.
    public static var forThisProcess: TemporaryDirectory {
        _ = removedAtExit
        return processDirectory
    }

    private static let processDirectory = TemporaryDirectory(prefix: "rewind-tests-\(getpid())")
    private static let removedAtExit: Void = {
        atexit { try? FileManager.default.removeItem(atPath: TemporaryDirectory.processDirectory.path) }
    }()
}
