/// Every command of the command line, in the order `rewind --help` lists them.
/// The parser, `rewind --help`, `rewind help CMD`, `rewind CMD --help`, the
/// usage lines in errors and `rewind --version` are all generated from here
/// (``CommandLineProgram``): to add or change a command or an option, change
/// its row, and its code in its `…Command` file.
enum CommandTable {
    /// What `rewind --version` prints; the one place the version is written.
    static let version = "0.1.0"

    /// The commands of `rewind`. Computed: a row holds a metatype, which is not `Sendable` to store in a global.
    static var commands: [CommandSpec] {
        [
            CommandSpec(name: "open", runner: OpenCommand.self, arguments: [.logFile],
                abstract: "the inspector on a log (the entry list when not in a terminal); <log> alone does the same"),
            CommandSpec(name: "ls", runner: ListCommand.self, arguments: [.required("<directory>", "searched recursively; hidden folders are skipped")],
                abstract: "the recordings under a directory, failed tests first, then newest first; <directory> alone too",
                options: [
                    .choice("--format", choices: ["text", "json"], help: "text (the default) or one JSON object, a recording per line"),
                    .flag("--verify", help: "read every recording through, counting entries and damaged records"),
                ],
                discussion: "In a terminal, <directory> alone (without ls) opens the list view instead: Enter opens a recording, q comes back."),
            CommandSpec(name: "show", runner: ShowCommand.self, arguments: [.logFile],
                abstract: "the state after an entry (default: the last) as JSON",
                options: [
                    .value("--at", valueName: "N", help: "the entry (from 1; 0 is the state before the first entry)"),
                    .value("--path", valueName: "/json/pointer", help: "only this part of the state"),
                ]),
            CommandSpec(name: "log", runner: LogCommand.self, arguments: [.logFile],
                abstract: "one line per entry: number, time, action, what changed",
                options: [
                    .value("--from", valueName: "A", help: "the first entry to list (default: 1)"),
                    .value("--to", valueName: "B", help: "the last entry to list (default: the last)"),
                    .value("--width", valueName: "N", help: "cut lines to N columns (default: the terminal's width, or 120)"),
                    .flag("--trace", help: "under each entry, where its action was dispatched and the recorded call stack"),
                    .flag("--full", help: "whole action summaries (cut to the terminal's width, or 120 columns, without it)"),
                ],
                discussion: "Entries keep the numbers they were recorded with; where entries were not recorded (a gap) or the log was opened again (a new session), a line says so."),
            CommandSpec(name: "stats", runner: StatsCommand.self, arguments: [.logFile],
                abstract: "entries, keyframes, size, gaps, damaged records, sessions, time span, actions by type",
                options: [.choice("--format", choices: ["text", "json"], help: "text (the default) or one JSON object")]),
            CommandSpec(name: "blame", runner: BlameCommand.self,
                arguments: [.logFile, .required("</json/pointer>", "the part of the state, e.g. /cart/total")],
                abstract: "the entries that changed a part of the state, old → new"),
            CommandSpec(name: "diff", runner: DiffCommand.self, arguments: [.required("A.json", "the old document"), .required("B.json", "the new document")],
                abstract: "the differences between two JSON documents (exit 0 same, 1 different)",
                options: [
                    .choice("--format", choices: DiffCommand.Format.allCases.map(\.rawValue),
                            help: "tree: -/+ lines, unchanged members collapsed (the default); patch: RFC 6902; unified: diff -u"),
                ],
                discussion: "Exit status: 0 the documents are equal, 1 they differ, 2 a file is missing or not valid JSON."),
            CommandSpec(name: "export", runner: ExportCommand.self, arguments: [.required("<log>", "a Rewind log (.jsonl); for --format states, also a directory of recordings")],
                abstract: "a bug report, patch, diff, log slice or Redux DevTools file for some entries",
                options: [
                    .choice("--format", choices: ExportFormat.allCases.map(\.rawValue), valueName: "FORMAT",
                            help: "markdown (a bug report, the default), patch (RFC 6902), unified (diff -u), jsonl (a log), redux-devtools, states (a row per entry, for SQL)"),
                    .value("--from", valueName: "A", help: "the first entry (entries are numbered from 1; default: 1)"),
                    .value("--to", valueName: "B", help: "the last entry (default: the last)"),
                    .value("-o", "--output", valueName: "FILE", help: "write to FILE (replaced atomically) instead of standard output"),
                    .flag("--per-entry", help: "patch and unified: one per entry instead of one for the whole range"),
                    .value("--path", valueName: "/json/pointer", help: "markdown, patch and unified: only this part of the state; states: a column per path (repeatable)", repeatable: true),
                    .value("--redact", valueName: "RULE", help: "hide a key (password) or a path (/user/email, /users/*/token)", repeatable: true),
                ],
                discussion: """
                    Every format covers the change from the state before entry A to the state after entry B (docs/EXPORT.md).
                    states writes JSON Lines, one row per entry (recording, entry, time, duration, action, payload,
                    changed paths, the state or the --path columns; gaps and damaged records as rows), for SQL
                    engines: docs/EXPORT.md, "Querying recordings with SQL".
                    """),
            CommandSpec(name: "import", runner: ImportCommand.self, arguments: [.required("<export.json>", "a file the Redux DevTools extension exported (or rewind export wrote)")],
                abstract: "a Redux DevTools export as a Rewind log",
                options: [.value("-o", "--output", valueName: "<out.jsonl>", help: "the log to write", required: true)]),
            CommandSpec(name: "find", runner: FindCommand.self, arguments: [.required("<log|dir>", "a log, or a directory searched recording by recording on all cores"), .query("'<query>'")],
                abstract: "the entries whose state satisfies a query, in one log or every log under a directory",
                options: [
                    .flag("--first", help: "only the first matching entry (of each recording, for a directory)"),
                    .flag("--changes", help: "only the entries where the query's truth flips, marked → true / → false"),
                    .flag("--count", help: "only the number of entries listed (per recording for a directory)"),
                ],
                discussion: """
                    Queries (docs/QUERIES.md):
                      /cart/total < 0            /user/name == "Ann"        exists /session
                      /items length > 3          /tags contains "work"      changed /cart
                      action == checkout.submit  action == cart.*           not (…) and (… or …)

                    Exit status: 0 something matched, 1 nothing matched, 2 bad input.
                    """),
            bisect(invariants: false),
            CommandSpec(name: "testgen", runner: TestgenCommand.self, arguments: [.logFile],
                abstract: "a regression test replaying the recording through your reducer, with its fixture",
                options: [
                    .value("--from", valueName: "A", help: "the first entry to replay (default: 1)"),
                    .value("--to", valueName: "B", help: "the last entry to replay (default: the last)"),
                    .flag("--xctest", help: "an XCTest case instead of a Swift Testing test"),
                    .value("-o", "--output", valueName: "File.swift", help: "where the test goes (default: stdout, the fixture in the current directory)"),
                    .value("--reducer", valueName: "EXPR", help: "the reducer, e.g. TodoDomain.reduce (default: an editor placeholder)"),
                    .value("--module", valueName: "NAME", help: "a module to import (your app's)", repeatable: true),
                    .value("--redact", valueName: "RULE", help: "hide secrets in the fixture, as export does; redacted paths are not checked", repeatable: true),
                ],
                discussion: """
                    Writes a test that sends entries A…B to your reducer one by one, each with its
                    summary as a comment, and checks after each the values the recording saw at the
                    paths that action changed. Beside it goes the fixture, the log slice with the
                    --redact rules applied (File.fixture.jsonl).
                    Add RewindTesting to the test target's dependencies and exclude the fixture from its sources.
                    """),
            CommandSpec(name: "tail", runner: TailCommand.self, arguments: [.logFile],
                abstract: "each entry as it is recorded: the action and the state diff, as TCA's _printChanges",
                options: [
                    .value("-n", valueName: "N|all", help: "how many of the last entries (default 10; all: every entry)"),
                    .flag("-f", "--follow", help: "keep following the log as it grows (and when it is replaced or cut)"),
                    .flag("-F", help: "as -f, and wait for a log that does not exist yet"),
                    .flag("--full", help: "whole action summaries (cut to the terminal's width, or 120 columns, without it)"),
                    .choice("--format", choices: TailCommand.Format.allCases.map(\.rawValue), help: "text (the default) or one JSON object a line: entry, time, action, changed paths, patch"),
                ],
                discussion: """
                    Each entry is printed as
                      received action:
                        add title: "Buy milk"
                          {
                      -   "nextID": 1
                      +   "nextID": 2
                          }
                    or "(No state changes)". Coloured when stdout is a terminal and NO_COLOR is not set.
                    """),
            CommandSpec(name: "mcp", runner: MCPCommand.self,
                arguments: [.optional("<directory>", "a directory whose recordings agents may read (default: . and .build/rewind-recordings)", repeats: true)],
                abstract: "serve recordings to coding agents over the Model Context Protocol (stdio)",
                discussion: """
                    Reads JSON-RPC messages on standard input and answers on standard output (protocol 2026-07-28,
                    and 2025-11-25 back to 2024-11-05 through initialize). Tools: list_recordings, stats, log,
                    show_state, diff, find, bisect, blame, testgen; each reads only the recordings under the
                    directories (paths leading out of them, links included, are refused) and writes nothing.
                    Results are cut at max_bytes with an offset to read on (README, "Let a coding agent read recordings").
                    """),
            CommandSpec(name: "listen", runner: ListenCommand.self, abstract: "record apps live over TCP (ActionRecorder(streamingTo:token:)) and follow the first",
                options: [
                    .value("--port", valueName: "N", help: "the TCP port (default \(ListenCommand.defaultPort); 0 picks a free one)"),
                    .value("--bind", valueName: "ADDR", help: "the address to listen on (default 127.0.0.1; 0.0.0.0 for a device, in clear text)"),
                    .value("-o", "--output", valueName: "DIR", help: "where the logs go (default \(ListenCommand.defaultDirectory)/)"),
                    .value("--token", valueName: "T", help: "the token apps must send, 16+ characters (default: the one saved in DIR, else a new one)"),
                    .flag("--no-ui", help: "only write the logs and print what happens (also when not in a terminal)"),
                ]),
        ]
    }

    /// The row of a command of `rewind` (for tests that run one command with what they inject).
    static func command(_ name: String) -> CommandSpec {
        guard let command = commands.first(where: { $0.name == name }) else { preconditionFailure("no command \(name) in CommandTable") }
        return command
    }

    /// The commands of a debug executable (``Inspector``): `rewind`'s, with `bisect`
    /// checking the Swift invariants (its query optional when there are some) and `verify`.
    static func debugCommands(invariants: Bool) -> [CommandSpec] {
        commands.map { $0.name == "bisect" ? bisect(invariants: invariants) : $0 } + [verify]
    }

    static func bisect(invariants: Bool) -> CommandSpec {
        let invariant = "a query that should hold at every entry"
        return CommandSpec(
            name: "bisect", runner: BisectCommand.self,
            arguments: [.logFile, invariants ? .optional("'<invariant>'", invariant + " (the Swift invariants are checked too)") : .query("'<invariant>'", invariant)],
            abstract: "the first entry where an invariant stops holding (exit 1), with its diff",
            discussion: """
                Names the first entry at which the invariant stops holding, with its action
                and the diff of that step, and exits 1; exits 0 when it holds at every entry.
                Entries whose state cannot be rebuilt (damage) are named, not counted as
                holding; exits 3 when it holds at every entry that could be checked.
                  bisect cart.jsonl '/cart/total >= 0'
                  bisect todo.jsonl '/stats/done <= /stats/total'
                """ + (invariants
                    ? "\nThe Swift invariants given to Inspector.main are checked as well; the query may be left out."
                    : "\nIn a debug executable (Inspector.main(…, invariants:)), Swift invariants are checked as well."))
    }


    // MARK: A debug executable only

    static var verify: CommandSpec {
        CommandSpec(
            name: "verify", runner: VerifyCommand.self, arguments: [.logFile],
            abstract: "replay every entry through the linked reducer: exit 0 when all states match, 1 at a divergence",
            discussion: "Prints the compatibility report first, then the first divergence and every entry that fails.")
    }
}

extension CommandSpec.Argument {
    /// The log most commands read.
    static var logFile: Self { .required("<log>", "a Rewind log (.jsonl)") }

    /// A query in the language of docs/QUERIES.md (quoted: it has spaces).
    static func query(_ name: String, _ help: String = "docs/QUERIES.md, e.g. '/cart/total < 0'") -> Self {
        .required(name, help)
    }
}
