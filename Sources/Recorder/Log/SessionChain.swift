/// Checks that each record belongs to the session being read and comes in its
/// place (format 2, see ``LogChain``): damage a per-line checksum cannot see,
/// such as a duplicated, swapped, deleted or foreign line.
///
/// Format 1 sessions (no `"n"` member) only have their checksums checked.
struct SessionChain {
    /// The header's checksum, which every later record's checksum is XORed with.
    private var key: UInt32 = 0
    private var chained = false
    /// The number the next record should have.
    private var expected: Int64 = 1
    /// True when lines that could not be read came since the last record: they
    /// held records (more than one if a newline was lost), so the next record's
    /// number may be higher; that damage is reported already, and the reader
    /// rebuilds no state across it.
    private var afterUnreadable = false

    /// A line that could not be checked at all (over the size limit).
    mutating func noteUnreadableLine() { afterUnreadable = true }

    enum Verdict: Equatable {
        /// The record is where its writer put it.
        case inPlace
        /// A valid record that follows missing ones: read, but states before it
        /// cannot be used to rebuild its own (as after a damaged line).
        case afterMissing(String)
        /// A valid record that does not belong here: skipped.
        case outOfPlace(String)
        /// Not a record of this session; nil reason: the checksum fails.
        case damaged(String?)
    }

    mutating func check(_ seal: LogLine.Seal?, isHeader: Bool) -> Verdict {
        let verdict = classify(seal, isHeader: isHeader)
        switch verdict {
        case .damaged: afterUnreadable = true
        case .inPlace, .afterMissing: afterUnreadable = false
        case .outOfPlace: break
        }
        return verdict
    }

    private mutating func classify(_ seal: LogLine.Seal?, isHeader: Bool) -> Verdict {
        guard let seal else { return .damaged(nil) }
        if isHeader {
            guard seal.key == 0 else { return .damaged(nil) }
            if chained && seal.number == 0 && seal.stored == key {
                return .outOfPlace("a second copy of this session's header")
            }
            chained = seal.number == 0
            key = seal.stored
            expected = 1
            return .inPlace
        }
        guard chained else { return seal.key == 0 && seal.number == nil ? .inPlace : .damaged(nil) }
        guard let number = seal.number, seal.key == key else {
            if seal.key == 0 { return .damaged("a record from another log or session (its checksum is not chained to this session's header)") }
            // Changed bytes and a line of another chained session look the same.
            return .damaged(nil)
        }
        if number < expected {
            return .outOfPlace("record \(number) of this session again, after record \(expected - 1) (a duplicated or moved line)")
        }
        defer { expected = number < .max ? number + 1 : .max }   // a crafted number must not trap
        if number > expected && !afterUnreadable {
            let missing = number == expected + 1 ? "record \(expected) is" : "records \(expected)–\(number - 1) are"
            return .afterMissing("\(missing) missing before this line (deleted or moved)")
        }
        return .inPlace
    }
}
