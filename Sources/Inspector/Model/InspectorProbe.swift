import Recorder

/// The inspector driven without a terminal, for `rewind-bench` (which cannot
/// use `@testable import` in release builds). Not public API.
package final class InspectorProbe {
    private let timeline: LogTimeline
    private var model: InspectorModel

    /// Opens a log and builds the first screen's model (no drawing yet).
    package init(path: String, columns: Int, rows: Int, indexInBackground: Bool) throws {
        timeline = try LogTimeline(path: path, indexInBackground: indexInBackground)
        model = InspectorModel(source: timeline, size: ScreenSize(columns: columns, rows: rows))
    }

    /// Renders the current screen and returns it as text.
    package func screenText() -> String { render(model, size: model.size).plainText }

    package var isFullyIndexed: Bool { timeline.indexing == .complete }
    package var entryCount: Int { timeline.count }

    /// One `j` press and the redraw that follows.
    package func stepDown() {
        reduce(&model, .key(.down))
        _ = render(model, size: model.size)
    }

    /// Blocks until the background read-ahead of the next entry is done.
    package func waitForReadAhead() { timeline.waitForReadAhead() }

    /// Selects entry `number` (from 1) as `:number` Enter would.
    package func jump(to number: Int) {
        for key in ":\(number)" { reduce(&model, .key(.character(key))) }
        reduce(&model, .key(.enter))
    }

    /// The compact JSON of the state after entry `index`.
    package func stateJSON(at index: Int) throws -> [UInt8] { JSONWriter.compact(try timeline.state(at: index)) }
}
