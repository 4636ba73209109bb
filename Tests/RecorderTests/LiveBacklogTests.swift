import Testing
@testable import Recorder

/// The live stream's queue: what the listener's log holds when the queue
/// overflows or a connection drops with records in flight.
@Suite struct LiveBacklogTests {
    /// A sealed entry record with sequence number `sequence`, padded to about `size` bytes.
    static func entry(_ sequence: Int64, keyframe: Bool = false, size: Int = 100) -> [UInt8] {
        var record = Array((keyframe ? #"{"kind":"entry","keyframe":true"# : #"{"kind":"entry""#).utf8)
        record += Array(#","seq":\#(sequence),"patch":""#.utf8) + Array(repeating: UInt8(ascii: "x"), count: max(0, size - 60)) + [UInt8(ascii: "\"")]
        LogLine.seal(&record, recordStart: 0)
        return record
    }

    static let header: [UInt8] = {
        var record = Array(#"{"kind":"header","format":"rewind","version":1"#.utf8)
        LogLine.seal(&record, recordStart: 0)
        return record
    }()

    /// The kinds of the queued records, as `h`, `e3`, `k7` (keyframe) and `gap(4+3)`.
    static func summary(_ bytes: [UInt8]) -> [String] {
        var result: [String] = []
        var start = 0
        bytes.withUnsafeBytes { all in
            while start < all.count {
                let end = all[start...].firstIndex(of: 0x0A)! + 1
                let record = UnsafeRawBufferPointer(rebasing: all[start..<end])
                #expect(LogLine.verify(UnsafeRawBufferPointer(rebasing: record.dropLast())))
                switch LiveBacklog.kind(of: record) {
                case .header: result.append("h")
                case .entry(let sequence, let keyframe): result.append((keyframe ? "k" : "e") + "\(sequence)")
                case .gap(let first, let count): result.append("gap(\(first)+\(count))")
                case .other: result.append("?")
                }
                start = end
            }
        }
        return result
    }

    @Test func aFullQueueDropsEntriesUntilAKeyframeAndAGapSaysWhichAreMissing() {
        var backlog = LiveBacklog(capacity: 450)
        let dropped1 = backlog.admit(Self.header + Self.entry(0, keyframe: true) + Self.entry(1) + Self.entry(2))
        #expect(!dropped1)
        // Full: 3 and 4 are dropped, and 5 is a patch over a dropped state, so it goes too.
        let dropped2 = backlog.admit(Self.entry(3) + Self.entry(4))
        #expect(dropped2)
        #expect(Self.summary(backlog.takeAll()) == ["h", "k0", "e1", "e2"])
        let dropped3 = backlog.admit(Self.entry(5))
        #expect(dropped3)
        let dropped4 = backlog.admit(Self.entry(6, keyframe: true) + Self.entry(7))
        #expect(!dropped4)
        #expect(Self.summary(backlog.takeAll()) == ["gap(3+3)", "k6", "e7"])
        #expect(backlog.droppedEntries == 3)
    }

    @Test func reconnectingWhereTheListenerStoppedContinuesWithoutAGap() {
        var backlog = LiveBacklog(capacity: 10_000)
        _ = backlog.admit(Self.header + Self.entry(0, keyframe: true) + Self.entry(1))
        _ = backlog.takeAll()
        _ = backlog.admit(Self.entry(2) + Self.entry(3))
        // The listener got 0 and 1; 2 and 3 are still queued: nothing is lost.
        let dropped5 = backlog.resume(listenerHolds: 1)
        #expect(!dropped5)
        #expect(Self.summary(backlog.takeAll()) == ["h", "e2", "e3"])
    }

    @Test func recordsLostInFlightAreAGapBeforeTheNextKeyframe() {
        var backlog = LiveBacklog(capacity: 10_000)
        _ = backlog.admit(Self.header + Self.entry(0, keyframe: true) + Self.entry(1) + Self.entry(2))
        _ = backlog.takeAll()   // sent, but the listener died having stored only entry 0
        _ = backlog.admit(Self.entry(3))
        let dropped6 = backlog.resume(listenerHolds: 0)
        #expect(dropped6)
        #expect(Self.summary(backlog.takeAll()) == ["h"])
        _ = backlog.admit(Self.entry(4) + Self.entry(5, keyframe: true))
        #expect(Self.summary(backlog.takeAll()) == ["gap(1+4)", "k5"])
    }

    @Test func theCountOfDroppedEntriesIsWhatTheGapRecordsSay() {
        var backlog = LiveBacklog(capacity: 10_000)
        _ = backlog.admit(Self.header + Self.entry(0, keyframe: true) + Self.entry(1) + Self.entry(2))
        _ = backlog.takeAll()   // sent; the listener stored only entry 0
        _ = backlog.admit(Self.entry(3))
        _ = backlog.resume(listenerHolds: 0)
        #expect(backlog.droppedEntries == 3, "1 and 2 lost in flight, 3 a patch over them: the next gap names all three")
        _ = backlog.admit(Self.entry(4) + Self.entry(5, keyframe: true))
        #expect(Self.summary(backlog.takeAll()) == ["h", "gap(1+4)", "k5"])
        #expect(backlog.droppedEntries == 4)
    }

    @Test func aGapLostInFlightIsCountedOnceWhenTheNextGapCoversItAgain() {
        var backlog = LiveBacklog(capacity: Self.header.count + Self.entry(0, keyframe: true).count + 10)
        _ = backlog.admit(Self.header + Self.entry(0, keyframe: true))
        _ = backlog.admit(Self.entry(1) + Self.entry(2) + Self.entry(3))        // the queue is full: dropped
        #expect(Self.summary(backlog.takeAll()) == ["h", "k0"])
        backlog.confirm(upTo: 0)
        _ = backlog.admit(Self.entry(4, keyframe: true))
        #expect(backlog.droppedEntries == 3)
        #expect(Self.summary(backlog.takeAll()) == ["gap(1+3)", "k4"])
        _ = backlog.resume(listenerHolds: 0)                                     // the gap and 4 never arrived
        _ = backlog.admit(Self.entry(5, keyframe: true))
        #expect(Self.summary(backlog.takeAll()) == ["h", "gap(1+4)", "k5"])
        #expect(backlog.droppedEntries == 4, "entries 1–4 once, not the lost gap's three again")
    }

    @Test func whatIsQueuedOrUnconfirmedAtTheEndIsUndelivered() {
        var backlog = LiveBacklog(capacity: 10_000)
        _ = backlog.admit(Self.header + Self.entry(0, keyframe: true) + Self.entry(1) + Self.entry(2))
        _ = backlog.takeAll()
        #expect(backlog.awaitsConfirmation)
        backlog.confirm(upTo: 1)                 // the listener wrote 0 and 1
        _ = backlog.admit(Self.entry(3) + Self.entry(4))
        #expect(backlog.undeliveredEntries == 3, "2 sent but unconfirmed, 3 and 4 still queued")
        #expect(backlog.droppedEntries == 0)
        backlog.confirm(upTo: 2)
        #expect(backlog.undeliveredEntries == 2)
    }

    @Test func aListenerWithoutTheLogGetsTheHeaderAndAGapFromTheStart() {
        var backlog = LiveBacklog(capacity: 10_000)
        _ = backlog.admit(Self.header + Self.entry(0, keyframe: true))
        _ = backlog.takeAll()
        _ = backlog.admit(Self.entry(1) + Self.entry(2, keyframe: true))
        let dropped7 = backlog.resume(listenerHolds: nil)
        #expect(dropped7)
        #expect(Self.summary(backlog.takeAll()) == ["h", "gap(0+2)", "k2"])
    }

    @Test func theWritersOwnGapPassesThroughWhenItContinuesTheStream() {
        var backlog = LiveBacklog(capacity: 10_000)
        var gap: [UInt8] = []
        RecordEncoder.appendSealedGap(firstSequence: 1, count: 2, reason: "queue full", to: &gap)
        _ = backlog.admit(Self.header + Self.entry(0, keyframe: true) + gap + Self.entry(3, keyframe: true))
        #expect(Self.summary(backlog.takeAll()) == ["h", "k0", "gap(1+2)", "k3"])
    }

    @Test func aWelcomeAnAppCannotCountOnFromIsRefused() throws {
        for last in ["9223372036854775807", "-1", "-9223372036854775808", "1e300", "0.5", #""41""#] {
            let reply = LiveHandshake.reply(from: Array(#"{"kind":"welcome","lastSeq":\#(last)}"#.utf8))
            guard case .failure(let error) = reply else { Issue.record("\(last) was taken: \(reply)"); continue }
            #expect(error.description == "the listener's welcome holds no sequence number an app can go on from")
        }
        #expect(try LiveHandshake.reply(from: Array(#"{"kind":"welcome","lastSeq":41}"#.utf8)).get() == .welcome(lastSequence: 41, acknowledgements: false))
        #expect(try LiveHandshake.reply(from: Array(#"{"kind":"welcome"}"#.utf8)).get() == .welcome(lastSequence: nil, acknowledgements: false))
    }

    @Test func aSequenceNumberTooLongForTheFastReadIsParsed() {
        var record = Array(#"{"kind":"entry","seq":1234567890123456789,"patch":[]"#.utf8)
        LogLine.seal(&record, recordStart: 0)
        #expect(record.withUnsafeBytes { LiveBacklog.kind(of: UnsafeRawBufferPointer(rebasing: $0.dropLast())) } == .entry(sequence: 1234567890123456789, isKeyframe: false))
    }
}
