/// What replaying a stretch of a log found, entry by entry.
package struct ReplayRun: Sendable, Equatable {
    /// How one entry compared.
    package enum Check: Sendable, Equatable {
        /// The reducer recomputed exactly the recorded state.
        case matches
        /// The reducer computed something else; replay continues from the recorded state.
        case diverges(ReplayDivergence)
        /// The entry could not be replayed (action or state does not decode, …);
        /// replay continues from the recorded state after it.
        case cannotReplay(ReplayError)
        /// Replay restarted here from the recorded state, because what came before
        /// is not in the log (a new recording session, dropped entries, damage).
        case restarted(reason: String)
        /// The action cannot be re-run (recorded through reflection: ReSwift's
        /// `ReSwiftInit`, a non-Codable `Ping`), so its recorded state was restored
        /// from the log and replay goes on from there.
        case restored(reason: String)

        /// True for what fails a verification: a divergence or an entry that cannot be replayed.
        package var isProblem: Bool {
            switch self {
            case .diverges, .cannotReplay: true
            case .matches, .restarted, .restored: false
            }
        }
    }

    /// Entries the reducer recomputed to the recorded state.
    package var replayedCount: Int { checks.filter { $0 == .matches }.count }

    /// Entries whose state was taken from the log instead of recomputed (restarts and restores), with why.
    package var restoredFromLog: [(entry: Int, reason: String)] {
        checks.indices.compactMap { offset in
            switch checks[offset] {
            case .restarted(let reason), .restored(let reason): (start + offset, reason)
            default: nil
            }
        }
    }

    /// First entry replayed.
    package var start: Int
    /// One check per entry from `start`, in order (fewer when the run stopped early).
    package var checks: [Check]

    package func check(at index: Int) -> Check? {
        let offset = index - start
        return checks.indices.contains(offset) ? checks[offset] : nil
    }

    package var firstDivergence: ReplayDivergence? {
        for check in checks { if case .diverges(let divergence) = check { return divergence } }
        return nil
    }

    package var divergentEntries: [Int] {
        checks.indices.compactMap { offset in
            if case .diverges = checks[offset] { return start + offset }
            return nil
        }
    }

    /// `Replayed 9 entries from 2: 1 diverge (first at 6)`, entry `index` called
    /// `entryNumber(index)`: the number the timeline shows for it (entries keep
    /// their recorded numbers, past gaps and damaged records).
    package func summary(entryNumber: (Int) -> Int) -> String {
        var matching = 0, divergent = 0, failed = 0
        for check in checks {
            switch check {
            case .matches: matching += 1
            case .diverges: divergent += 1
            case .cannotReplay: failed += 1
            case .restarted, .restored: break
            }
        }
        var text = "Replayed \(checks.count) entr\(checks.count == 1 ? "y" : "ies") from \(entryNumber(start)): "
        let restored = restoredFromLog.count
        if divergent == 0 && failed == 0 {
            if restored == 0 { return text + "all match the recording" }
            return text + "\(matching) match the recording, \(restored) restored from the log"
        }
        text += "\(divergent) diverge"
        if let first = firstDivergence { text += " (first at \(entryNumber(first.entryIndex)))" }
        if failed > 0 { text += ", \(failed) cannot be replayed" }
        return text
    }
}
