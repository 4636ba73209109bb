/// The arguments of one command, split by the flags and options it declares:
/// `--first` (a flag), `--from 3` or `--from=3` (an option, repeatable),
/// everything else positional; `--` ends the options. Used by `find`,
/// `bisect`, `testgen` and `tail`, each of which declares its own.
struct CommandArguments {
    var positional: [String] = []
    var flags: Set<String> = []
    var options: [String: [String]] = [:]
    /// True for `-h` or `--help` anywhere before `--`.
    var wantsHelp = false

    /// The last value given for an option.
    subscript(option: String) -> String? { options[option]?.last }

    static func parse(_ arguments: [String], flags known: Set<String>, options takingValues: Set<String>) -> Result<CommandArguments, UsageError> {
        var result = CommandArguments()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" || Double(argument) != nil {
                result.positional.append(argument)
                continue
            }
            if argument == "--" { optionsEnded = true; continue }
            if argument == "-h" || argument == "--help" { result.wantsHelp = true; continue }
            var name = argument
            var value: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                value = String(argument[argument.index(after: equals)...])
            }
            if known.contains(name), value == nil {
                result.flags.insert(name)
            } else if takingValues.contains(name) {
                if value == nil {
                    guard index < arguments.count else { return .failure(UsageError("option '\(name)' needs a value")) }
                    value = arguments[index]
                    index += 1
                }
                result.options[name, default: []].append(value!)
            } else {
                return .failure(UsageError("unknown option '\(name)'"))
            }
        }
        return .success(result)
    }
}
