/// One run of a command: its parsed arguments, the program running it (for
/// its name in messages, and the reducer a debug executable links), and the
/// two ways a command reports a mistake.
struct Invocation {
    var program: CommandLineProgram
    var command: CommandSpec
    /// The positional arguments, in order; their count is what the spec allows.
    var positional: [String]
    /// True for `rewind DIR` and `rewind LOG`: the command was chosen by the path, not named.
    var chosenByPath = false
    private var values: [String: [String]]

    init(program: CommandLineProgram, command: CommandSpec, parsed: CommandParser.Parsed, chosenByPath: Bool = false) {
        self.program = program
        self.command = command
        self.positional = parsed.positional
        self.values = parsed.values
        self.chosenByPath = chosenByPath
    }

    /// The value of an option (the last one given), by any of its spellings.
    subscript(option: String) -> String? { values(of: option).last }

    /// Every value given for an option, in order (a repeatable one such as `--redact`).
    func values(of option: String) -> [String] {
        values[key(option)] ?? []
    }

    /// True when the flag was given (by any of its spellings).
    func isSet(_ flag: String) -> Bool { values[key(flag)] != nil }

    /// The positional argument at `index`, nil when an optional one was left out.
    func argument(_ index: Int) -> String? { index < positional.count ? positional[index] : nil }

    /// `rewind export`, or `debug export` in a debug executable: how the command's messages start.
    var displayName: String { program.name + " " + command.name }

    /// A bad value or an unreadable file: one line, `rewind export: <message>`, and status 2.
    func fail(_ message: String, streams: inout some TextStreams) -> Int32 {
        streams.error(displayName + ": " + message)
        return 2
    }

    /// A command called the wrong way (options that do not go together, say):
    /// the message, the usage line and where the help is, as the parser's own errors; status 2.
    func usageError(_ message: String, streams: inout some TextStreams) -> Int32 {
        streams.error(program.usageError(message, command: command))
        return 2
    }

    private func key(_ name: String) -> String {
        guard let option = command.option(named: name) else {
            assertionFailure("\(command.name) has no option \(name) in CommandTable")
            return name
        }
        return option.key
    }
}
