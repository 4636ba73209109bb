import Recorder

/// What is drawn over the panes and on the two bottom lines — the window open (help, the
/// picker, a value's history, the viewer), the line being typed, the message, the notice,
/// the question waiting for `y` — and what has been said once already: the model's
/// overlays scope. Keys go to the window or the prompt before the panes (`reduce`).
struct OverlayState {
    /// The window drawn over the panes, if one is open; Esc (or q) closes it.
    var overlay: InspectorModel.Overlay?
    /// The line being typed at the bottom (`/`, `:`, the action editor).
    var prompt: InspectorModel.Prompt?
    /// Lines entered in each kind of prompt, newest last (Up/Down in the prompt).
    var promptHistory: [InspectorModel.Prompt.Kind: [String]] = [:]
    /// A one-off message shown instead of the key hints until the next key.
    var message: String?
    /// A message that stays until Esc dismisses it (where an export was written, or why it failed).
    var notice: String?
    /// A question on the hint line (saving a branch) waiting for `y`.
    var confirmation: InspectorModel.Confirmation?
    /// Why the edited action did not decode, shown while the editor stays open.
    var editError: String?
    /// Unavailable keys already explained in full (later presses get a short reminder).
    var explainedRequirements: Set<KeyRequirement> = []
    /// Keys already reported as doing nothing (each is reported once).
    var reportedUnknownKeys: Set<Key> = []
}
