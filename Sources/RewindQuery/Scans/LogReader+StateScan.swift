import Foundation
import Recorder

/// One entry of a state scan (``LogReader/scanStates(_:keepingPrevious:_:)``).
package struct StateScanStep {
    /// Position in the log, from 0.
    package var index: Int
    /// 1-based line number in the file.
    package var lineNumber: Int
    package var actionType: String
    /// The paths the entry changed (the patch's paths, or a keyframe's `changed` list).
    /// Made when read: a query over every entry rarely asks, and an array per entry cost a tenth of its scan.
    package var changedPaths: [JSONPointer] {
        get { listedChangedPaths ?? patch?.operations.map(\.path) ?? [] }
        set { listedChangedPaths = newValue }
    }
    /// A keyframe's list (or one set by hand); nil reads the patch's paths.
    private var listedChangedPaths: [JSONPointer]?
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
        self.listedChangedPaths = changedPaths
        self.patch = patch
        self.state = state
        self.previousState = previousState
        self.isReadable = isReadable
    }

    /// A step whose changed paths are the patch's when it has one, else `keyframeChanged`.
    init(index: Int, lineNumber: Int, actionType: String, keyframeChanged: [JSONPointer], patch: JSONPatch?,
         state: JSONValue?, previousState: JSONValue?, isReadable: Bool) {
        self.init(index: index, lineNumber: lineNumber, actionType: actionType, changedPaths: [], patch: patch,
                  state: state, previousState: previousState, isReadable: isReadable)
        listedChangedPaths = patch == nil ? keyframeChanged : nil
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
        var state: JSONValue?
        // What the patches since the last whole state may build (a log from elsewhere may copy a value into itself).
        var limits = LogLimits.patchLimits
        walkStateRecords(range, start: { state = $0 }) { line in
            let previous = keepingPrevious ? state : nil
            line.advance(&state, limits: &limits)
            return body(StateScanStep(
                index: line.index, lineNumber: line.lineNumber,
                actionType: line.record.actionType, keyframeChanged: line.record.keyframeChanged,
                patch: line.patch, state: line.isReadable ? state : nil, previousState: previous, isReadable: line.isReadable))
        }
    }

    /// One entry line of a state scan: what it holds, and what the state after it is rebuilt from.
    struct StateScanLine: ~Copyable {
        var index: Int
        var lineNumber: Int
        /// False when the line does not read as an entry (``LogReader/entry(at:)`` fails too).
        var isReadable: Bool
        /// The entry as the scan reads it; empty when it does not read as one. Not
        /// optional: reading a member through an optional copied the whole record
        /// (retains and releases on every entry of a scan).
        var record: StateRecord
        /// What the state after the entry is rebuilt from. For a line that does not read
        /// as an entry, what `state(at:)` still takes from it (its `state` or `patch`
        /// member alone), so the states after it are the ones `state(at:)` gives.
        /// `.patch` only where a patch follows on from the state before (no damage,
        /// gap or new session in between); `.none` when the state is unavailable.
        var rebuild: Rebuild

        enum Rebuild {
            case keyframe(JSONValue)
            /// A keyframe read with ``KeyframeReading/lazy``.
            case lazyKeyframe(LazyJSONDocument)
            case patch(JSONPatch)
            case none
        }

        /// The line's bytes, while the walk's body runs (nil when it could not be read).
        var bytes: UnsafeBufferPointer<UInt8>?

        /// Turns the state before this entry into the state after it: in place (the caller keeps
        /// another reference only when it asks for the previous state), operation by operation
        /// without undo steps (a patch that fails leaves no state anyway); nil when it is unavailable.
        /// Each operation is charged to `limits` (what patches may build; a keyframe starts them again).
        func advance(_ state: inout JSONValue?, limits: inout PatchLimits) {
            switch rebuild {
            case .keyframe(let keyframe):
                state = keyframe
                limits.restart()
            case .lazyKeyframe(let keyframe):
                state = keyframe.whole
                limits.restart()
            case .patch(let patch) where state != nil:
                do {
                    for operation in patch.operations { try JSONPatch.apply(operation, to: &state!, limits: &limits) }
                } catch {
                    state = nil
                }
            case .patch, .none:
                state = nil
            }
        }

        /// The record's patch (nil for a keyframe or a line that does not read), whether or not the state follows on from it.
        var patch: JSONPatch? {
            guard isReadable else { return nil }
            if case .patch(let patch) = rebuild { return patch }
            return record.patch
        }

        /// The operations array of the patch this line is rebuilt from, once the line is done
        /// (nil for anything else): its storage is reused for a later entry's patch.
        consuming func takeOperations() -> [JSONPatchOperation]? {
            guard case .patch(let patch) = rebuild else { return nil }
            return patch.operations
        }

        /// Reads the entry line `bytes` (nil: it could not be read), whose index `flags` say whether its patch follows on.
        init(_ bytes: UnsafeBufferPointer<UInt8>?, index: Int, lineNumber: Int, flags: LogIndex.EntryFlags,
             keyframes: KeyframeReading = .parsed, pointers: inout PathPointerCache) {
            self.index = index
            self.lineNumber = lineNumber
            self.bytes = bytes
            rebuild = .none
            let followsOn = flags.followsOn
            record = StateRecord()
            guard let bytes, record.read(bytes, keyframes: keyframes, pointers: &pointers) else {
                isReadable = false
                record = StateRecord()
                guard let members = bytes.flatMap(LogReader.stateMembersAlone) else { return }
                if let keyframe = members.state {
                    rebuild = .keyframe(keyframe)
                } else if let patch = members.patch, followsOn {
                    rebuild = .patch(patch)
                }
                return
            }
            isReadable = true
            if let lazy = record.lazyState {
                rebuild = .lazyKeyframe(lazy)
            } else if let keyframe = record.state {
                rebuild = .keyframe(keyframe)
            } else if followsOn, let patch = record.patch.take() {
                // Moved, not shared: one reference to count per entry (``patch`` reads it here).
                rebuild = .patch(patch)
            }
        }
    }

    /// The reading under every state scan: the entries in `range` in order,
    /// neighbours read with one `pread`, each handed to `body` until it returns
    /// false. `start` first receives the state before the range.
    /// `keyframes`: how keyframes are read (``StateScanStep`` needs them parsed).
    func walkStateRecords(_ range: Range<Int>, keyframes: KeyframeReading = .parsed, start: (JSONValue?) -> Void, _ body: (borrowing StateScanLine) -> Bool) {
        let range = range.clamped(to: 0..<entryCount)
        guard !range.isEmpty else { return }
        start(range.lowerBound == 0 ? header.initialState : try? self.state(at: range.lowerBound - 1))
        var buffer: [UInt8] = []
        var pointers = PathPointerCache()
        var batchStart = range.lowerBound
        while batchStart < range.upperBound {
            let batchEnd = min(range.upperBound, batchStart + Self.scanBatchEntries)
            let (file, lines) = stateScanLocations(batchStart..<batchEnd)
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
                    // A short read: the file was cut since it was indexed (entry(at:) fails too).
                    let going = buffer.withUnsafeBufferPointer { bytes in
                        let scanned = StateScanLine(start + line.location.length <= read ? UnsafeBufferPointer(rebasing: bytes[start..<(start + line.location.length)]) : nil,
                                                    index: batchStart + position, lineNumber: line.lineNumber, flags: line.flags,
                                                    keyframes: keyframes, pointers: &pointers)
                        let going = body(scanned)
                        pointers.keepSpareOperations(of: scanned)
                        return going
                    }
                    if !going { return }
                }
                first = end
            }
            batchStart = batchEnd
        }
    }

    /// An entry line's state or patch as ``state(at:)`` reads them (``StateStep``: those members
    /// alone, whatever the rest of the record holds); nil when it cannot.
    fileprivate static func stateMembersAlone(_ line: UnsafeBufferPointer<UInt8>) -> (state: JSONValue?, patch: JSONPatch?)? {
        switch try? StateStep(line: line) {
        case .keyframe(let range)?:
            guard let state = try? JSONParser.parse(buffer: UnsafeBufferPointer(rebasing: line[range])) else { return nil }
            return (state, nil)
        case .patch(let range)?:
            guard let value = try? JSONParser.parse(buffer: UnsafeBufferPointer(rebasing: line[range])),
                  let patch = try? JSONPatch(jsonValue: value) else { return nil }
            return (nil, patch)
        case nil:
            return nil
        }
    }
}

/// How a state scan reads a keyframe's state.
enum KeyframeReading {
    /// Parsed, and its `changed` list read: a scan that hands out whole states.
    case parsed
    /// Checked and kept as its bytes, its `changed` list not read: a path scan,
    /// which looks up a few values in it (``LazyJSONDocument``).
    case lazy
}

/// What a state scan parses of an entry line: the action type, and the patch
/// or the keyframe's state (``read(_:keyframes:pointers:)`` says whether the line is a readable entry).
///
/// Readable exactly when ``LogReader/entry(at:)`` reads it: the line is read as
/// the batched scans read it (``EntryAsWritten``, which checks what ``ParsedEntry``
/// would parse, falling back to it where it cannot judge); only then are the patch
/// or the state parsed.
struct StateRecord {
    var actionType = ""
    var patch: JSONPatch?
    var state: JSONValue?
    /// A keyframe's state read with ``KeyframeReading/lazy`` (then `state` is nil).
    var lazyState: LazyJSONDocument?
    /// A keyframe's `changed` list; a patch's paths are read from the patch.
    var keyframeChanged: [JSONPointer] = []

    /// An empty record: what a line that does not read holds.
    init() {}

    /// Reads `line` into this (empty) record; false when it is not a readable entry.
    /// In place, not a failable init: the state scan's line holds the record, and
    /// returning one as an optional copied it out (retains and releases per entry).
    mutating func read(_ line: UnsafeBufferPointer<UInt8>, keyframes: KeyframeReading = .parsed, pointers: inout PathPointerCache) -> Bool {
        guard let written = EntryAsWritten.read(line, trackingCompactness: false, pointers: &pointers) else {
            // Not as a recorder writes it: the reference decides, and gives everything.
            guard let parsed = try? ParsedEntry(line: line, index: 0, lineNumber: 0, sessionStart: nil) else { return false }
            actionType = parsed.entry.action.name
            patch = parsed.patch
            keyframeChanged = parsed.entry.changedPaths
            if let range = parsed.stateRange {
                guard let state = try? JSONParser.parse(buffer: UnsafeBufferPointer(rebasing: line[range])) else { return false }
                self.state = state
            }
            return true
        }
        actionType = pointers.actionType(written.actionType)
        switch written.body {
        case .keyframe(_, let stateBytes) where keyframes == .lazy:
            switch LazyJSONDocument.read(stateBytes) {
            case .lazy(let document)?: lazyState = document
            case .parsed(let state)?: self.state = state
            case nil: return false
            }
        case .keyframe(let changed, let stateBytes):
            guard let state = try? JSONParser.parse(buffer: stateBytes, shapes: &pointers.objectShapes) else { return false }
            self.state = state
            keyframeChanged = EntryRecord.pointers(in: try? JSONParser.parse(buffer: changed))
        case .patch(let bytes, let asWritten):
            guard let patch = asWritten ?? ScannedEntry.referencePatch(bytes) else { return false }
            self.patch = patch
        }
        return true
    }
}

extension PathPointerCache {
    /// Keeps the storage of `line`'s patch for the next patch read, when nothing else holds it.
    mutating func keepSpareOperations(of line: consuming LogReader.StateScanLine) {
        guard let operations = line.takeOperations() else { return }
        keepSpare(operations)
    }
}
