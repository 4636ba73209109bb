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
enum BisectCommand {
    static let usage = "usage: rewind bisect <log> '<invariant>'"

    static let help = """
        \(usage)

        Names the first entry at which the invariant (a query, docs/QUERIES.md) stops
        holding, with its action and the diff of that step, and exits 1; exits 0 when
        it holds at every entry.
          rewind bisect cart.jsonl '/cart/total >= 0'
          rewind bisect todo.jsonl '/stats/done <= /stats/total'
        In a debug executable (Inspector.main(…, invariants:)), the Swift invariants
        are checked as well, and the query may be left out.
        """

    static func run(_ arguments: [String], streams: inout some TextStreams) -> Int32 {
        run(arguments, invariants: [], streams: &streams)
    }

    /// With `invariants` (a linked debug executable), the query is optional.
    static func run(_ arguments: [String], invariants: [StateInvariant], streams: inout some TextStreams) -> Int32 {
        let parsed: CommandArguments
        switch CommandArguments.parse(arguments, flags: [], options: []) {
        case .success(let value): parsed = value
        case .failure(let error):
            streams.error("rewind bisect: \(error.description). \(usage)")
            return 2
        }
        if parsed.wantsHelp {
            streams.output(help)
            return 0
        }
        let wanted = invariants.isEmpty ? 2...2 : 1...2
        guard wanted.contains(parsed.positional.count) else {
            streams.error("rewind bisect: expected a log and an invariant. \(usage)")
            return 2
        }
        var query: Query?
        if parsed.positional.count == 2 {
            do {
                query = try Query(parsing: parsed.positional[1])
            } catch {
                streams.error("rewind bisect: bad invariant at \(error.description)")
                return 2
            }
        }
        guard let timeline = FindCommand.openIndexingInBackground(parsed.positional[0], streams: &streams) else { return 2 }
        let (breaking, unavailable) = firstBreak(in: timeline, query: query, invariants: invariants)
        if unavailable > 0 {
            streams.error("rewind bisect: \(timeline.name): \(unavailable) entries not checked: their state cannot be rebuilt (a damaged record or a gap before them)")
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
