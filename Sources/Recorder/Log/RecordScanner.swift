import RewindJSON

/// Finds the top-level members of a record without building their values, so
/// listing a keyframe entry never parses its (possibly megabyte) state. The
/// walking is ``JSONSkimmer``'s unchecked skipping; this only names what it finds.
enum RecordScanner {
    struct Member {
        /// The member's field; nil for keys this version does not know (or escaped ones).
        var field: RecordField?
        var value: Range<Int>
    }

    /// The members of the JSON object in `bytes`, or nil when it is not one.
    /// Only delimits values; ``JSONParser`` validates the ones that are read.
    ///
    /// With `stop`, the scan ends at the first member of that field, whose value
    /// is then only started: its range runs to the end of `bytes`.
    static func members(_ bytes: UnsafeBufferPointer<UInt8>, stoppingAt stop: RecordField? = nil) -> [Member]? {
        var skimmer = JSONSkimmer(bytes)
        skimmer.skipSpace()
        guard skimmer.position < bytes.count, bytes[skimmer.position] == UInt8(ascii: "{") else { return nil }
        skimmer.position += 1
        skimmer.skipSpace()
        var members: [Member] = []
        members.reserveCapacity(10)   // an entry has about eight
        if skimmer.position < bytes.count, bytes[skimmer.position] == UInt8(ascii: "}") { return members }
        while skimmer.position < bytes.count {
            let keyStart = skimmer.position
            guard bytes[keyStart] == UInt8(ascii: "\""), skimmer.skipUnchecked() else { return nil }
            let field = RecordField(key: UnsafeBufferPointer(rebasing: bytes[(keyStart + 1)..<(skimmer.position - 1)]))
            skimmer.skipSpace()
            guard skimmer.position < bytes.count, bytes[skimmer.position] == UInt8(ascii: ":") else { return nil }
            skimmer.position += 1
            skimmer.skipSpace()
            let valueStart = skimmer.position
            if let stop, field == stop {
                members.append(Member(field: field, value: valueStart..<bytes.count))
                return members
            }
            guard skimmer.skipUnchecked() else { return nil }
            members.append(Member(field: field, value: valueStart..<skimmer.position))
            skimmer.skipSpace()
            guard skimmer.position < bytes.count else { return nil }
            if bytes[skimmer.position] == UInt8(ascii: "}") { return members }
            guard bytes[skimmer.position] == UInt8(ascii: ",") else { return nil }
            skimmer.position += 1
            skimmer.skipSpace()
        }
        return nil
    }
}
