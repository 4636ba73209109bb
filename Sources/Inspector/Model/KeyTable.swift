/// What a key does, named so the help overlay and tests can refer to it.
enum InspectorCommand: Equatable, Sendable {
    case moveDown, moveUp, moveFirst, moveLast, pageDown, pageUp, jumpToEntry
    case focusNext, focusPrevious
    case toggleNode, expandNode, collapseNode
    case search, nextMatch, previousMatch
    case filterByAction, markEntry, diffAgainstMark, pathHistory, viewValue, exportDiff, toggleFollow
    case showDamage, showHelp, closeOverlay, quit
    case replayFromSelection, editAction, saveBranch, toggleSkip
}

/// One row of the key table.
struct KeyBinding: Sendable {
    var keys: [Key]
    var description: String
    var command: InspectorCommand
    /// Short label for the status-bar hints; `nil` keeps the key out of the hints.
    var hint: String?

    /// How the help overlay spells the keys: `j ↓`.
    var keyLabel: String { keys.map(\.label).joined(separator: " ") }
}

/// The one key table: key handling, the help overlay and the status-bar hints
/// are all generated from it, so they cannot drift apart (htop, k9s).
enum KeyTable {
    static let bindings: [KeyBinding] = [
        KeyBinding(keys: [.character("j"), .down], description: "next entry / row", command: .moveDown, hint: nil),
        KeyBinding(keys: [.character("k"), .up], description: "previous entry / row", command: .moveUp, hint: nil),
        KeyBinding(keys: [.character("g"), .home], description: "first entry", command: .moveFirst, hint: nil),
        KeyBinding(keys: [.character("G"), .end], description: "last entry", command: .moveLast, hint: nil),
        KeyBinding(keys: [.pageDown], description: "page down", command: .pageDown, hint: nil),
        KeyBinding(keys: [.pageUp], description: "page up", command: .pageUp, hint: nil),
        KeyBinding(keys: [.character(":")], description: "jump to entry N", command: .jumpToEntry, hint: "jump"),
        KeyBinding(keys: [.tab], description: "focus next pane", command: .focusNext, hint: "pane"),
        KeyBinding(keys: [.backTab], description: "focus previous pane", command: .focusPrevious, hint: nil),
        KeyBinding(keys: [.enter, .character(" ")], description: "collapse / expand node; on a leaf, view it", command: .toggleNode, hint: nil),
        KeyBinding(keys: [.right, .character("l")], description: "expand node", command: .expandNode, hint: nil),
        KeyBinding(keys: [.left, .character("h")], description: "collapse node", command: .collapseNode, hint: nil),
        KeyBinding(keys: [.character("/")], description: "search actions / state", command: .search, hint: "search"),
        KeyBinding(keys: [.character("n")], description: "next match", command: .nextMatch, hint: nil),
        KeyBinding(keys: [.character("N")], description: "previous match", command: .previousMatch, hint: nil),
        KeyBinding(keys: [.character("f")], description: "filter by action type / clear", command: .filterByAction, hint: "filter"),
        KeyBinding(keys: [.character("m")], description: "mark entry", command: .markEntry, hint: "mark"),
        KeyBinding(keys: [.character("d")], description: "diff mark against selection", command: .diffAgainstMark, hint: "diff"),
        KeyBinding(keys: [.character("w")], description: "history of the state node", command: .pathHistory, hint: "history"),
        KeyBinding(keys: [.character("v")], description: "view the whole value (Enter on a leaf too)", command: .viewValue, hint: nil),
        KeyBinding(keys: [.character("e")], description: "export diff as Markdown", command: .exportDiff, hint: "export"),
        KeyBinding(keys: [.character("F")], description: "follow a growing log", command: .toggleFollow, hint: "follow"),
        KeyBinding(keys: [.character("r")], description: "replay from here, mark divergences", command: .replayFromSelection, hint: nil),
        KeyBinding(keys: [.character("a")], description: "dispatch an edited action (branch)", command: .editAction, hint: nil),
        KeyBinding(keys: [.character("s")], description: "save the branch as a new log", command: .saveBranch, hint: nil),
        KeyBinding(keys: [.character("x")], description: "skip / unskip entry, recompute", command: .toggleSkip, hint: nil),
        KeyBinding(keys: [.character("D")], description: "list damaged records", command: .showDamage, hint: nil),
        KeyBinding(keys: [.character("?")], description: "help", command: .showHelp, hint: "help"),
        KeyBinding(keys: [.escape], description: "close overlay / cancel", command: .closeOverlay, hint: nil),
        KeyBinding(keys: [.character("q")], description: "quit", command: .quit, hint: "quit"),
    ]

    private static let commandsByKey: [Key: InspectorCommand] = {
        var table: [Key: InspectorCommand] = [:]
        for binding in bindings { for key in binding.keys { table[key] = binding.command } }
        return table
    }()

    static func command(for key: Key) -> InspectorCommand? { commandsByKey[key] }

    /// The status-bar hints, e.g. `? help  q quit  / search`: help and quit
    /// first so they survive a narrow terminal, then table order.
    static let hints: [(key: String, label: String)] = {
        let first: [InspectorCommand] = [.showHelp, .quit]
        let ordered = bindings.filter { first.contains($0.command) } + bindings.filter { !first.contains($0.command) }
        return ordered.compactMap { binding in binding.hint.map { (binding.keys[0].label, $0) } }
    }()
}
