import Testing
@testable import Inspector

/// The one option parser, on a command made up for it.
@Suite struct CommandParserTests {
    enum Unused: CommandRunner {
        static func run(_ invocation: Invocation, streams: inout some TextStreams) -> Int32 { 0 }
    }

    static var command: CommandSpec { CommandSpec(
        name: "try", runner: Unused.self, arguments: [.required("<log>", "a log"), .optional("<more>", "anything")],
        abstract: "a command to parse",
        options: [
            .flag("-f", "--follow", help: "a flag with two spellings"),
            .value("-o", "--output", valueName: "FILE", help: "an option with two spellings"),
            .value("--tag", valueName: "T", help: "repeatable", repeatable: true),
            .choice("--format", choices: ["text", "json"], help: "one of two"),
        ]) }

    func parse(_ arguments: [String]) -> Invocation? {
        guard case .parsed(let parsed) = CommandParser.parse(arguments, for: Self.command) else { return nil }
        return Invocation(program: .rewind, command: Self.command, parsed: parsed)
    }

    func error(_ arguments: [String]) -> String? {
        guard case .usageError(let message) = CommandParser.parse(arguments, for: Self.command) else { return nil }
        return message
    }

    @Test func optionsByAnySpellingWithTheValueAttachedOrNext() throws {
        let invocation = try #require(parse(["a.jsonl", "--output=x.md", "-f", "--tag", "one", "--tag=two"]))
        #expect(invocation.positional == ["a.jsonl"])
        #expect(invocation["-o"] == "x.md" && invocation["--output"] == "x.md")
        #expect(invocation.isSet("--follow") && invocation.isSet("-f"))
        #expect(invocation.values(of: "--tag") == ["one", "two"])
        #expect(invocation["--format"] == nil && invocation.argument(1) == nil)
    }

    @Test func theLastValueOfAnOptionThatDoesNotRepeatWins() throws {
        let invocation = try #require(parse(["a.jsonl", "-o", "first", "--output", "second"]))
        #expect(invocation.values(of: "-o") == ["second"])
    }

    @Test func dashNumbersAndEverythingAfterDoubleDashArePositional() throws {
        #expect(try #require(parse(["-", "-1"])).positional == ["-", "-1"])
        #expect(try #require(parse(["--", "--follow", "-h"])).positional == ["--follow", "-h"])
        // An option's value is the next argument, whatever it looks like.
        #expect(try #require(parse(["a.jsonl", "-o", "--follow"]))["-o"] == "--follow")
    }

    @Test func mistakesAreNamed() {
        #expect(error(["a.jsonl", "--bogus"]) == "unknown option '--bogus'")
        #expect(error(["a.jsonl", "--bogus=1"]) == "unknown option '--bogus'")
        #expect(error(["a.jsonl", "-o"]) == "option '-o' needs a value")
        #expect(error(["a.jsonl", "--follow=yes"]) == "option '--follow' takes no value")
        #expect(error(["a.jsonl", "--format", "xml"]) == "unknown format 'xml' (expected one of: text, json)")
        #expect(error([]) == "missing <log>")
        #expect(error(["a", "b", "c"]) == "unexpected argument 'c'")
    }

    @Test func helpWinsOverMistakesButNotAfterDoubleDash() {
        guard case .help = CommandParser.parse(["--bogus", "-h"], for: Self.command) else {
            Issue.record("--bogus -h is not help")
            return
        }
        #expect(error(["a", "b", "--", "--help"]) == "unexpected argument '--help'")
    }
}
