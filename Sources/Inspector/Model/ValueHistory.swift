import Recorder
import RewindQuery

/// One entry in the history of a value: what `w` lists and `rewind blame` prints.
struct ValueChange: Equatable, Sendable {
    enum Kind: Equatable, Sendable {
        /// The value (or something inside it) changed in place.
        case changed
        /// The entry created the value (an `add`, an append to `…/-`, a new parent).
        case created
        /// The entry removed the value (or a container holding it).
        case removed
        /// The value moved: an insert or removal before it in an array shifted its index.
        case moved
    }

    /// The entry's index (from 0).
    var entry: Int
    /// Where the value was in the state before the entry; nil when the entry created it.
    var pathBefore: JSONPointer?
    /// Where the value is in the state after the entry; nil when the entry removed it.
    var pathAfter: JSONPointer?
    var kind: Kind
}

/// The history of one value across a log — the single engine behind `w` and
/// `rewind blame`, so the two always agree.
///
/// It follows the value, not only the path string: starting from `path` in the
/// state after entry `origin`, it walks back to the entry that created the value
/// and forward to the end (or to the entry that removed it), and whenever an
/// insert or removal earlier in an array shifts the value's index (`remove
/// /items/1` moves item 4 to `/items/3`), it goes on at the new index and lists
/// that entry as a move.
///
/// Cheap on a huge log: each entry's changed paths (``ScannedEntry``, no
/// state) say whether it can matter. A change inside the value is listed
/// without rebuilding any state; only the rare structural ones — an ancestor
/// replaced, an insert, removal or append in an array on the way to the value —
/// rebuild the two states around the entry to see where the value went.
/// Work is done in slices (``advance(source:allowance:)``), as every scan over
/// the log is (EntryScans); memory is the list of changes found.
///
/// ```swift
/// var history = ValueHistory(path: try JSONPointer(parsing: "/todos/1"), origin: 9, source: timeline)
/// history.runToCompletion(source: timeline)
/// history.changes.map(\.entry)   // [2, 7]: created by entry 3, moved by entry 8
/// ```
struct ValueHistory: Equatable, Sendable {
    /// The path the user asked about, in the state after `origin`.
    let path: JSONPointer
    let origin: Int
    /// False when `path` does not exist after `origin` (blame of a deleted path):
    /// then every entry that changed what is at that path string is listed.
    let followsValue: Bool

    /// Changes before and at `origin`, newest first (the backward walk finds them in that order).
    private var earlier: [ValueChange] = []
    /// Changes after `origin`, oldest first.
    private var later: [ValueChange] = []
    /// The next entry the backward walk examines (-1 when it is done) and where the value is after it.
    private var backwardNext: Int
    private var backwardPath: JSONPointer?
    /// The next entry the forward walk examines and where the value is before it (nil once removed).
    private var forwardNext: Int
    private var forwardPath: JSONPointer?
    /// Entries examined so far, for the progress shown while scanning.
    private(set) var examined = 0

    init(path: JSONPointer, origin: Int, source: any TimelineSource) {
        self.path = path
        self.origin = origin
        followsValue = (try? source.stateNode(at: origin))?[pointer: path] != nil
        backwardNext = origin
        backwardPath = path
        forwardNext = origin + 1
        forwardPath = path
    }

    /// Changes found so far, oldest first.
    var count: Int { earlier.count + later.count }
    /// Changes at or before `origin`.
    var earlierCount: Int { earlier.count }
    subscript(position: Int) -> ValueChange {
        position < earlier.count ? earlier[earlier.count - 1 - position] : later[position - earlier.count]
    }
    var changes: [ValueChange] { earlier.reversed() + later }
    var entries: [Int] { changes.map(\.entry) }

    /// True when both walks are over for the entries the log has (`count` grows in follow mode).
    func isDone(count: Int) -> Bool { backwardNext < 0 && (forwardPath == nil || forwardNext >= count) }

    /// How far the walks got, 0...1.
    func fraction(count: Int) -> Double {
        isDone(count: count) ? 1 : min(0.99, Double(examined) / Double(max(1, count)))
    }

    /// Examines entries while `allowance` lasts: first back from `origin`, then forward.
    mutating func advance(source: any TimelineSource, allowance: inout ScanAllowance) {
        var sliceOver = false
        while !sliceOver, backwardNext >= 0 {
            let batch = Array(stride(from: backwardNext, to: max(-1, backwardNext - InspectorModel.scanBatch), by: -1))
            source.scanEntries(batch, fields: .changedPaths) { index, entry in
                guard allowance.take() else { sliceOver = true; return false }
                examined += 1
                backwardNext = index - 1
                if let entry { stepBack(over: index, changedPaths: entry.changedPaths, source: source) }
                if backwardPath == nil {
                    // Created here: nothing before it was this value.
                    examined += max(0, backwardNext + 1)
                    backwardNext = -1
                    return false
                }
                return true
            }
        }
        let count = source.count
        while !sliceOver, forwardPath != nil, forwardNext < count {
            let batch = Array(forwardNext..<min(count, forwardNext + InspectorModel.scanBatch))
            source.scanEntries(batch, fields: .changedPaths) { index, entry in
                guard allowance.take() else { sliceOver = true; return false }
                examined += 1
                forwardNext = index + 1
                if let entry { stepForward(over: index, changedPaths: entry.changedPaths, source: source) }
                if forwardPath == nil {
                    examined += max(0, count - forwardNext)
                    return false
                }
                return true
            }
        }
    }

    /// Runs both walks to the end (the `rewind blame` command).
    mutating func runToCompletion(source: any TimelineSource) {
        while !isDone(count: source.count) {
            var allowance = ScanAllowance(ScanBudget(entriesPerEvent: 1 << 20, timePerEvent: nil))
            advance(source: source, allowance: &allowance)
        }
    }

    // MARK: One entry

    /// Entry `index` turned the state before it into the state after it; the value is at `backwardPath` after it.
    private mutating func stepBack(over index: Int, changedPaths: [JSONPointer], source: any TimelineSource) {
        guard let after = backwardPath else { return }
        let step = step(over: index, changedPaths: changedPaths, source: source, knownPath: after, backward: true)
        if let change = step.change { earlier.append(change) }
        backwardPath = step.path
    }

    /// Entry `index` ran after `origin`; the value is at `forwardPath` before it.
    private mutating func stepForward(over index: Int, changedPaths: [JSONPointer], source: any TimelineSource) {
        guard let before = forwardPath else { return }
        let step = step(over: index, changedPaths: changedPaths, source: source, knownPath: before, backward: false)
        if let change = step.change { later.append(change) }
        forwardPath = step.path
    }

    /// What entry `index` did to the value at `knownPath` on one side of it (after it when
    /// walking back, before it when walking forward), and where the value is on the other side.
    private func step(over index: Int, changedPaths: [JSONPointer], source: any TimelineSource,
                      knownPath: JSONPointer, backward: Bool) -> (change: ValueChange?, path: JSONPointer?) {
        switch Self.relation(of: changedPaths, to: knownPath) {
        case .none:
            return (nil, knownPath)
        case .inside:
            return (ValueChange(entry: index, pathBefore: knownPath, pathAfter: knownPath, kind: .changed), knownPath)
        case .structural:
            guard let states = Self.states(around: index, source: source) else {
                return (ValueChange(entry: index, pathBefore: knownPath, pathAfter: knownPath, kind: .changed), knownPath)
            }
            let otherPath: JSONPointer? = !followsValue ? knownPath
                : backward ? Self.follow(knownPath, from: states.after, to: states.before)
                : Self.follow(knownPath, from: states.before, to: states.after)
            let (before, after): (JSONPointer?, JSONPointer?) = backward ? (otherPath, knownPath) : (knownPath, otherPath)
            return (Self.change(at: index, before: before, after: after, states: states), otherPath)
        }
    }

    private static func change(at index: Int, before: JSONPointer?, after: JSONPointer?,
                               states: (before: JSONNode, after: JSONNode)) -> ValueChange? {
        let old = before.flatMap { states.before[pointer: $0] }
        let new = after.flatMap { states.after[pointer: $0] }
        switch (old, new) {
        case (nil, nil): return nil
        case (nil, _?): return ValueChange(entry: index, pathBefore: nil, pathAfter: after, kind: .created)
        case (_?, nil): return ValueChange(entry: index, pathBefore: before, pathAfter: nil, kind: .removed)
        case (let old?, let new?):
            if before != after { return ValueChange(entry: index, pathBefore: before, pathAfter: after, kind: .moved) }
            return old == new ? nil : ValueChange(entry: index, pathBefore: before, pathAfter: after, kind: .changed)
        }
    }

    /// Nil when either state cannot be rebuilt: an empty state in its place would invent a creation or removal.
    private static func states(around index: Int, source: any TimelineSource) -> (before: JSONNode, after: JSONNode)? {
        guard let after = try? source.stateNode(at: index) else { return nil }
        // Before the first entry of a log without an initial state there was nothing at all.
        guard let before = source.stateNodeBefore(index) else { return index == 0 ? (JSONNode(.null), after) : nil }
        return (before, after)
    }

    // MARK: Which entries matter

    enum Relation { case none, inside, structural }

    /// How an entry that changed `changedPaths` bears on the value at `path`:
    /// `inside` when it changed the value itself in place (a path inside it, or
    /// the member itself), `structural` when the value may have been created,
    /// removed or moved (an ancestor changed, or an array on the way to it had
    /// an element inserted, removed or appended at or before the value's index).
    static func relation(of changedPaths: [JSONPointer], to path: JSONPointer) -> Relation {
        var result = Relation.none
        for changed in changedPaths {
            let tokens = changed.tokens, target = path.tokens
            if tokens.count > target.count {
                if changed.hasPrefix(path) { result = .inside }
                continue
            }
            if tokens.count == target.count, tokens == target {
                // An array element itself: an insert at its index shifts it; an object member changes in place.
                if let last = target.last, arrayIndex(last) != nil { return .structural }
                result = .inside
                continue
            }
            if tokens.count < target.count, target.starts(with: tokens) { return .structural }
            // A sibling of something on the way to the value, in an array: inserts and removals there shift it.
            let depth = tokens.count - 1
            guard depth >= 0, target.starts(with: tokens.dropLast()), let last = tokens.last,
                  let index = arrayIndex(target[depth]) else { continue }
            if last == "-" { return .structural }
            if let sibling = arrayIndex(last), sibling <= index { return .structural }
        }
        return result
    }

    /// A JSON Pointer array index token (`0`, `12`; not `012`, not `-`).
    static func arrayIndex(_ token: String) -> Int? {
        guard !token.isEmpty, token.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        if token.utf8.count > 1 && token.utf8.first == 0x30 { return nil }
        return Int(token)
    }

    // MARK: Following a value from one state to the next

    /// Where the value at `path` in `old` is in `new`, or nil when `new` does not
    /// have it. Array indexes are carried through the JSON engine's alignment of
    /// the two arrays (inserts, removals, moves), so a removal before the value
    /// gives its new, lower index.
    static func follow(_ path: JSONPointer, from old: JSONNode, to new: JSONNode) -> JSONPointer? {
        var mapped: [String] = []
        var x = old, y = new
        for token in path.tokens {
            switch (x.kind, y.kind) {
            case (.object, .object):
                guard let nextX = x.child(token), let nextY = y.child(token) else { return nil }
                mapped.append(token)
                (x, y) = (nextX, nextY)
            case (.array, .array):
                guard let index = arrayIndex(token), index < x.count,
                      let newIndex = mapIndex(index, from: x, to: y), newIndex < y.count,
                      let nextX = x.child(at: index), let nextY = y.child(at: newIndex) else { return nil }
                mapped.append(String(newIndex))
                (x, y) = (nextX, nextY)
            default:
                return nil
            }
        }
        return JSONPointer(tokens: mapped)
    }

    /// Where element `index` of the array `old` is in the array `new` (nil when it was removed).
    /// The alignment keeps the arrays' common prefix in place, so when every element up to
    /// the value's is unchanged it has not moved, and a huge array (an append to a list of
    /// 100,000) is read no further than the value; otherwise both arrays are aligned whole.
    static func mapIndex(_ index: Int, from old: JSONNode, to new: JSONNode) -> Int? {
        if index < new.count, (0...index).allSatisfy({ old.child(at: $0) == new.child(at: $0) }) { return index }
        guard case .array(let a) = old.value, case .array(let b) = new.value else { return nil }
        return mapIndex(index, from: a, to: b)
    }

    /// Where element `index` of `old` is in `new` (nil when it was removed).
    static func mapIndex(_ index: Int, from old: [JSONValue], to new: [JSONValue]) -> Int? {
        if old.count == new.count && old == new { return index }
        var position = index
        var count = old.count
        func resolve(_ token: String, appendAt end: Int) -> Int? { token == "-" ? end : arrayIndex(token) }
        for operation in JSONDiff.patch(from: .array(old), to: .array(new)).operations {
            switch operation {
            case .add(let path, _), .copy(_, let path):
                guard path.tokens.count == 1, let at = resolve(path.tokens[0], appendAt: count) else { continue }
                if at <= position { position += 1 }
                count += 1
            case .remove(let path):
                guard path.tokens.count == 1, let at = arrayIndex(path.tokens[0]) else { continue }
                if at == position { return nil }
                if at < position { position -= 1 }
                count -= 1
            case .move(let from, let path):
                guard from.tokens.count == 1, path.tokens.count == 1,
                      let source = arrayIndex(from.tokens[0]), let target = resolve(path.tokens[0], appendAt: count - 1) else { continue }
                if source == position {
                    position = target
                } else {
                    if source < position { position -= 1 }
                    if target <= position { position += 1 }
                }
            case .replace, .test:
                continue
            }
        }
        return position
    }
}

/// How a change reads in `w` and `rewind blame`: `"old" → "new"`, `(absent)`
/// for a value that did not exist, `(state unavailable)` for one in a state
/// that cannot be rebuilt, and where a moved value went.
enum ValueChangeText {
    static let unavailable = "(state unavailable)"

    /// Both values of a change, whole (compact JSON), and where a moved value went.
    struct Values: Equatable, Sendable {
        var old: String
        var new: String
        var moved: String?

        /// Both sides cut around their first difference to `width` columns each, `shift`
        /// characters further in (a row scrolled sideways), so what changed stays in view.
        func text(width: Int = 80, shift: Int = 0) -> String {
            let (shownOld, shownNew) = DifferenceWindow.cut(old, new, width: width, shift: shift)
            return shownOld + " → " + shownNew + (moved.map { "  (moved \($0))" } ?? "")
        }

        /// How far ``text(width:shift:)`` can shift: until the longer value's end shows.
        func shiftLimit(width: Int) -> Int { DifferenceWindow.shiftLimit(old, new, width: width) }
    }

    static func describe(_ change: ValueChange, source: any TimelineSource) -> String {
        values(of: change, source: source).text()
    }

    static func values(of change: ValueChange, source: any TimelineSource) -> Values {
        let old = change.pathBefore.map { path -> String in
            // Before the first entry of a log without an initial state there was nothing, not a lost state.
            guard let before = source.stateNodeBefore(change.entry) else { return change.entry == 0 ? value(nil) : unavailable }
            return whole(before[pointer: path])
        } ?? value(nil)
        let new = change.pathAfter.map { path -> String in
            guard let after = try? source.stateNode(at: change.entry) else { return unavailable }
            return whole(after[pointer: path])
        } ?? value(nil)
        var moved: String?
        if change.kind == .moved, let from = change.pathBefore, let to = change.pathAfter { moved = "\(from) → \(to)" }
        let (keptOld, keptNew) = around(old, new)
        return Values(old: keptOld, new: keptNew, moved: moved)
    }

    /// Characters of a long value kept around where the two first differ: a row shows a
    /// window of them, and a history of a huge value must not hold it whole per row.
    static let keptAround = (before: 200, after: 8_000)

    /// `old` and `new` from a little before their first difference to well after it (`…` where cut).
    private static func around(_ old: String, _ new: String) -> (String, String) {
        let limit = keptAround.before + keptAround.after
        guard old.utf8.count > limit || new.utf8.count > limit else { return (old, new) }
        var first = 0
        for (a, b) in zip(old, new) {
            if a != b { break }
            first += 1
        }
        let start = max(0, first - keptAround.before)
        func keep(_ text: String) -> String {
            let kept = text.dropFirst(start).prefix(limit)
            return (start > 0 ? "…" : "") + kept + (kept.endIndex < text.endIndex ? "…" : "")
        }
        return (keep(old), keep(new))
    }

    /// Compact JSON, whole; `(absent)` when the path did not exist.
    private static func whole(_ node: JSONNode?) -> String { node?.value.description ?? "(absent)" }

    /// Compact JSON, long values shortened; `(absent)` when the path did not exist.
    static func value(_ value: JSONValue?) -> String {
        guard let value else { return "(absent)" }
        let text = value.description
        return text.count > 80 ? String(text.prefix(79)) + "…" : text
    }
}
