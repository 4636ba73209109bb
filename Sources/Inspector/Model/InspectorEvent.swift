import Recorder
import RewindQuery

/// A key the inspector understands, independent of the terminal library.
enum Key: Hashable, Sendable {
    case character(Character)
    case up, down, left, right
    case home, end, pageUp, pageDown
    case enter, tab, backTab, escape, backspace, delete
    /// Ctrl with a letter, lowercased: `.control("l")` is Ctrl-L.
    case control(Character)

    /// How the help overlay spells the key.
    var label: String {
        switch self {
        case .character(" "): "Space"
        case .character(let character): String(character)
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        case .home: "Home"
        case .end: "End"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .enter: "Enter"
        case .tab: "Tab"
        case .backTab: "S-Tab"
        case .escape: "Esc"
        case .backspace: "Bksp"
        case .delete: "Del"
        case .control(let letter): "C-" + String(letter)
        }
    }
}

/// A mouse action at a screen position (0-based column and row).
struct MouseEvent: Equatable, Sendable {
    enum Kind: Equatable, Sendable { case press, wheelUp, wheelDown }
    var kind: Kind
    var column: Int
    var row: Int
}

/// Everything that can change the model.
enum InspectorEvent: Equatable, Sendable {
    case key(Key)
    case mouse(MouseEvent)
    case resize(ScreenSize)
    /// Time passed: pick up indexing progress and, in follow mode, new entries.
    case tick
    /// Ctrl-C: leave at once, whatever is open.
    case interrupt
    /// The export the model asked for goes to `path` (chosen before it is built and written).
    case exportStarted(path: String)
    /// The session's background export wrote `fraction` of the file.
    case exportProgress(fraction: Double)
    /// Esc stopped the export: nothing was left on disk.
    case exportCancelled
    /// The terminal layer finished an export the model asked for.
    case exportFinished(path: String)
    case exportFailed(reason: String)
    /// A hide-list could not be saved (`.rewind/hidden-actions…`): why, in words.
    case hideListSaveFailed(reason: String)
    /// The session found a free name for the branch `s` saves: ask before writing it.
    case branchFileChosen(path: String)
    /// The session wrote the branch (`entries` of them) to `path`, or could not.
    case branchSaved(path: String, entries: Int)
    case branchSaveFailed(reason: String)
    /// The background replay `job` (`r`) got through `fraction` of its entries.
    case replayProgress(job: Int, fraction: Double)
    /// The background replay `job` is done.
    case replayFinished(job: Int, run: ReplayRun)
    /// The background compatibility check examined entries up to `checked`.
    case compatibilityProgress(checked: Int)
    /// The background compatibility check finished a pass.
    case compatibilityChecked(CompatibilityCheck)
    /// The view builder read the states of view `job` (``InspectorEffect/buildView(_:job:)``).
    case viewBuilt(job: Int, view: SelectionView)
    /// Old and new values of history rows, by entry (``InspectorEffect/describeChanges(_:)``).
    case changesDescribed([Int: ValueChangeText.Values])
    /// The background search `job` (`:find`, `:bisect`) examined `fraction` of the log and found
    /// `newMatches` (`:find`; entries of the log file, in order) since it last said.
    case queryProgress(job: Int, newMatches: [Int], fraction: Double)
    /// The background search `job` is done; `firstBreak` is `:bisect`'s answer (nil for `:find`).
    case queryFinished(job: Int, firstBreak: QueryScan.FirstBreak?)
}

/// Work the model asks the outside world to do; `reduce` itself stays pure.
enum InspectorEffect: Equatable, Sendable {
    case quit
    /// Write the Markdown of `export` to a new file, in the background; `suggestedName` is a file name without directory.
    /// Answered by `exportStarted` at once, then `exportProgress` and `exportFinished`, `exportFailed` or `exportCancelled`.
    case exportDiff(DiffExport, suggestedName: String)
    /// Esc while exporting: stop and remove what was written.
    case cancelExport
    /// Put `text` on the terminal's clipboard (OSC 52).
    case copyToClipboard(String)
    /// Remember the hide-list for the project (`.rewind/hidden-actions` in the current directory).
    case saveHiddenActionTypes([String])
    /// Remember the hide-list of one log file (`.rewind/hidden-actions-by-log`, keyed by `log`, its absolute path).
    case saveLogHiddenActionTypes(log: String, types: [String])
    /// Ctrl-L: repaint the whole terminal (something else wrote over it).
    case redraw
    /// Find a name no file has yet for the branch, next to where the inspector was
    /// started (`suggestedName`, then `name-2`, …); answered by ``InspectorEvent/branchFileChosen(path:)``.
    case chooseBranchFile(suggestedName: String)
    /// Write the replay branch as a new log at `path` (the user said yes); answered by `branchSaved` or `branchSaveFailed`.
    case saveBranch(path: String)
    /// Replay the log from entry `from` through the linked reducer, in the background;
    /// answered by `replayProgress` and `replayFinished` with the same `job`.
    case replay(from: Int, job: Int)
    /// Stop the background replay `job` (its result is dropped anyway).
    case cancelReplay(job: Int)
    /// Extend the compatibility report over entries up to `through`, in the background;
    /// answered by `compatibilityProgress` and `compatibilityChecked`.
    case checkCompatibility(continuing: CompatibilityCheck, through: Int)
    /// Read the states of `request` and build its view in the background (they take long to
    /// read); answered by `viewBuilt` with the same `job`. A newer job replaces it.
    case buildView(ViewRequest, job: Int)
    /// Esc while a view is being built: its result is no longer wanted.
    case stopBuildingView
    /// Work out old and new of these history rows in the background (their states are big);
    /// answered by `changesDescribed`.
    case describeChanges([ValueChange])
    /// Search the log file with `rewind find`'s engine for `:find` or `:bisect`, in the
    /// background; answered by `queryProgress` and `queryFinished` with the same `job`.
    case runQuery(job: Int, kind: QueryScanProgress.Kind, query: Query)
    /// Stop the background search `job` (what it would still report is dropped anyway).
    case cancelQuery(job: Int)
}
