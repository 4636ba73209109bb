import Recorder

/// Where the user is in each pane — which pane has the keys, the state tree's cursor and
/// open nodes, how far the diff is scrolled, the action view, the layout: the model's panes
/// scope. What the panes show (the selection's state and diff, the rows on screen) is
/// derived from it and the timeline by `refreshView`.
struct PaneState {
    var focus: InspectorModel.Pane = .timeline
    /// Nodes the user opened or closed; changed nodes' ancestors open by themselves.
    var folds = FoldChoices()
    /// The state tree's row under the cursor.
    var stateCursor = 0
    /// The state tree's first row on screen.
    var stateTop = 0
    /// The diff's first line on screen.
    var diffTop = 0
    /// Columns scrolled off the diff pane's left edge (→ / ← in the diff pane).
    var diffLeft = 0
    /// The diff line the last diff-pane search landed on (marked with `▶`).
    var diffMatchLine: Int?
    /// The state pane shows the selected action instead (`p`): payload, duration, cause.
    var showsAction = false
    /// The action view's payload tree: open nodes, cursor, the window on screen.
    var payloadTree = PayloadTree()
    /// The timeline's share of the width in percent (`<` / `>`).
    var timelineWidthShare = 50
    /// The pane shown alone (`z`), if any.
    var zoomed: InspectorModel.Pane?
}
