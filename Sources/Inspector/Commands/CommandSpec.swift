/// One command of the command line as the table declares it (``CommandTable``):
/// what the parser accepts, and what `--help`, `help CMD`, the usage lines and
/// the errors say, all read from here so they cannot drift from each other.
struct CommandSpec {
    /// `export`: what the user types after the program name.
    var name: String
    /// Runs the command once its arguments are parsed.
    var runner: any CommandRunner.Type
    /// The positional arguments, in order.
    var arguments: [Argument] = []
    /// One line for the command list of `rewind --help`: `a bug report, patch, diff, …`.
    var abstract: String
    var options: [Option] = []
    /// Text after the options in `rewind CMD --help`: examples, exit statuses.
    var discussion = ""

    /// A positional argument: `<log>`, `'<query>'`.
    struct Argument {
        /// As usage shows it: `<log>`, `'<query>'`.
        var name: String
        var help: String
        var isOptional = false
        /// The last argument may be given any number of times (`[<directory>]...`).
        var repeats = false

        /// A required argument.
        static func required(_ name: String, _ help: String) -> Argument { Argument(name: name, help: help) }
        /// An argument that may be left out (or, with `repeats`, given any number of times).
        static func optional(_ name: String, _ help: String, repeats: Bool = false) -> Argument {
            Argument(name: name, help: help, isOptional: true, repeats: repeats)
        }
    }

    /// A flag (`--first`) or an option with a value (`--from A`).
    struct Option {
        /// Every spelling, short first: `["-o", "--output"]`. Values are stored under the first.
        var names: [String]
        /// `A`, `FILE`; nil for a flag.
        var valueName: String?
        var help: String
        /// The only values accepted (checked by the parser); empty: any value.
        var choices: [String] = []
        /// May be given more than once, every value kept (`--redact RULE`...); otherwise the last one wins.
        var isRepeatable = false
        /// Must be given (`import -o`): usage shows it without brackets, and the parser insists.
        var isRequired = false

        static func flag(_ names: String..., help: String) -> Option {
            Option(names: names, valueName: nil, help: help)
        }

        static func value(_ names: String..., valueName: String, help: String, repeatable: Bool = false, required: Bool = false) -> Option {
            Option(names: names, valueName: valueName, help: help, isRepeatable: repeatable, isRequired: required)
        }

        /// An option whose value is one of `choices`, shown as `text|json` in usage unless a `valueName` is given.
        static func choice(_ names: String..., choices: [String], valueName: String? = nil, help: String) -> Option {
            Option(names: names, valueName: valueName ?? choices.joined(separator: "|"), help: help, choices: choices)
        }

        var takesValue: Bool { valueName != nil }
        /// The name values are stored under (the first spelling).
        var key: String { names[0] }
    }

    /// The option one of whose spellings is `name`.
    func option(named name: String) -> Option? {
        options.first { $0.names.contains(name) }
    }
}

/// The code behind a command: each `…Command` enum conforms, and the table
/// names it (`runner: ExportCommand.self`).
protocol CommandRunner {
    /// Runs the command with its parsed arguments and returns the exit status.
    static func run(_ invocation: Invocation, streams: inout some TextStreams) -> Int32
}
