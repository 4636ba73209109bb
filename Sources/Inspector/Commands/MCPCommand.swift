import Foundation

/// `rewind mcp [DIR …]`: serves the recordings under the directories (default: the current
/// one and `.build/rewind-recordings`) to a coding agent over the Model Context Protocol,
/// on standard input and output (``MCPServer``). Reads only; writes nothing.
enum MCPCommand: CommandRunner {
    static func run(_ invocation: Invocation, streams: inout some TextStreams) -> Int32 {
        let base = FileManager.default.currentDirectoryPath
        let given = invocation.positional
        let directories: ReadableDirectories
        do {
            directories = try ReadableDirectories(given.isEmpty ? ReadableDirectories.defaults(base: base) : given, base: base)
        } catch {
            return invocation.fail(error.description, streams: &streams)
        }
        // Standard output carries protocol messages only; the one line on stderr is for a person looking on.
        streams.error("\(invocation.displayName): serving the recordings under \(directories.shown.joined(separator: ", ")) over stdio (Model Context Protocol)")
        return MCPServer(directories: directories).serve()
    }
}
