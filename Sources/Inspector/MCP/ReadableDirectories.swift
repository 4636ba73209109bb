import Foundation

/// The directories `rewind mcp` may read, and the check every path an agent names goes through:
/// a path is readable when, with every symbolic link and `..` resolved, it lies in one of them.
/// A link inside a directory that leads out of it is refused like any path outside.
struct ReadableDirectories: Sendable {
    /// As given (or the defaults), for messages and `list_recordings`.
    let shown: [String]
    /// Each resolved to its real path, for the check.
    private let resolved: [String]

    /// Paths relative to `base` (the server's working directory) are resolved against it.
    let base: String

    /// Resolves `directories` (relative to `base`); throws one line naming a directory that cannot be used.
    init(_ directories: [String], base: String) throws(UsageError) {
        self.base = base
        var shown: [String] = [], resolved: [String] = []
        for directory in directories {
            let absolute = Self.absolute(directory, base: base)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: absolute, isDirectory: &isDirectory) else { throw UsageError("\(directory): no such directory") }
            guard isDirectory.boolValue else { throw UsageError("\(directory): not a directory") }
            guard let real = Self.realPath(absolute) else { throw UsageError("\(directory): cannot be read") }
            shown.append(directory)
            resolved.append(real)
        }
        self.shown = shown
        self.resolved = resolved
    }

    /// The defaults: the working directory and, when it exists, `.build/rewind-recordings`
    /// (where `RewindTesting` leaves test recordings; `rewind ls` skips hidden folders, so it is named).
    static func defaults(base: String) -> [String] {
        var directories = ["."]
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: absolute(".build/rewind-recordings", base: base), isDirectory: &isDirectory), isDirectory.boolValue {
            directories.append(".build/rewind-recordings")
        }
        return directories
    }

    /// The real path of `path` when it exists inside one of the directories; otherwise a tool error that says why.
    func check(_ path: String, what: String = "recording") -> Result<String, ToolFailure> {
        guard !path.isEmpty else { return .failure(ToolFailure("the \(what) path is empty")) }
        let absolute = Self.absolute(path, base: base)
        guard let real = Self.realPath(absolute) else {
            return .failure(ToolFailure("\(path): no such file or directory (list_recordings shows what there is)"))
        }
        guard contains(real) else {
            return .failure(ToolFailure("\(path) is outside the directories this server reads (\(shown.joined(separator: ", ")))"
                                        + (real != absolute ? "; it leads to \(real)" : "")))
        }
        return .success(real)
    }

    /// True when `realPath` is one of the directories or lies under one.
    func contains(_ realPath: String) -> Bool {
        resolved.contains { root in
            realPath == root || realPath.hasPrefix(root.hasSuffix("/") ? root : root + "/")
        }
    }

    private static func absolute(_ path: String, base: String) -> String {
        path.hasPrefix("/") ? path : (base as NSString).appendingPathComponent(path)
    }

    /// `realpath(3)`: every link and `..` resolved; nil when the path does not exist.
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// Why a tool could not answer, in one line the agent can act on (the call's `isError` result).
struct ToolFailure: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
