import Foundation
import Recorder

/// `rewind bisect <log> '<invariant>'`: the first entry whose state breaks an
/// invariant, with the action that broke it and that step's diff (exit 1),
/// or a line saying it always holds (exit 0).
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
        let (breaking, unavailable) = firstBreak(in: timeline, query: query, invariants: invariants)
        if unavailable > 0 {
            streams.error("\(invocation.displayName): \(timeline.name): \(unavailable) entries not checked: their state cannot be rebuilt (a damaged record or a gap before them)")
        }
        let described = ([query?.text].compactMap { $0 } + invariants.map(\.name)).joined(separator: "; ")
        guard let (index, broken) = breaking else {
            streams.output("\(described) holds at every entry of \(timeline.name) (\(timeline.count) entries)")
            return 0
        }
        streams.output(report(timeline: timeline, index: index, broken: broken))
        return 1
    }

    /// The first entry whose state breaks the query or an invariant (and what
    /// it broke), and how many entries had no state to check.
    static func firstBreak(in timeline: LogTimeline, query: Query?, invariants: [StateInvariant]) -> (found: (Int, String)?, unavailable: Int) {
        if invariants.isEmpty, let query {
            // Only the query: the parallel scan for its negation.
            var found: Int?
            var unavailable = 0
            let negation = Query(negating: query)
            QueryScan(reader: timeline.reader, query: negation, mode: .first).run { report in
                unavailable += report.unavailable
                found = report.hits.first?.index
                return true
            }
            return (found.map { ($0, query.text) }, unavailable)
        }
        // Swift invariants decode each state: one pass in order, once the index is complete.
        _ = QueryScan.waitForIndex(of: timeline.reader, toReach: Int.max)
        var found: (Int, String)?
        var unavailable = 0
        timeline.reader.scanStates(0..<timeline.count, keepingPrevious: query?.readsPreviousState ?? false) { step in
            guard let state = step.state else {
                unavailable += 1
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
        return (found, unavailable)
    }

    /// Entry number, action, diff of the step.
    static func report(timeline: LogTimeline, index: Int, broken: String) -> String {
        let numberWidth = FindCommand.numberWidth(for: timeline)
        var lines = ["\(broken) stops holding at entry \(index + 1) of \(timeline.name)"
            + (index == 0 ? " (the first entry)" : " (it held for entries 1–\(index))")]
        if let entry = timeline.entry(at: index) {
            lines.append(CommandSupport.entryLine(entry, numberWidth: numberWidth))
        }
        let after = try? timeline.state(at: index)
        if let after, let before = timeline.stateBefore(index) {
            lines.append(JSONDiff.treeText(from: before, to: after) ?? "(No state changes)")
        } else if let after {
            lines.append("State after it (no earlier state to diff against):")
            lines.append(JSONWriter.prettyString(after))
        }
        return lines.joined(separator: "\n")
    }
}

/// A Swift invariant with its state type erased: decodes the recorded state
/// and runs the closure (``Invariant``, given to `Inspector.main`).
struct StateInvariant {
    var name: String
    /// True when it holds; a failure says why the state could not be decoded.
    var check: (JSONValue) -> Result<Bool, StateDecodingFailure>
}

struct StateDecodingFailure: Error, CustomStringConvertible {
    var description: String
}
