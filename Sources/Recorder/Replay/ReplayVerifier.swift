/// The long work of a replay session — replaying and checking compatibility —
/// on a session of its own, so it can run on a background queue while the
/// inspector's session keeps serving the screen. Used by one queue at a time.
package protocol ReplayVerifier: AnyObject {
    /// Entries in the log.
    var entryCount: Int { get }
    func replay(from start: Int, stopAtFirstProblem: Bool, proceed: (Int) -> Bool) -> ReplayRun
    func checkCompatibility(continuing check: CompatibilityCheck, through end: Int, proceed: (Int) -> Bool) -> CompatibilityCheck
}

