import Recorder

/// What the replay keys (`r`, with a linked reducer) and the compatibility report have
/// found and have running: the model's replay scope.
struct ReplayState {
    /// The last replay (`r`): which entries diverge.
    var replayRun: ReplayRun?
    /// The replay running in the background, if one is.
    var replaying: ReplayProgress?
    /// The number of the last `r` started (each gets the next; a stale result is dropped).
    var lastReplayJob = 0
    /// Which recorded action types and states decode with the linked reducer's types,
    /// over the entries checked so far (extended in the background as indexing proceeds).
    var compatibility: CompatibilityCheck?
    /// The compatibility pass running in the background, if one is.
    var compatibilityChecking: CompatibilityProgress?
}
