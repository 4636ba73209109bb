/// The limits every record of a log stays within, shared by the recorder
/// (which never writes a record past them) and the reader (which refuses
/// one): a value over a limit is recorded as a gap that says why, never as a
/// line that would make the entry, later entries or the header unreadable.
package enum LogLimits {
    /// The longest line a reader accepts.
    static let maximumRecordBytes = LogReader.maximumLineBytes
    /// Room in an entry record for everything besides its state and payload.
    static let recordOverhead = 4 << 10
    /// The deepest container nesting of a recorded value. A patch puts a value
    /// three levels below the top of its record (record, patch, operation),
    /// and the parser reads at most ``JSONParser/maximumDepth`` levels.
    static let maximumValueNesting = JSONParser.maximumDepth - 3

    /// The most entries one gap record may stand for. Entry numbers count what gaps stand for,
    /// so a gap claiming 2⁶³ entries would overflow every number after it; no recorder drops
    /// a trillion entries in one go.
    static let maximumGapEntries: Int64 = 1 << 40

    /// Why a gap record (parsed) cannot be read as one, or nil: its `firstSeq` and `dropped`,
    /// when present, must be whole numbers whose range fits a sequence number.
    package static func gapProblem(_ record: JSONValue) -> String? {
        let dropped = record[RecordField.dropped.name]
        let first = record[RecordField.firstSequence.name]
        if let dropped {
            guard let count = dropped.int64Value, (0...maximumGapEntries).contains(count) else {
                return "a gap record whose \"dropped\" is not a count from 0 to \(maximumGapEntries)"
            }
        }
        if let first {
            guard let sequence = first.int64Value, (0...(Int64.max - maximumGapEntries)).contains(sequence) else {
                return "a gap record whose \"firstSeq\" is not a sequence number"
            }
        }
        return nil
    }

    /// What the patches from one whole state to the next may build when read: copies may
    /// add no more than a record holds, and nothing may nest deeper than a record may.
    /// (The recorder writes neither copies nor such nesting; a log from elsewhere may.)
    package static var patchLimits: PatchLimits {
        PatchLimits(copiedBytes: maximumRecordBytes, maximumNesting: maximumValueNesting)
    }

    /// Why a state of `bytes` bytes nested `nesting` levels deep cannot be recorded, or nil:
    /// what follows its name (`is 70 MB encoded; a log record holds at most 64 MB`).
    static func problem(bytes: Int, nesting: Int) -> String? {
        if nesting > maximumValueNesting {
            return "is nested \(nesting) levels deep; a log record holds at most \(maximumValueNesting)"
        }
        if bytes > maximumRecordBytes - recordOverhead {
            return "is \(megabytes(bytes)) encoded; a log record holds at most \(megabytes(maximumRecordBytes))"
        }
        return nil
    }

    /// A value the encoder gave up on: deeper than it nests (a reference cycle, usually).
    static let nestedTooDeepToEncode = "is nested more than \(maximumValueNesting) levels deep (a reference cycle?); "
        + "a log record holds at most \(maximumValueNesting)"

    /// Why the payload of the action `actionName` cannot be recorded, or nil
    /// (`the action load is nested 600 levels deep; a log record holds at most 509`).
    static func payloadProblem(_ payload: [UInt8], stateBytes: Int, actionName: String) -> String? {
        let nesting = payload.withUnsafeBufferPointer { _StructuralScanner.deepestNesting($0) }
        if nesting > maximumValueNesting {
            return GapReason.overLimit(.action(actionName), "is nested \(nesting) levels deep; a log record holds at most \(maximumValueNesting)")
        }
        if payload.count + stateBytes > maximumRecordBytes - recordOverhead {
            return GapReason.overLimit(.actionAndState(actionName),
                                       "are \(megabytes(payload.count + stateBytes)) encoded; a log record holds at most \(megabytes(maximumRecordBytes))")
        }
        return nil
    }

    /// `bytes` in MB for a message: "64 MB", "1.5 MB".
    static func megabytes(_ bytes: Int) -> String {
        let value = Double(bytes) / 1_048_576
        return value >= 10 ? "\(Int(value.rounded())) MB" : "\((value * 10).rounded() / 10) MB"
    }
}
