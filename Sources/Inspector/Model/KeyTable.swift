/// What a key does, named so the help overlay and tests can refer to it.
enum InspectorCommand: Equatable, Sendable {
    case moveDown, moveUp, moveFirst, moveLast, pageDown, pageUp, halfPageDown, halfPageUp, jumpToEntry
    case focusNext, focusPrevious
    case toggleNode, expandNode, collapseNode, spaceBar, expandAll, collapseAll
    case search, nextMatch, previousMatch
    case filterByAction, markEntry, diffAgainstMark, pathHistory, viewValue, copyValue, copyPath, exportDiff, toggleFollow
    case narrowerTimeline, widerTimeline, zoomPane, toggleActionView, jumpToCause, jumpBack
    case showDamage, showHelp, closeOverlay, redraw, quit
    case replayFromSelection, editAction, saveBranch, toggleSkip
}

extension InspectorCommand {
    /// True for the keys that move the timeline's selection (when the timeline has focus).
    var movesSelection: Bool {
        switch self {
        case .moveDown, .moveUp, .moveFirst, .moveLast, .pageDown, .pageUp, .halfPageDown, .halfPageUp, .spaceBar,
             .nextMatch, .previousMatch, .jumpToCause, .jumpBack: true
        default: false
        }
    }
}

/// One row of the key table.
struct KeyBinding: Sendable {
    var keys: [Key]
    var description: String
    var command: InspectorCommand
    /// Short label for the status-bar hints; `nil` keeps the key out of the hints.
    var hint: String?
    /// The panes whose hint line shows it (all when nil).
    var hintPanes: Set<InspectorModel.Pane>? = nil
    /// True for a key on the state tree's cursor: the action view (`p`) hides the tree, so its hint is left out there.
    var needsStateTree = false
    /// What the key needs to do anything (the replay keys need a linked reducer); nil: always available.
    var requirement: KeyRequirement? = nil

    /// How the help overlay spells the keys: `j ↓`.
    var keyLabel: String { keys.map(\.label).joined(separator: " ") }
}

/// The one key table: key handling, the help overlay and the status-bar hints
/// are all generated from it, so they cannot drift apart (htop, k9s).
enum KeyTable {
    static let bindings: [KeyBinding] = [
        KeyBinding(keys: [.character("j"), .down], description: "next entry / row (5j: five)", command: .moveDown, hint: nil),
        KeyBinding(keys: [.character("k"), .up], description: "previous entry / row", command: .moveUp, hint: nil),
        KeyBinding(keys: [.character("g"), .home], description: "first entry (10g: entry 10)", command: .moveFirst, hint: nil),
        KeyBinding(keys: [.character("G"), .end], description: "last entry (10G: entry 10); resumes a paused follow", command: .moveLast, hint: nil),
        KeyBinding(keys: [.pageDown, .control("f")], description: "page down", command: .pageDown, hint: nil),
        KeyBinding(keys: [.pageUp, .control("b")], description: "page up", command: .pageUp, hint: nil),
        KeyBinding(keys: [.control("d")], description: "half a page down", command: .halfPageDown, hint: nil),
        KeyBinding(keys: [.control("u")], description: "half a page up", command: .halfPageUp, hint: nil),
        KeyBinding(keys: [.character(":")], description: "jump to entry N (:0 the initial state); :find / :bisect a query", command: .jumpToEntry, hint: "jump",
                   hintPanes: [.timeline]),
        KeyBinding(keys: [.tab], description: "focus next pane", command: .focusNext, hint: "pane"),
        KeyBinding(keys: [.backTab], description: "focus previous pane", command: .focusPrevious, hint: nil),
        KeyBinding(keys: [.enter], description: "collapse / expand node (state, payload); on a leaf, view it", command: .toggleNode, hint: nil),
        KeyBinding(keys: [.character(" ")], description: "page down (timeline, diff); collapse / expand node (state, payload)", command: .spaceBar,
                   hint: nil),
        KeyBinding(keys: [.right, .character("l")], description: "expand node (diff pane: scroll right)", command: .expandNode, hint: nil),
        KeyBinding(keys: [.left, .character("h")], description: "collapse node, go to its parent; at the top, back to the timeline (diff: scroll left)",
                   command: .collapseNode, hint: nil),
        KeyBinding(keys: [.character("E")], description: "expand the node under the cursor and everything in it", command: .expandAll, hint: nil),
        KeyBinding(keys: [.character("C")], description: "collapse every node of the tree", command: .collapseAll, hint: nil),
        KeyBinding(keys: [.character("/")], description: "search the focused pane (empty: again)", command: .search, hint: "search"),
        KeyBinding(keys: [.character("n")], description: "next match", command: .nextMatch, hint: nil),
        KeyBinding(keys: [.character("N")], description: "previous match", command: .previousMatch, hint: nil),
        KeyBinding(keys: [.character("f")], description: "filter by action type / clear (Tab/S-Tab: project/log hide-list)", command: .filterByAction, hint: "filter",
                   hintPanes: [.timeline]),
        KeyBinding(keys: [.character("m")], description: "mark entry", command: .markEntry, hint: "mark", hintPanes: [.timeline]),
        KeyBinding(keys: [.character("d")], description: "diff mark against selection", command: .diffAgainstMark, hint: "diff",
                   hintPanes: [.timeline, .diff]),
        KeyBinding(keys: [.character("w")], description: "history of the state node", command: .pathHistory, hint: "history",
                   hintPanes: [.state], needsStateTree: true),
        KeyBinding(keys: [.character("v")], description: "view the whole value (Enter on a leaf too)", command: .viewValue, hint: "view",
                   hintPanes: [.state]),
        KeyBinding(keys: [.character("y")], description: "copy the value (state) or action (timeline), OSC 52", command: .copyValue,
                   hint: "copy", hintPanes: [.state]),
        KeyBinding(keys: [.character("Y")], description: "copy the state node's path", command: .copyPath, hint: nil),
        KeyBinding(keys: [.character("e")], description: "export the diff on screen as Markdown", command: .exportDiff, hint: "export",
                   hintPanes: [.timeline, .diff]),
        KeyBinding(keys: [.character("F")], description: "follow a growing log (scroll up pauses, F/G resume)", command: .toggleFollow,
                   hint: "follow", hintPanes: [.timeline]),
        KeyBinding(keys: [.character("p")], description: "state pane: the action instead (payload tree, duration, cause) / back",
                   command: .toggleActionView, hint: "action", hintPanes: [.timeline, .state]),
        KeyBinding(keys: [.character("c")], description: "jump to the entry whose effect sent this action", command: .jumpToCause,
                   hint: nil),
        KeyBinding(keys: [.character("b")], description: "back to where c jumped from", command: .jumpBack, hint: nil),
        KeyBinding(keys: [.character("<")], description: "narrower timeline", command: .narrowerTimeline, hint: nil),
        KeyBinding(keys: [.character(">")], description: "wider timeline", command: .widerTimeline, hint: nil),
        KeyBinding(keys: [.character("z")], description: "zoom the focused pane / back", command: .zoomPane, hint: "zoom"),
        KeyBinding(keys: [.character("r")], description: "replay from here, mark divergences", command: .replayFromSelection, hint: "replay",
                   hintPanes: [.timeline], requirement: .linkedReducer),
        KeyBinding(keys: [.character("a")], description: "dispatch an edited action (branch)", command: .editAction, hint: "edit",
                   hintPanes: [.timeline], requirement: .linkedReducer),
        KeyBinding(keys: [.character("s")], description: "save the branch as a new log", command: .saveBranch, hint: "save",
                   hintPanes: [.timeline], requirement: .linkedReducer),
        KeyBinding(keys: [.character("x")], description: "skip / unskip entry, recompute", command: .toggleSkip, hint: "skip",
                   hintPanes: [.timeline], requirement: .linkedReducer),
        KeyBinding(keys: [.character("D")], description: "list damaged records (each keeps its timeline row)", command: .showDamage, hint: nil),
        KeyBinding(keys: [.character("?")], description: "help", command: .showHelp, hint: "help"),
        KeyBinding(keys: [.escape], description: "close overlay / cancel / clear search", command: .closeOverlay, hint: nil),
        KeyBinding(keys: [.control("l")], description: "redraw the screen", command: .redraw, hint: nil),
        KeyBinding(keys: [.character("q")], description: "quit", command: .quit, hint: "quit"),
    ]

    private static let commandsByKey: [Key: InspectorCommand] = {
        var table: [Key: InspectorCommand] = [:]
        for binding in bindings { for key in binding.keys { table[key] = binding.command } }
        return table
    }()

    static func command(for key: Key) -> InspectorCommand? { commandsByKey[key] }

    static func binding(for command: InspectorCommand) -> KeyBinding? { bindings.first { $0.command == command } }

    /// The hints for `pane`, e.g. `? help  q quit  / search`: help and quit
    /// first so they survive a narrow terminal, then table order. Keys that do
    /// nothing here (the replay keys without a linked reducer) are not hinted:
    /// `?` lists them apart, with what they need.
    /// `actionView`: the state pane shows the action (`p`), so keys on the state tree are left out.
    static func hints(for pane: InspectorModel.Pane, actionView: Bool = false, unavailable: (KeyBinding) -> KeyRequirement?)
        -> [(key: String, label: String)] {
        let first: [InspectorCommand] = [.showHelp, .quit]
        let ordered = bindings.filter { first.contains($0.command) } + bindings.filter { !first.contains($0.command) }
        return ordered.filter { $0.hint != nil && ($0.hintPanes?.contains(pane) ?? true) && !(actionView && $0.needsStateTree) }
            .filter { unavailable($0) == nil }
            .map { ($0.keys[0].label, $0.hint!) }
    }
}

/// Something a key needs before it does anything; the key table greys such keys
/// in the help overlay and the hints, and the key says why when pressed.
enum KeyRequirement: Hashable, Sendable {
    /// The replay keys: the inspector must run in a debug executable linked with the app's reducer.
    case linkedReducer

    /// Why the key does nothing, with what to do about it (the first press shows this).
    var reason: String {
        switch self {
        case .linkedReducer:
            "Replay needs your reducer: link Inspector in a debug executable and call Inspector.main(reducer: appReducer) (docs/REPLAY.md)"
        }
    }

    /// The help overlay's note after a greyed key's description.
    var note: String {
        switch self {
        case .linkedReducer: "needs a linked reducer"
        }
    }

    /// Where the key works, for the help overlay's heading over such keys.
    var place: String {
        switch self {
        case .linkedReducer: "a debug executable linked with your reducer (docs/REPLAY.md)"
        }
    }
}

extension InspectorModel {
    /// Why `binding`'s key does nothing in this inspector, or nil when it is available.
    func unavailability(of binding: KeyBinding) -> KeyRequirement? {
        switch binding.requirement {
        case .linkedReducer?: replay == nil ? .linkedReducer : nil
        case nil: nil
        }
    }

    /// An unavailable key was pressed: the whole reason the first time, a short
    /// reminder after that (the greyed hint and `?` say it too).
    mutating func explainUnavailable(_ command: InspectorCommand) {
        guard let binding = KeyTable.binding(for: command), let requirement = unavailability(of: binding) else { return }
        if overlays.explainedRequirements.insert(requirement).inserted {
            overlays.message = requirement.reason
        } else {
            overlays.message = "\(binding.keys[0].label) \(requirement.note) (see ? or docs/REPLAY.md)"
        }
    }
}
