import Foundation

/// One entry of a state scan (``LogReader/scanStates(_:keepingPrevious:_:)``).
package struct StateScanStep {
    /// Position in the log, from 0.
    package var index: Int
    /// 1-based line number in the file.
    package var lineNumber: Int
    package var actionType: String
    /// The paths the entry changed (the patch's paths, or a keyframe's `changed` list).
    package var changedPaths: [JSONPointer]
    /// The recorded patch; nil for a keyframe.
    package var patch: JSONPatch?
    /// The state after the entry; nil when a damaged record, a gap or a new
    /// session makes it unavailable (as ``LogReader/state(at:)`` would throw).
    package var state: JSONValue?
    /// The state before the entry, when the scan keeps it (nil when unavailable).
    package var previousState: JSONValue?
    /// False when the entry's record could not be read (``LogReader/entry(at:)`` fails too).
    package var isReadable: Bool

    package init(index: Int, lineNumber: Int, actionType: String, changedPaths: [JSONPointer], patch: JSONPatch?,
                 state: JSONValue?, previousState: JSONValue?, isReadable: Bool) {
        self.index = index
        self.lineNumber = lineNumber
        self.actionType = actionType
        self.changedPaths = changedPaths
        self.patch = patch
        self.state = state
        self.previousState = previousState
        self.isReadable = isReadable
    }
}

extension LogReader {
    /// Walks the entries in `range` in order, rebuilding each state from the
    /// one before by applying its patch in place, and hands each to `body`
    /// until it returns false.
    ///
    /// What `rewind find`, `bisect` and `tail` read: a query over every state
    /// costs one patch per entry, where ``state(at:)`` per entry would replay
    /// up to K patches from a keyframe each time. Records are read as
    /// ``scanEntries(_:fields:_:)`` reads them (neighbours with one `pread`);
    /// only the action type, the patch and a keyframe's state are parsed.
    ///
    /// With `keepingPrevious`, each step also holds the state before it; the
    /// containers a patch edits are then copied once per entry (the previous
    /// state keeps its own), so ask for it only when needed.
    ///
    /// ```swift
    /// reader.scanStates(0..<reader.entryCount, keepingPrevious: false) { step in
    ///     if step.state?[pointer: total]?.doubleValue ?? 0 < 0 { print(step.index) }
    ///     return true
    /// }
    /// ```
    package func scanStates(_ range: Range<Int>, keepingPrevious: Bool, _ body: (StateScanStep) -> Bool) {
        let range = range.clamped(to: 0..<entryCount)
        guard !range.isEmpty else { return }
        var state: JSONValue? = range.lowerBound == 0 ? header.initialState : try? self.state(at: range.lowerBound - 1)
        var buffer: [UInt8] = []
        var batchStart = range.lowerBound
        while batchStart < range.upperBound {
            let batchEnd = min(range.upperBound, batchStart + Self.scanBatchEntries)
            let lines = stateScanLocations(batchStart..<batchEnd)
            var first = 0
            while first < lines.count {
                // One read for the following lines that fit in a window with this one.
                var low = lines[first].location.offset, high = lines[first].location.end, end = first + 1
                while end < lines.count, lines[end].location.end - low <= Int64(Self.scanWindowBytes) {
                    high = lines[end].location.end
                    end += 1
                }
                let read = file.read(into: &buffer, at: low, count: Int(high - low))
                for position in first..<end {
                    let line = lines[position]
                    let start = Int(line.location.offset - low)
                    let record: StateRecord? = start + line.location.length <= read ? buffer.withUnsafeBufferPointer { bytes in
                        StateRecord(UnsafeBufferPointer(rebasing: bytes[start..<(start + line.location.length)]))
                    } : nil
                    let previous = keepingPrevious ? state : nil
                    if let record {
                        if let keyframe = record.state {
                            state = keyframe
                        } else if state != nil, let patch = record.patch,
                                  line.flags.isDisjoint(with: [.afterDamage, .sessionStart, .afterGap]) {
                            // In place: the only other reference (`previous`) is kept only when asked for.
                            do { try patch.apply(to: &state!) } catch { state = nil }
                        } else {
                            state = nil
                        }
                    } else {
                        state = nil
                    }
                    let step = StateScanStep(
                        index: batchStart + position, lineNumber: line.lineNumber,
                        actionType: record?.actionType ?? "", changedPaths: record?.changedPaths ?? [],
                        patch: record?.patch, state: state, previousState: previous, isReadable: record != nil)
                    if !body(step) { return }
                }
                first = end
            }
            batchStart = batchEnd
        }
    }
}

/// What a state scan parses of an entry line: the action type, and the patch
/// or the keyframe's state. Nil when the line is not a readable entry.
private struct StateRecord {
    var actionType: String
    var changedPaths: [JSONPointer]
    var patch: JSONPatch?
    var state: JSONValue?

    init?(_ line: UnsafeBufferPointer<UInt8>) {
        guard let record = try? EntryRecord(line), let action = record.member("action"),
              record.member("seq") != nil else { return nil }
        // The type is skimmed out of the action (its payload is not built); an
        // unusual action (escaped keys, a type with escapes) is parsed in full.
        var type: String?
        var skimmer = JSONSkimmer(UnsafeBufferPointer(rebasing: line[action.value]))
        _ = skimmer.skimMembers(depth: 0) { key, value, _ in
            guard let key, key.equals("type") else { return true }
            type = JSONSkimmer.plainText(value).map { String(decoding: $0, as: UTF8.self) }
            return false
        }
        if type == nil { type = (try? record.sequenceAndAction())?.1.name }
        guard let type else { return nil }
        actionType = type
        if let member = record.member("state") {
            guard let state = try? JSONParser.parse(buffer: UnsafeBufferPointer(rebasing: line[member.value])) else { return nil }
            self.state = state
            changedPaths = (try? record.keyframeChangedPaths()) ?? []
        } else if let value = try? record.value("patch"), let patch = try? JSONPatch(jsonValue: value) {
            self.patch = patch
            changedPaths = patch.operations.map(\.path)
        } else {
            return nil
        }
    }
}
