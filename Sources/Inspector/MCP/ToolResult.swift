import Foundation
import Recorder

/// What a tool call answers: text for the model, the same facts as JSON for a program
/// (`structuredContent`), and whether the call failed (`isError`: the tool ran and could not
/// answer, e.g. a damaged log or a path outside the directories, as opposed to a JSON-RPC
/// error for a call that was wrong in itself, such as an unknown tool).
struct ToolResult {
    var text: String
    var structured: JSONObject
    var isError = false

    /// A failed call: one line saying why, also as `structuredContent.error`.
    static func failure(_ message: String) -> ToolResult {
        ToolResult(text: message, structured: JSONObject([("error", .string(message))]), isError: true)
    }

    /// Structured facts whose text is their own JSON (what the protocol suggests for structured results).
    static func json(_ structured: JSONObject) -> ToolResult {
        ToolResult(text: JSONWriter.compactString(.object(structured)), structured: structured)
    }

    /// The `result` of `tools/call`.
    var jsonObject: JSONObject {
        JSONObject([
            ("content", .array([.object(JSONObject([("type", .string("text")), ("text", .string(text))]))])),
            ("structuredContent", .object(structured)),
            ("isError", .bool(isError)),
        ])
    }
}

/// The part of a command's output one result holds: at most `max_bytes`, cut after a whole
/// line where one ends in the second half of the window (else before a UTF-8 sequence), and
/// where the next call starts (`offset`), so an agent reads a gigabyte's worth in pieces.
/// Calls are independent: the next page runs the command again and skips what was shown.
struct OutputPage {
    var text: String
    var offset: Int
    /// Where the rest starts; nil when this page reaches the end of the output.
    var nextOffset: Int?

    /// `window` is the output from `offset` on: at most `limit` bytes, or `limit + 1` when more follows.
    init(_ window: [UInt8], offset: Int, limit: Int) {
        self.offset = offset
        guard window.count > limit else {
            text = String(decoding: window, as: UTF8.self)
            nextOffset = nil
            return
        }
        var cut = limit
        if let newline = window[limit / 2..<limit].lastIndex(of: UInt8(ascii: "\n")) {
            cut = newline + 1
        } else {
            // Never inside a UTF-8 sequence: back up over continuation bytes.
            while cut > 0, window[cut] & 0xC0 == 0x80 { cut -= 1 }
        }
        text = String(decoding: window[..<cut], as: UTF8.self)
        nextOffset = offset + cut
    }

    /// The page's fields of `structuredContent`.
    var fields: [(String, JSONValue)] {
        [("offset", .integer(Int64(offset))), ("nextOffset", nextOffset.map { .integer(Int64($0)) } ?? .null)]
    }

    /// The page as the text content shows it: the output, then, when it was cut, how to get the rest.
    var shownText: String {
        var shown = text.hasSuffix("\n") ? String(text.dropLast()) : text
        if let nextOffset {
            shown += "\n[cut at \(text.utf8.count) bytes; call again with offset: \(nextOffset) for the rest]"
        }
        return shown
    }

    /// The lines of the page, without the newlines.
    var lines: [Substring] { text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.isEmpty } }
}

/// One call's surroundings: the directories it may read, the program that runs its commands,
/// and the cancellation the client may send while it runs.
final class ToolContext: @unchecked Sendable {
    let directories: ReadableDirectories
    let executable: String
    private let lock = NSLock()
    private var child: ChildCommand?
    private var cancelled = false

    init(directories: ReadableDirectories, executable: String) {
        self.directories = directories
        self.executable = executable
    }

    var isCancelled: Bool { lock.withLock { cancelled } }

    /// Runs `rewind <arguments>` (the same executable), keeping `keeping` bytes of its output after the first `skipping`.
    func run(_ arguments: [String], skipping: Int = 0, keeping: Int) -> ChildCommand.Outcome {
        let command = ChildCommand(executable: executable, arguments: arguments)
        let goOn = lock.withLock { () -> Bool in
            guard !cancelled else { return false }
            child = command
            return true
        }
        if !goOn { command.cancel() }
        defer { lock.withLock { child = nil } }
        return command.run(skipping: skipping, keeping: keeping)
    }

    /// The client cancelled the call: the command running for it is ended, and none starts after.
    func cancel() {
        let running = lock.withLock { () -> ChildCommand? in
            cancelled = true
            return child
        }
        running?.cancel()
    }
}
