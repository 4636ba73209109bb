/// Splits a command's arguments by what its ``CommandSpec`` declares; the one
/// option parser of the command line.
///
/// - `--first` is a flag, `--from 3` or `--from=3` an option with a value (the
///   next argument is taken as it is, even when it starts with `-`);
/// - everything else is positional, `-` (standard input) and negative numbers
///   included; `--` ends the options;
/// - `-h` or `--help` anywhere before `--` asks for the command's help, which
///   wins over any other mistake on the line;
/// - an unknown option, a missing value, a value not among an option's choices,
///   a required option left out, or too few or too many positional arguments is a usage error.
enum CommandParser {
    /// The arguments as the command reads them.
    struct Parsed {
        var positional: [String] = []
        /// Values by ``CommandSpec/Option/key``; a flag has one empty value each time it is given.
        var values: [String: [String]] = [:]
    }

    enum Outcome {
        case parsed(Parsed)
        case help
        /// What is wrong, in a few words: `unknown option '--bogus'`.
        case usageError(String)
    }

    static func parse(_ arguments: [String], for command: CommandSpec) -> Outcome {
        if asksForHelp(arguments) { return .help }
        var parsed = Parsed()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || !looksLikeOption(argument) {
                parsed.positional.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            var name = argument
            var attached: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                attached = String(argument[argument.index(after: equals)...])
            }
            guard let option = command.option(named: name) else { return .usageError("unknown option '\(name)'") }
            guard option.takesValue else {
                if attached != nil { return .usageError("option '\(name)' takes no value") }
                parsed.values[option.key, default: []].append("")
                continue
            }
            let value: String
            if let attached {
                value = attached
            } else {
                guard index < arguments.count else { return .usageError("option '\(name)' needs a value") }
                value = arguments[index]
                index += 1
            }
            if !option.choices.isEmpty, !option.choices.contains(value) {
                let what = name.drop { $0 == "-" }
                return .usageError("unknown \(what) '\(value)' (expected one of: \(option.choices.joined(separator: ", ")))")
            }
            if option.isRepeatable {
                parsed.values[option.key, default: []].append(value)
            } else {
                parsed.values[option.key] = [value]
            }
        }
        if let missing = command.options.first(where: { $0.isRequired && parsed.values[$0.key] == nil }) {
            return .usageError("\(missing.key) \(missing.valueName ?? "") is required")
        }
        let required = command.arguments.filter { !$0.isOptional }.count
        if parsed.positional.count < required {
            return .usageError("missing \(command.arguments[parsed.positional.count].name)")
        }
        if parsed.positional.count > command.arguments.count, command.arguments.last?.repeats != true {
            return .usageError("unexpected argument '\(parsed.positional[command.arguments.count])'")
        }
        return .parsed(parsed)
    }

    /// True for `-h` or `--help` before any `--`.
    static func asksForHelp(_ arguments: [String]) -> Bool {
        for argument in arguments {
            if argument == "--" { return false }
            if argument == "-h" || argument == "--help" { return true }
        }
        return false
    }

    /// `-x` and `--name`, but not `-` nor a number such as `-1`.
    static func looksLikeOption(_ argument: String) -> Bool {
        argument.hasPrefix("-") && argument != "-" && Double(argument) == nil
    }
}
