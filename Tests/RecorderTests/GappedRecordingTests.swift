import Foundation
import Recorder
import RewindTestSupport
import Testing

/// ``GappedCounter``'s log is the same whatever other tests do meanwhile: its writer's
/// hold is for the fixture's own recording, not for any encoding of a count of 1 (a replay
/// of the same log in another test encodes those too, and took the hold 2 runs in 21).
@Suite struct GappedRecordingTests {
    @Test func theLogIsTheSameWhileOtherThreadsEncodeTheSameStates() throws {
        let stop = StopFlag()
        let encoding = DispatchGroup()
        for _ in 0..<2 {
            DispatchQueue.global().async(group: encoding) {
                while !stop.isSet { _ = try? JSONEncoding.compact(GappedCounter(count: 1)) }
            }
        }
        defer {
            stop.set()
            encoding.wait()
        }
        // Each log is a race the fixture lost about one time in nine before: twenty make a loss near certain.
        for _ in 0..<20 {
            let reader = try LogReader(path: GappedCounter.writeLog())
            #expect((0..<reader.entryCount).map(reader.entryNumber(at:)) == [1, 2, 6, 8, 9, 10])
        }
    }
}

private final class StopFlag: @unchecked Sendable {
    // `@unchecked`: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
