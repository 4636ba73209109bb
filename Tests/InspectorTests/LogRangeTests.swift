import Foundation
import Testing
@testable import Inspector

/// `rewind log --from A --to B --width N`: a part of a long log, its lines cut to a width the
/// caller gives (what `rewind mcp`'s `log` tool pages through).
@Suite struct LogRangeTests {
    func rewind(_ arguments: String...) -> (status: Int32, output: String, error: String) {
        var streams = CapturedStreams()
        let status = RewindCommandLine.run(arguments, streams: &streams)
        return (status, streams.standardOutput, streams.standardError)
    }

    static let todos = MCPServerTests.samples + "/todos.jsonl"

    @Test func fromAndToListThoseEntriesOnly() {
        let whole = rewind("log", Self.todos).output.split(separator: "\n")
        #expect(rewind("log", Self.todos, "--from", "3", "--to", "5").output.split(separator: "\n") == Array(whole[2...4]))
        #expect(rewind("log", Self.todos, "--from", "9").output.split(separator: "\n") == Array(whole[8...]))
        #expect(rewind("log", Self.todos, "--to", "2").output.split(separator: "\n") == Array(whole[...1]))
        // Past the end is the end, as head and sed count lines.
        #expect(rewind("log", Self.todos, "--from", "12", "--to", "500").output.split(separator: "\n") == [whole[11]])
    }

    @Test func aRangeKeepsTheGapsAndSessionsInsideItAndOnlyThose() throws {
        let path = try StateRowsExportTests.gappedDamagedLog()
        let whole = rewind("log", path).output.split(separator: "\n").map(String.init)
        #expect(whole.contains { $0.contains("new recording session") })
        let part = rewind("log", path, "--from", "2", "--to", "3").output.split(separator: "\n").map(String.init)
        #expect(part.count == 2)
        #expect(part.first?.hasPrefix("  2  not recorded") == true)
        #expect(part.last == whole.first { $0.hasPrefix("  3 ") })
        // A range ending in the gap shows it; one starting after it does not.
        #expect(rewind("log", path, "--to", "2").output.contains("not recorded"))
        #expect(!rewind("log", path, "--from", "3").output.contains("not recorded"))
        // A session line shows where the session's first entry is listed.
        #expect(!rewind("log", path, "--to", "3").output.contains("new recording session"))
        #expect(rewind("log", path, "--from", "4", "--to", "4").output.contains("new recording session"))
        #expect(!rewind("log", path, "--from", "5").output.contains("new recording session"))
    }

    @Test func widthCutsEachLine() {
        let lines = rewind("log", Self.todos, "--width", "40").output.split(separator: "\n")
        #expect(lines.allSatisfy { TerminalWidth.of(String($0)) <= 40 })
        #expect(lines.contains { $0.hasSuffix("…") })
        #expect(rewind("log", Self.todos, "--width", "40", "--full").status == 2)
    }

    @Test func badRangesAreOneLine() {
        for (arguments, message) in [
            (["--from", "0"], "rewind log: --from '0' is not an entry number (entries are numbered from 1)\n"),
            (["--from", "5", "--to", "4"], "rewind log: --from 5 is after --to 4\n"),
            (["--from", "13"], "rewind log: no entry 13 (todos.jsonl has entries 1–12)\n"),
            (["--width", "wide"], "rewind log: --width 'wide' is not a number of columns\n"),
        ] {
            let result = rewind(["log", Self.todos] + arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.error == message)
        }
    }

    func rewind(_ arguments: [String]) -> (status: Int32, output: String, error: String) {
        var streams = CapturedStreams()
        let status = RewindCommandLine.run(arguments, streams: &streams)
        return (status, streams.standardOutput, streams.standardError)
    }
}
