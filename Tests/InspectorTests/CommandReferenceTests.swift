import Foundation
import Testing
@testable import Inspector

/// docs/COMMANDS.md holds, after its marker line, exactly what `rewind --help` and
/// `rewind help CMD` print for every command of the table, so the reference
/// cannot drift from the program. After changing the table, run
/// `REWIND_RECORD_COMMANDS=1 swift test --filter CommandReference` to rewrite it.
@Suite struct CommandReferenceTests {
    static let path = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/COMMANDS.md").path
    static let marker = "<!-- Generated from CommandTable: REWIND_RECORD_COMMANDS=1 swift test --filter CommandReference rewrites what follows. -->"

    /// The generated part: the program's help, then each command's, as the user sees them.
    static func generated() -> String {
        let program = CommandLineProgram.rewind
        var sections = ["## `rewind --help`\n\n```\n\(program.help)\n```\n"]
        for command in program.commands {
            sections.append("## `rewind \(command.name)`\n\n```\n\(program.help(of: command))\n```\n")
        }
        let verify = CommandLineProgram.debug(name: "debug", replay: Inspector.link { (_: inout Int, _: Int) in }, invariants: [])
        if let command = verify.command(named: "verify") {
            sections.append("## `debug verify` (a debug executable only)\n\n```\n\(verify.help(of: command))\n```\n")
        }
        return sections.joined(separator: "\n")
    }

    @Test func theCommandReferenceIsWhatTheProgramPrints() throws {
        let text = try String(contentsOfFile: Self.path, encoding: .utf8)
        let head = try #require(text.range(of: Self.marker + "\n\n"), "docs/COMMANDS.md has no marker line")
        let expected = Self.generated()
        if ProcessInfo.processInfo.environment["REWIND_RECORD_COMMANDS"] == "1" {
            try (String(text[..<head.upperBound]) + expected).write(toFile: Self.path, atomically: true, encoding: .utf8)
            Issue.record("Rewrote docs/COMMANDS.md; run the tests again without REWIND_RECORD_COMMANDS")
            return
        }
        #expect(String(text[head.upperBound...]) == expected, "docs/COMMANDS.md differs from the table (REWIND_RECORD_COMMANDS=1 rewrites it)")
    }
}
