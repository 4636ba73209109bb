import Recorder
import RewindQuery

/// Why a query matched nothing when it names a path the recording does not have:
/// `note: /cart/totl is in neither the first nor the last state (did you mean /cart/total?)`.
/// Only the first and the last state are read, so the answer costs two rebuilds
/// however long the log is; the wording says exactly that much.
enum PathSuggestion {
    /// Paths of the last state looked at for a suggestion; a huge state is not walked whole.
    static let maximumCandidates = 50_000
    /// Paths longer than this get no suggestion: each comparison costs the product of the two
    /// lengths, and a typo is looked for in a path a person typed, not in a 32 KB one.
    static let maximumSuggestedLength = 256
    /// Columns a path is shown in: a query may hold 65,536 characters, a note is one line.
    static let shownWidth = 200

    static func notes(for paths: [JSONPointer], in timeline: LogTimeline) -> [String] {
        // Read as nodes: a path is looked up, and the candidates walked, without parsing a huge state whole.
        guard timeline.count > 0, let last = try? timeline.stateNode(at: timeline.count - 1) else { return [] }
        let first = timeline.initialState.map(JSONNode.init) ?? (try? timeline.stateNode(at: 0))
        var notes: [String] = []
        var candidates: [String]?
        for path in paths where !notes.contains(where: { $0.hasPrefix("note: \(path) ") }) {
            guard last[pointer: path] == nil, first?[pointer: path] == nil else { continue }
            if candidates == nil { candidates = allPaths(of: last) }
            let text = path.description
            let closest = text.unicodeScalars.count > maximumSuggestedLength ? nil : closest(to: text, among: candidates ?? [])
            let hint = closest.map { " (did you mean \($0.escapingControlCharacters.truncated(toWidth: shownWidth))?)" } ?? ""
            notes.append("note: \(text.escapingControlCharacters.truncated(toWidth: shownWidth)) is in neither the first nor the last state" + hint)
        }
        return notes
    }

    /// Every path in `state` (containers and leaves), breadth first, up to ``maximumCandidates``;
    /// of a list, its first three elements' (its elements' paths differ only by their index).
    static func allPaths(of state: JSONNode) -> [String] {
        var found: [String] = []
        var queue: [(JSONNode, JSONPointer)] = [(state, JSONPointer())]
        var position = 0
        while position < queue.count, found.count < maximumCandidates {
            let (node, path) = queue[position]
            position += 1
            var index = 0
            node.forEachChild { key, child in
                queue.append((child, path.appending(key ?? String(index))))
                index += 1
                return key != nil || index < 3
            }
            if !path.tokens.isEmpty { found.append(path.description) }
        }
        return found
    }

    /// The candidate nearest to `text` (the first of equals), each distance worked out once.
    static func closest(to text: String, among candidates: [String]) -> String? {
        var best: (path: String, distance: Int)?
        for candidate in candidates {
            let d = distance(text, candidate)
            if best == nil || d < best!.distance { best = (candidate, d) }
        }
        return best?.path
    }

    /// Levenshtein distance over Unicode scalars (paths are short).
    static func distance(_ a: String, _ b: String) -> Int {
        let (x, y) = (Array(a.unicodeScalars), Array(b.unicodeScalars))
        if x.isEmpty || y.isEmpty { return max(x.count, y.count) }
        var previous = Array(0...y.count)
        var current = previous
        for i in 1...x.count {
            current[0] = i
            for j in 1...y.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[y.count]
    }
}
