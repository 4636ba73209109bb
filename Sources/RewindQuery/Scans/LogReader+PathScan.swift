import Recorder

/// One entry of a path scan (``LogReader/scanPathValues(_:paths:_:)``).
package struct PathScanStep {
    /// Position in the log, from 0.
    package var index: Int
    package var actionType: String
    /// False when the entry's record could not be read (``LogReader/entry(at:)`` fails too).
    package var isReadable: Bool
    /// The values at the scan's paths in the state after the entry (nil inside: absent),
    /// nil when that state is unavailable. For an entry that does not read, the
    /// state `state(at:)` still rebuilds there (the next entry follows on from it).
    package var values: [JSONValue?]?
    /// The same in the state before the entry.
    package var previousValues: [JSONValue?]?
}

extension LogReader {
    /// ``scanStates(_:keepingPrevious:_:)`` for a reader of a few paths: each
    /// step holds the values at `paths` in the states before and after the
    /// entry, the same values ``state(at:)`` gives there, without rebuilding
    /// whole states (``PatchedPathValues``: patches are applied to those values
    /// where that is exact, keyframes are not walked past them). What
    /// `rewind find` runs over every entry.
    ///
    /// ```swift
    /// reader.scanPathValues(0..<reader.entryCount, paths: [total]) { step in
    ///     if step.values?[0]?.doubleValue ?? 0 < 0 { print(step.index) }
    ///     return true
    /// }
    /// ```
    package func scanPathValues(_ range: Range<Int>, paths: [JSONPointer], _ body: (PathScanStep) -> Bool) {
        var scan = PathScan(paths: paths)
        walkStateRecords(range, keyframes: .lazy, start: { scan.start(from: $0) }) { line in body(scan.step(line)) }
    }
}

extension LogReader {
    /// ``scanPathValues(_:paths:_:)`` over every entry of a reader opened with
    /// only the start of its file indexed (`indexing: .prefix(bytes:)`): the
    /// rest is indexed as the scan goes, each line scanned right after the
    /// index has checked it, from the same bytes. Each byte is read from the
    /// file once instead of twice (the index, then the scan), on one thread:
    /// what `rewind find DIR` runs, one recording per core. The index is
    /// complete afterwards unless `body` stopped the scan.
    ///
    /// ```swift
    /// let reader = try LogReader(path: path, indexing: .prefix(bytes: 4096))
    /// reader.indexingScanPathValues(paths: [total]) { step in
    ///     if step.values?[0]?.doubleValue ?? 0 < 0 { print(step.index) }
    ///     return true
    /// }
    /// ```
    package func indexingScanPathValues(paths: [JSONPointer], _ body: (PathScanStep) -> Bool) {
        var scan = PathScan(paths: paths)
        var going = true
        // What the reader indexed when it opened, read the usual way.
        let indexed = entryCount
        scan.start(from: header.initialState)
        walkStateRecords(0..<indexed, keyframes: .lazy, start: { scan.start(from: $0) }) { line in
            going = body(scan.step(line))
            return going
        }
        var pointers = PathPointerCache()
        // A cold recording is read past the page cache (filling it was most of a cold search's kernel time).
        let readAhead = coldReadAhead(minimumBytes: Self.directReadMinimum)
        while going && indexMore(maxBytes: Self.indexingScanStretch, prefetching: true, readAhead: readAhead, observer: { line, entry, lineNumber, flags in
            let scanned = StateScanLine(line.assumingMemoryBound(to: UInt8.self), index: entry, lineNumber: lineNumber,
                                        flags: flags, keyframes: .lazy, pointers: &pointers)
            going = body(scan.step(scanned))
            pointers.keepSpareOperations(of: scanned)
            return going
        }) {}
    }
}

/// A path scan's state from one entry to the next. Its methods are mutating so
/// that the closures of ``LogReader/walkStateRecords(_:start:_:)`` reach the
/// values in place: reading them through a captured variable copied the whole
/// ``PatchedPathValues`` (a retain per member) at every entry.
private struct PathScan {
    var tracked: PatchedPathValues
    /// The values after the entry before (nil: unavailable), handed on as the next entry's previous values.
    var current: [JSONValue?]?
    /// The previous values handed out with the last step: once that step is
    /// gone, the one reference left, so the next values are written into it
    /// instead of a new array per entry.
    private var handedOut: [JSONValue?]?

    init(paths: [JSONPointer]) {
        tracked = PatchedPathValues(watching: paths, in: .null, limits: LogLimits.patchLimits)
    }

    mutating func start(from state: JSONValue?) {
        guard let state else { return }
        tracked.reset(to: state)
        current = tracked.watchedValues
    }

    mutating func step(_ line: borrowing LogReader.StateScanLine) -> PathScanStep {
        var spare = handedOut.take() ?? []
        let previous = current
        // Whether the values after the entry are known.
        var known = true
        switch line.rebuild {
        case .keyframe(let keyframe):
            tracked.reset(to: keyframe)
        case .lazyKeyframe(let keyframe):
            tracked.reset(to: keyframe)
        case .patch(let patch) where current != nil:
            // Operation by operation: one that fails leaves the state unavailable until a keyframe.
            for operation in patch.operations where !tracked.apply(operation) {
                known = false
                break
            }
        case .patch, .none:
            known = false
        }
        if known {
            tracked.readWatchedValues(into: &spare)
            current = spare
        } else {
            current = nil
        }
        handedOut = previous
        return PathScanStep(index: line.index, actionType: line.record.actionType,
                            isReadable: line.isReadable, values: current, previousValues: previous)
    }
}
