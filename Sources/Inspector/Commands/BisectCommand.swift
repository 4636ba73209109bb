import Foundation
import Recorder
import RewindQuery

/// `rewind bisect <log> '<invariant>'`: the first entry whose state breaks an
/// invariant, with the action that broke it and that step's diff (exit 1),
/// or a line saying it always holds (exit 0), or holds wherever a state could
/// be rebuilt to check (exit 3, naming the entries it could not check).
///
/// Not a binary search: an invariant that breaks can hold again later (an
/// action repairs it), so halving would land on *a* break, not the first.
/// The scan reads every state once, one patch per entry, on all cores, and
/// stops at the first break.
enum BisectCommand: CommandRunner {
    /// In a debug executable with Swift invariants (``Inspector``), the table makes the query optional.
    static func run(_ invocation: Invocation, streams: inout some TextStreams) -> Int32 {
        let invariants = invocation.program.invariants
        var query: Query?
        if let text = invocation.argument(1) {
            do {
                query = try Query(parsing: text)
            } catch {
                return invocation.fail("bad invariant at \(error.description)", streams: &streams)
            }
        }
        guard let timeline = FindCommand.openIndexingInBackground(invocation.positional[0], program: invocation.program.name, streams: &streams) else { return 2 }
        let (breaking, unchecked) = firstBreak(in: timeline, query: query, invariants: invariants)
        let described = ([query?.text].compactMap { $0 } + invariants.map(\.name)).joined(separator: "; ")
        // Entries whose state cannot be rebuilt are not checked: the answer says which, never that it held there.
        let notChecked = unchecked.isEmpty ? nil
            : "\(unchecked.numbers(in: timeline)) could not be checked (\(unchecked.count == 1 ? "its state cannot" : "their states cannot") be rebuilt: \(causes(of: unchecked, in: timeline)))"
        if let skipped = GapDescription.skipNote(timeline, doing: "checked", program: invocation.program.name) {
            streams.error("\(invocation.displayName): " + skipped)
        }
        let anyGap = !timeline.reader.gaps.isEmpty
        guard let (index, broken) = breaking else {
            if anyGap && notChecked == nil {
                // Entries that were never recorded were not checked either: not the "every entry" of 0.
                streams.output("\(described) holds at every recorded entry of \(timeline.name) (\(timeline.count) entries; some were not recorded)")
                return Self.exitHoldsWhereChecked
            }
            guard let notChecked else {
                streams.output("\(described) holds at every entry of \(timeline.name) (\(timeline.count) entries)")
                return 0
            }
            let checked = timeline.count - unchecked.count
            streams.output("\(described) holds at every entry of \(timeline.name) that could be checked (\(checked) of \(timeline.count)): \(notChecked)")
            return Self.exitHoldsWhereChecked
        }
        streams.output(report(timeline: timeline, index: index, broken: broken, notChecked: notChecked))
        return 1
    }

    /// Held at every entry checked, but some could not be: not the success of 0, since it may
    /// break at one of those; not the 1 of a break found (docs/COMMANDS.md).
    static let exitHoldsWhereChecked: Int32 = 3

    /// The first entry whose state breaks the query or an invariant (and what
    /// it broke), and the entries before it that had no state to check.
    static func firstBreak(in timeline: LogTimeline, query: Query?, invariants: [AnyStateInvariant]) -> (found: (Int, String)?, unchecked: UncheckedEntries) {
        if invariants.isEmpty, let query {
            // Only the query: the engine's parallel search (the inspector's `:bisect` runs it too).
            let found = QueryScan.firstBreak(of: query, in: timeline.reader) ?? QueryScan.FirstBreak(entry: nil, unchecked: [])
            var unchecked = UncheckedEntries()
            for index in found.unchecked { unchecked.add(index) }
            return (found.entry.map { ($0, query.text) }, unchecked)
        }
        // Swift invariants decode each state: one pass in order, once the index is complete.
        _ = QueryScan.waitForIndex(of: timeline.reader, toReach: Int.max)
        var found: (Int, String)?
        var unchecked = UncheckedEntries()
        timeline.reader.scanStates(0..<timeline.count, keepingPrevious: query?.readsPreviousState ?? false) { step in
            guard let state = step.state else {
                unchecked.add(step.index)
                return true
            }
            if let query, !query.matches(QueryInput(state: state, previousState: step.previousState, actionType: step.actionType)) {
                found = (step.index, query.text)
                return false
            }
            for invariant in invariants {
                switch invariant.check(state) {
                case .success(true): continue
                case .success(false): found = (step.index, invariant.name)
                case .failure(let reason): found = (step.index, "\(invariant.name) (\(reason))")
                }
                return false
            }
            return true
        }
        return (found, unchecked)
    }

    /// Why the states of `unchecked` cannot be rebuilt: what lies just before each run
    /// of them (a damaged line, or entries the recorder dropped), e.g. `line 3 is damaged`.
    static func causes(of unchecked: UncheckedEntries, in timeline: LogTimeline) -> String {
        let reader = timeline.reader
        let damage = reader.damage, gaps = reader.gaps
        var causes: [String] = []
        for run in unchecked.runs {
            let line = (try? reader.entry(at: run.lowerBound).lineNumber) ?? Int.max
            let previousLine = run.lowerBound == 0 ? 0 : (try? reader.entry(at: run.lowerBound - 1).lineNumber) ?? 0
            let cause: String
            if let damaged = damage.last(where: { $0.lineNumber > previousLine && $0.lineNumber < line }) {
                cause = "line \(damaged.lineNumber) is damaged"
            } else if gaps.contains(where: { $0.beforeEntry == run.lowerBound }) {
                cause = "entries before entry \(timeline.entryNumber(at: run.lowerBound)) were not recorded"
            } else {
                cause = "a record they depend on is missing"
            }
            if !causes.contains(cause) { causes.append(cause) }
        }
        return causes.joined(separator: "; ")
    }

    /// Entry number, action, diff of the step.
    /// `notChecked` names the entries before it whose state could not be checked.
    static func report(timeline: LogTimeline, index: Int, broken: String, notChecked: String? = nil) -> String {
        let numberWidth = FindCommand.numberWidth(for: timeline)
        let number = timeline.entryNumber(at: index)
        let previous = index > 0 ? timeline.entryNumber(at: index - 1) : 0
        var before = if let notChecked { "; \(notChecked), so it may stop holding earlier" }
            else if index == 0 { " (the first entry)" } else if index == 1 { " (it held for entry \(previous))" } else { " (it held for entries 1–\(previous))" }
        if number - previous > 1 {
            // A gap lies right before it: the change may be in an entry that was not recorded.
            let missing = number - previous == 2 ? "entry \(previous + 1) before it was" : "entries \(previous + 1)–\(number - 1) before it were"
            before += "; \(missing) not recorded or damaged, so it may stop holding there"
        }
        var lines = ["\(broken) stops holding at entry \(number) of \(timeline.name)" + before]
        if let entry = timeline.entry(at: index) {
            lines.append(CommandSupport.entryLine(entry, number: timeline.entryNumber(at: index), numberWidth: numberWidth))
        }
        let after = try? timeline.state(at: index)
        if let after, let before = timeline.stateBefore(index) {
            lines.append(JSONDiff.treeText(from: before, to: after) ?? "(No state changes)")
        } else if let after {
            lines.append(index == 0 ? "State after it (no earlier state to diff against):"
                : "State after it (the state before it cannot be rebuilt to diff against):")
            lines.append(JSONWriter.prettyString(after))
        }
        return lines.joined(separator: "\n")
    }
}

/// A Swift invariant with its state type erased: decodes the recorded state
/// and runs the closure (``StateInvariant``, given to `Inspector.main`).
struct AnyStateInvariant {
    var name: String
    /// True when it holds; a failure says why the state could not be decoded.
    var check: (JSONValue) -> Result<Bool, StateDecodingFailure>
}

struct StateDecodingFailure: Error, CustomStringConvertible {
    var description: String
}
