import Foundation
import Testing
@testable import Inspector
import SampleDomains
import RewindTestSupport

struct CapturedStreams: TextStreams {
    var standardOutput = ""
    var standardError = ""
    /// As a terminal would be, for what commands print differently there.
    var outputIsTerminal = false
    mutating func writeOutput(_ text: String) { standardOutput += text + "\n" }
    mutating func writeError(_ text: String) { standardError += text + "\n" }
}

extension RewindCommandLine {
    /// `rewind ARGUMENTS` with what it prints captured (as a terminal would get it, with `terminal`).
    static func captured(_ arguments: [String], terminal: Bool = false) -> (status: Int32, output: String, error: String) {
        var streams = CapturedStreams()
        streams.outputIsTerminal = terminal
        let status = run(arguments, streams: &streams)
        return (status, streams.standardOutput, streams.standardError)
    }
}

/// The command line as a user meets it: help, usage errors and the version,
/// all generated from ``CommandTable``.
@Suite struct CommandLineTests {
    struct Run: Equatable {
        var status: Int32
        var output: String
        var error: String
    }

    func rewind(_ arguments: String...) -> Run {
        var streams = CapturedStreams()
        let status = RewindCommandLine.run(arguments, streams: &streams)
        return Run(status: status, output: streams.standardOutput, error: streams.standardError)
    }

    func debug(_ arguments: String..., invariants: [AnyStateInvariant] = []) -> Run {
        var streams = CapturedStreams()
        let status = Inspector.run(arguments, programName: "cart-debug", replay: Inspector.link(TodoDomain.reduce),
                                   invariants: invariants, streams: &streams)
        return Run(status: status, output: streams.standardOutput, error: streams.standardError)
    }

    // MARK: Errors

    @Test func anUnknownOptionIsTheMessageTheUsageLineAndWhereTheHelpIs() {
        let result = rewind("export", "app.jsonl", "--bogus")
        #expect(result.status == 2)
        #expect(result.output == "")
        #expect(result.error == """
            rewind export: unknown option '--bogus'
            usage: rewind export <log> [--format FORMAT] [--from A] [--to B] [-o FILE] [--per-entry]
                                 [--path /json/pointer]... [--redact RULE]...
            See 'rewind export --help'.

            """)
    }

    /// Every command, called wrong, says so the same way: three parts, status 2, nothing on stdout.
    @Test func everyCommandReportsAnUnknownOptionInTheOneShape() {
        for command in CommandTable.commands {
            let result = rewind(command.name, "--bogus")
            #expect(result.status == 2, "\(command.name)")
            #expect(result.output == "", "\(command.name)")
            let lines = result.error.split(separator: "\n").map(String.init)
            #expect(lines.first == "rewind \(command.name): unknown option '--bogus'", "\(command.name)")
            #expect(lines.dropFirst().first?.hasPrefix("usage: rewind \(command.name)") == true, "\(command.name): \(lines)")
            #expect(lines.last == "See 'rewind \(command.name) --help'.", "\(command.name)")
        }
    }

    @Test func unknownCommandIsTheUsageErrorWithStatus2() {
        let result = rewind("frobnicate")
        #expect(result.status == 2)
        #expect(result.error == """
            rewind: unknown command 'frobnicate'
            usage: rewind <log> | <directory> | <command> [<arguments>]
            See 'rewind --help'.

            """)
        #expect(rewind("help", "frobnicate").error.hasPrefix("rewind: unknown command 'frobnicate'\n"))
        #expect(rewind("help", "frobnicate").status == 2)
    }

    @Test func missingArgumentsAndValuesAreNamed() {
        #expect(rewind("blame", "app.jsonl").error.hasPrefix("rewind blame: missing </json/pointer>\nusage: rewind blame <log> </json/pointer>\n"))
        #expect(rewind("show", "app.jsonl", "--at").error.hasPrefix("rewind show: option '--at' needs a value\n"))
        #expect(rewind("stats", "a.jsonl", "b.jsonl").error.hasPrefix("rewind stats: unexpected argument 'b.jsonl'\n"))
        #expect(rewind("log", "--trace=yes", "a.jsonl").error.hasPrefix("rewind log: option '--trace' takes no value\n"))
        #expect(rewind("import", "export.json").error.hasPrefix("rewind import: -o <out.jsonl> is required\nusage: rewind import <export.json> -o <out.jsonl>\n"))
        #expect(rewind("export", "app.jsonl", "--format", "pdf").error.hasPrefix(
            "rewind export: unknown format 'pdf' (expected one of: markdown, patch, unified, jsonl, redux-devtools, states)\n"))
    }

    // MARK: Help

    /// `rewind CMD --help`, `rewind CMD -h` and `rewind help CMD` print the same help, generated
    /// from the command's row: its usage, every argument, every option with its value and help.
    @Test func everyCommandsHelpShowsEveryArgumentAndOptionOfItsRow() {
        for command in CommandTable.commands {
            let help = rewind(command.name, "--help")
            #expect(help.status == 0, "\(command.name)")
            #expect(help.error == "", "\(command.name)")
            #expect(help.output.hasPrefix("usage: rewind \(command.name)"), "\(command.name)")
            #expect(rewind(command.name, "-h").output == help.output, "\(command.name) -h")
            #expect(rewind("help", command.name).output == help.output, "help \(command.name)")
            // Help wins over whatever else is on the line.
            #expect(rewind(command.name, "--bogus", "-h").output == help.output, "\(command.name) --bogus -h")
            for argument in command.arguments {
                #expect(help.output.contains("  \(argument.name)  "), "\(command.name): argument \(argument.name)")
                #expect(help.output.contains(argument.help), "\(command.name): help of \(argument.name)")
            }
            for option in command.options {
                let shown = option.names.joined(separator: ", ") + (option.valueName.map { " " + $0 } ?? "")
                #expect(help.output.contains("  \(shown)"), "\(command.name): option \(shown)")
                #expect(help.output.contains(option.help), "\(command.name): help of \(shown)")
            }
            #expect(help.output.contains("-h, --help"), "\(command.name)")
        }
    }

    @Test func dashHIsHelpNotAFileName() {
        let result = rewind("export", "-h")
        #expect(result.status == 0)
        #expect(result.output.contains("--per-entry"))
        #expect(!result.output.contains("no such file") && result.error == "")
        // After `--`, `-h` is an argument like any other: here a log that does not exist.
        let literal = rewind("log", "--", "-h")
        #expect(literal.status == 2)
        #expect(literal.error == "rewind: -h: no such file\n")
    }

    @Test func afterADoubleDashComesALogOrADirectoryWhateverItsName() throws {
        let log = try LogFixture.todoLog()
        #expect(rewind("--", log) == rewind(log))
        #expect(rewind("--", log).status == 0)
        let directory = (log as NSString).deletingLastPathComponent
        #expect(rewind("--", directory) == rewind(directory))
        // A name that starts with `-` is a file here, not an option.
        let dashed = rewind("--", "-odd-name.jsonl")
        #expect(dashed.status == 2)
        #expect(dashed.error == "rewind: -odd-name.jsonl: no such file\n")
        let alone = rewind("--")
        #expect(alone.status == 2)
        #expect(alone.error.hasPrefix("rewind: '--' wants a log or a directory after it\n"))
    }

    @Test func helpForACommandIsThatCommandsHelp() {
        let global = rewind("--help")
        let export = rewind("help", "export")
        #expect(export.status == 0)
        #expect(export.output != global.output)
        #expect(export.output.hasPrefix("usage: rewind export <log> [--format FORMAT] [--from A] [--to B]"))
        #expect(export.output.contains("  -o, --output FILE     write to FILE (replaced atomically) instead of standard output\n"))
    }

    @Test func globalHelpListsEveryCommandWithItsAbstract() {
        for arguments in [["--help"], ["-h"], ["help"]] {
            var streams = CapturedStreams()
            #expect(RewindCommandLine.run(arguments, streams: &streams) == 0)
            #expect(streams.standardOutput.hasPrefix("usage: rewind <log> "))
            for command in CommandTable.commands {
                #expect(streams.standardOutput.contains("\n  \(command.name) "), "\(command.name)")
                #expect(streams.standardOutput.contains(command.abstract), "\(command.name)")
            }
            #expect(!streams.standardOutput.contains("verify"), "verify is for a debug executable only")
        }
        // Without arguments: the same help, on stderr, status 2.
        let bare = rewind()
        #expect(bare.status == 2)
        #expect(bare.error == rewind("--help").output)
    }

    // MARK: Version

    @Test func versionPrintsTheVersionOfTheTable() {
        let result = rewind("--version")
        #expect(result.status == 0)
        #expect(result.output == "rewind \(CommandTable.version)\n")
        #expect(CommandTable.version.split(separator: ".").count == 3 && CommandTable.version.allSatisfy { $0.isNumber || $0 == "." })
        #expect(debug("--version").output == "cart-debug (Rewind \(CommandTable.version))\n")
    }

    // MARK: A debug executable

    @Test func aDebugExecutableNamesItselfInHelpUsageAndErrors() {
        let help = debug("--help")
        #expect(help.status == 0)
        #expect(help.output.hasPrefix("usage: cart-debug <log> "))
        #expect(!help.output.contains("rewind <"), "\(help.output)")
        #expect(help.output.contains("\n  verify "))
        #expect(help.output.contains("'cart-debug help <command>'"))

        let error = debug("export", "--bogus")
        #expect(error.status == 2)
        #expect(error.error.hasPrefix("cart-debug export: unknown option '--bogus'\nusage: cart-debug export <log> "))
        #expect(error.error.hasSuffix("See 'cart-debug export --help'.\n"))

        // Its commands' own messages too.
        #expect(debug("log", "/no/such.jsonl").error == "cart-debug: /no/such.jsonl: no such file\n")
        #expect(debug("show", "/no/such.jsonl", "--path", "x").error.hasPrefix("cart-debug show: invalid JSON Pointer"))

        let verify = debug("verify", "--help")
        #expect(verify.status == 0)
        #expect(verify.output.hasPrefix("usage: cart-debug verify <log>\n"))
        #expect(debug("help", "verify").output == verify.output)
    }

    @Test func everyCommandOfADebugExecutableHasItsHelpUnderItsName() {
        let invariant = AnyStateInvariant(name: "holds") { _ in .success(true) }
        for command in CommandTable.debugCommands(invariants: true) {
            let help = debug(command.name, "--help", invariants: [invariant])
            #expect(help.status == 0, "\(command.name)")
            #expect(help.output.hasPrefix("usage: cart-debug \(command.name)"), "\(command.name)")
            #expect(!help.output.contains("usage: rewind"), "\(command.name)")
            for option in command.options { #expect(help.output.contains(option.help), "\(command.name) \(option.key)") }
        }
    }

    @Test func replayOnlyCommandsAreOnlyInADebugExecutable() {
        let result = rewind("verify", "app.jsonl")
        #expect(result.status == 2)
        #expect(result.error.hasPrefix("rewind: unknown command 'verify'\n"))
        #expect(rewind("help", "verify").status == 2)
        // bisect's query is optional only where there are Swift invariants to check.
        let invariant = AnyStateInvariant(name: "holds") { _ in .success(true) }
        #expect(debug("bisect", "--help").output.hasPrefix("usage: cart-debug bisect <log> '<invariant>'\n"))
        #expect(debug("bisect", "--help", invariants: [invariant]).output.hasPrefix("usage: cart-debug bisect <log> ['<invariant>']\n"))
    }

    @Test func theProgramNameIsTheExecutablesFileName() {
        // The test runner's own name, as `swift run debug` would give `debug`.
        let expected = (CommandLine.arguments[0] as NSString).lastPathComponent
        #expect(Inspector.programName == expected)
    }

    @Test func aDebugExecutableNamesItselfWhenItReportsDamage() throws {
        let log = try LogFixture.todoLog(keyframeInterval: 3, damageLine: 3)
        let result = debug("log", log)
        #expect(result.status == 0)
        #expect(result.error.hasPrefix("cart-debug: "), "\(result.error)")
        #expect(result.error.contains("is damaged"))
        #expect(!result.error.contains("rewind"))
    }

    @Test func aDebugExecutableNamesItselfWhenFindMeetsAnEmptyDirectory() {
        let directory = TemporaryDirectory()
        let result = debug("find", directory.path, "exists /todos")
        #expect(result.status == 2)
        #expect(result.error == "cart-debug find: \(directory.path): no Rewind recordings in this directory\n")
    }
}
