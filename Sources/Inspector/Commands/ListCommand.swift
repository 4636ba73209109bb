import Foundation
import Recorder

/// `rewind ls DIR [--format text|json] [--verify]` (and `rewind DIR`): the
/// recordings under a directory, failed tests first, then newest first. In a
/// terminal, `rewind DIR` opens the list view instead (Enter opens one, `q` comes back).
enum ListCommand: CommandRunner {
    /// `rewind DIR` (chosen by the path) is interactive in a terminal; `rewind ls DIR` prints.
    static func run(_ invocation: Invocation, streams: inout some TextStreams) -> Int32 {
        func fail(_ message: String) -> Int32 { invocation.fail(message, streams: &streams) }
        let verify = invocation.isSet("--verify")
        let interactive = invocation.chosenByPath
        let format = invocation["--format"] ?? "text"
        let directory = invocation.positional[0]
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else { return fail("\(directory): no such directory") }
        guard isDirectory.boolValue else { return fail("\(directory): not a directory (to open one log: \(invocation.program.name) \(directory))") }
        guard access(directory, R_OK | X_OK) == 0 else { return fail("\(directory): cannot read: \(String(cString: strerror(errno)))") }

        let recordings = RecordingCatalog.list(directory, verify: verify)
        if interactive && format == "text" && streams.isTerminal {
            guard var terminal = CursesTerminal() else {
                let name = ProcessInfo.processInfo.environment["TERM"] ?? "(unset)"
                return fail("cannot drive this terminal (TERM=\(name)); '\(invocation.program.name) ls \(directory)' prints the list")
            }
            return RecordingListSession.run(RecordingListModel(directory: directory, recordings: recordings, size: terminal.size), terminal: &terminal)
        }
        streams.output(format == "json" ? json(recordings, directory: directory) : text(recordings, directory: directory))
        return 0
    }

    /// One line per recording under a one-line summary.
    static func text(_ recordings: [RecordingSummary], directory: String) -> String {
        let total = recordings.reduce(Int64(0)) { $0 + $1.bytes }
        var lines = ["\(recordings.count) recording\(recordings.count == 1 ? "" : "s") under \(directory) (\(ValueFormatting.shortBytes(total)))"]
        lines += recordings.map(RecordingListFormat.row)
        return lines.joined(separator: "\n")
    }

    /// `{"directory":…,"recordings":[{…},…]}`, one recording per line.
    static func json(_ recordings: [RecordingSummary], directory: String) -> String {
        let rows = recordings.map { recording -> String in
            var object = JSONObject()
            object["path"] = .string(recording.path)
            object["relativePath"] = .string(recording.relativePath)
            object["name"] = .string(recording.displayName)
            object["test"] = recording.testName.map(JSONValue.string) ?? .null
            object["process"] = recording.processName.map(JSONValue.string) ?? .null
            object["created"] = recording.created.map { .double($0.timeIntervalSince1970) } ?? .null
            object["entries"] = recording.entries.map { .integer(Int64($0)) } ?? .null
            object["bytes"] = .integer(recording.bytes)
            object["failed"] = .bool(recording.failed)
            object["isLog"] = .bool(recording.isLog)
            object["damage"] = recording.damage.map(JSONValue.string) ?? .null
            return "  " + JSONWriter.compactString(.object(object))
        }
        let head = #"{"directory":"# + JSONWriter.compactString(.string(directory)) + #","recordings":["#
        return rows.isEmpty ? head + "]}" : head + "\n" + rows.joined(separator: ",\n") + "\n]}"
    }
}
