/// The list view of `rewind DIR`: the recordings under a directory, one
/// selected. Pure like the inspector's model: `reduce` changes it and asks for
/// effects, `render(_:)` draws it; `RecordingListSession` opens what is chosen.
struct RecordingListModel: Equatable {
    let directory: String
    var recordings: [RecordingSummary]
    var size: ScreenSize
    var cursor = 0
    /// The first row on screen.
    var top = 0
    /// A one-off line shown instead of the key hints until the next key.
    var message: String?

    enum Effect: Equatable {
        /// Open this log in the inspector; its `q` comes back here.
        case open(path: String)
        case quit
    }

    init(directory: String, recordings: [RecordingSummary], size: ScreenSize) {
        self.directory = directory
        self.recordings = recordings
        self.size = size
    }

    /// Rows of the list on screen (title, status and hint lines take three).
    var visibleRows: Int { max(1, size.rows - 3) }

    var selected: RecordingSummary? { recordings.indices.contains(cursor) ? recordings[cursor] : nil }

    mutating func reduce(_ event: InspectorEvent) -> [Effect] {
        switch event {
        case .key(let key):
            message = nil
            return press(key)
        case .mouse(let mouse):
            switch mouse.kind {
            case .press:
                let row = top + mouse.row - 1
                if mouse.row >= 1, row < recordings.count, mouse.row <= visibleRows { move(to: row) }
            case .wheelUp: move(to: cursor - 3)
            case .wheelDown: move(to: cursor + 3)
            }
        case .resize(let newSize):
            size = newSize
            move(to: cursor)
        case .interrupt:
            return [.quit]
        case .tick, .exportStarted, .exportFinished, .exportFailed, .exportProgress, .exportCancelled, .hideListSaveFailed,
             .branchFileChosen, .branchSaved, .branchSaveFailed, .replayProgress, .replayFinished, .compatibilityProgress,
             .compatibilityChecked, .viewBuilt, .changesDescribed, .queryProgress, .queryFinished:
            // The list starts none of the work these report.
            break
        }
        return []
    }

    private mutating func press(_ key: Key) -> [Effect] {
        switch key {
        case .character("q"), .escape: return [.quit]
        case .character("j"), .down: move(to: cursor + 1)
        case .character("k"), .up: move(to: cursor - 1)
        case .pageDown, .character(" "): move(to: cursor + visibleRows)
        case .pageUp: move(to: cursor - visibleRows)
        case .character("g"), .home: move(to: 0)
        case .character("G"), .end: move(to: recordings.count - 1)
        case .enter:
            guard let recording = selected else { return [] }
            guard recording.isLog else {
                message = "\(recording.relativePath) cannot be opened: \(recording.damage ?? "not a Rewind log")"
                return []
            }
            return [.open(path: recording.path)]
        default:
            message = "↑↓ move  Enter open  q quit"
        }
        return []
    }

    private mutating func move(to row: Int) {
        cursor = max(0, min(row, recordings.count - 1))
        if cursor < top { top = cursor }
        if cursor >= top + visibleRows { top = cursor - visibleRows + 1 }
        top = max(0, min(top, max(0, recordings.count - visibleRows)))
    }
}
