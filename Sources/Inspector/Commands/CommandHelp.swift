/// The texts generated from the command table: usage lines, `--help`, `help CMD`,
/// the usage error shape and `--version`.
extension CommandLineProgram {
    /// Usage lines are wrapped before this many columns, continuing under the first argument.
    static let usageWidth = 100

    /// `rewind 0.1.0`; a debug executable says whose command line it runs: `debug (Rewind 0.1.0)`.
    var versionLine: String {
        name == "rewind" ? "rewind \(CommandTable.version)" : "\(name) (Rewind \(CommandTable.version))"
    }

    /// `usage: rewind export <log> [--from A] … [--redact RULE]...`, wrapped.
    func usageLine(of command: CommandSpec) -> String {
        let head = "usage: \(name) \(command.name)"
        var pieces = command.arguments.map { ($0.isOptional ? "[\($0.name)]" : $0.name) + ($0.repeats ? "..." : "") }
        pieces += command.options.map { option in
            let shown = option.valueName.map { "\(option.key) \($0)" } ?? option.key
            return (option.isRequired ? shown : "[\(shown)]") + (option.isRepeatable ? "..." : "")
        }
        var lines: [String] = []
        var line = head
        for piece in pieces {
            if line.count + 1 + piece.count > Self.usageWidth, line.count > head.count {
                lines.append(line)
                line = String(repeating: " ", count: head.count)
            }
            line += " " + piece
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }

    /// The one shape of every usage error: what is wrong, the usage line, and where to read more.
    ///
    ///     rewind export: unknown option '--bogus'
    ///     usage: rewind export <log> [--from A] …
    ///     See 'rewind export --help'.
    func usageError(_ message: String, command: CommandSpec?) -> String {
        guard let command else {
            return "\(name): \(message)\n\(programUsage)\nSee '\(name) --help'."
        }
        return "\(name) \(command.name): \(message)\n\(usageLine(of: command))\nSee '\(name) \(command.name) --help'."
    }

    /// `usage: rewind <log> | <directory> | <command> [<arguments>]`.
    var programUsage: String { "usage: \(name) <log> | <directory> | <command> [<arguments>]" }

    /// `rewind --help`: the ways to call the program, then every command with its abstract.
    var help: String {
        let width = (commands.map(\.name.count).max() ?? 0) + 2
        var lines = [
            "usage: \(name) <log>                  the inspector on a log (the entry list when not in a terminal)",
            "       \(name) <directory>            the recordings under it: a list view, Enter opens one (text when not a terminal)",
            "       \(name) <command> [<arguments>]",
        ]
        if replay != nil {
            lines += ["", "Linked with a reducer: in the inspector, r replays from the selection, a edits an action,",
                      "s saves the branch, x skips an entry (docs/REPLAY.md)."]
        }
        lines += ["", "Commands:"]
        lines += commands.map { "  " + $0.name.padding(toLength: width, withPad: " ", startingAt: 0) + $0.abstract }
        lines += ["",
                  "'\(name) help <command>' or '\(name) <command> --help' shows a command's arguments and options.",
                  "'\(name) --version' prints the version."]
        return lines.joined(separator: "\n")
    }

    /// `rewind CMD --help` and `rewind help CMD`: usage, abstract, arguments, options, discussion.
    func help(of command: CommandSpec) -> String {
        var lines = [usageLine(of: command), "", command.abstract.prefix(1).uppercased() + command.abstract.dropFirst() + "."]
        var rows: [(String, String)] = []
        if !command.arguments.isEmpty {
            rows.append(("", "Arguments:"))
            rows += command.arguments.map { ($0.name, $0.help + ($0.isOptional ? " (may be left out)" : "")) }
        }
        rows.append(("", "Options:"))
        rows += command.options.map { option in
            let names = option.names.joined(separator: ", ")
            return (option.valueName.map { "\(names) \($0)" } ?? names, option.help)
        }
        rows.append(("-h, --help", "this help"))
        let width = min(24, (rows.map(\.0.count).max() ?? 0) + 2)
        for (left, right) in rows {
            if left.isEmpty {
                lines += ["", right]
            } else if left.count + 2 > width {
                lines += ["  " + left, "  " + String(repeating: " ", count: width) + right]
            } else {
                lines.append("  " + left.padding(toLength: width, withPad: " ", startingAt: 0) + right)
            }
        }
        if !command.discussion.isEmpty { lines += ["", command.discussion] }
        return lines.joined(separator: "\n")
    }
}
