import Dispatch
import Foundation

/// When and how far the parser splits a large array of objects across cores.
/// Public only to tests and the fuzz target (`@_spi(Testing)`), which compare
/// split and sequential parses.
@_spi(Testing) public struct ArraySplitting: Sendable {
    /// Arrays with fewer bytes of input left are parsed in one go: on small
    /// ones, handing work to another core costs about what it saves.
    public var minimumBytes: Int
    /// Runs an array is split into, parsed concurrently.
    public var runs: Int

    /// Splits arrays of at least `minimumBytes` bytes into `runs` runs.
    public init(minimumBytes: Int, runs: Int) {
        self.minimumBytes = minimumBytes
        self.runs = runs
    }

    /// One run per core, up to 8, for arrays with 256 kB or more of input left
    /// (a 500 kB state parses about a quarter faster split in two); nil on a single core.
    static let onThisMachine: ArraySplitting? = {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        return cores > 1 ? ArraySplitting(minimumBytes: 1 << 18, runs: min(cores, 8)) : nil
    }()

    /// Arrays nested deeper than this are never split: a state's big
    /// collections sit near the top.
    static let deepestArray = 4
}

/// Large arrays of objects (the records of a big state, the rows of a table)
/// are parsed on several cores, speculatively. Each later run starts at a
/// guessed element boundary: a comma followed by the bytes the first element
/// starts with (`{"id":`), found near its share of the input. Every run
/// parses elements until it lands exactly on the next run's starting comma;
/// a run that lands there has proved the next run's guess right, since it
/// reached that comma as the sequential parse would. A run whose successor
/// guessed wrong carries on to the array's end by itself, and the runs after
/// it are dropped. So the outcome, errors included, is always exactly a
/// sequential parse's; a wrong guess only costs the speed-up.
extension _Parser {
    /// The elements of the array whose first element starts at `first`
    /// (after '[' and whitespace, not ']'), parsed in concurrent runs; nil
    /// (with nothing consumed) when the array is not worth splitting.
    mutating func parseLargeArray(depth: Int, firstElementAt first: Int) throws(JSONParseError) -> [JSONValue]? {
        guard let splitting, depth <= ArraySplitting.deepestArray, bytes.count - first >= splitting.minimumBytes else { return nil }
        let guesses = Self.guessBoundaries(in: bytes, firstElementAt: first, runs: splitting.runs)
        guard !guesses.isEmpty else { return nil }
        let runs = SpeculativeRuns(bytes: bytes, rejectsDuplicateKeys: rejectsDuplicateKeys, first: first, guesses: guesses)
        defer { runs.free() }
        DispatchQueue.concurrentPerform(iterations: runs.count) { index in runs.parse(index, depth: depth) }

        // Follow the runs while each landed where the next one started.
        var chainEnd = 0
        while true {
            switch runs.outcomes[chainEnd] {
            case .failed(let error): throw error
            case .landed: chainEnd += 1
            case .abandoned:
                preconditionFailure("only runs after the chain's end are abandoned")
            case .closed(let end):
                position = end
                return runs.elements(ofFirst: chainEnd + 1)
            case nil:
                preconditionFailure("every run has an outcome")
            }
        }
    }

    /// Offsets of commas that probably separate elements of the array, one
    /// near each run's share of the rest of the input, in increasing order;
    /// empty when the elements are not objects.
    private static func guessBoundaries(in bytes: UnsafeBufferPointer<UInt8>, firstElementAt first: Int, runs: Int) -> [Int] {
        guard bytes[first] == UInt8(ascii: "{") else { return [] }
        // The first element's opening up to its first key's colon, e.g. `{"id":`.
        var patternEnd = first + 1
        while patternEnd < min(bytes.count, first + 48), bytes[patternEnd] != UInt8(ascii: ":") { patternEnd += 1 }
        guard patternEnd < bytes.count, bytes[patternEnd] == UInt8(ascii: ":") else { return [] }
        let pattern = bytes.baseAddress! + first
        let patternLength = patternEnd - first + 1
        var guesses: [Int] = []
        for run in 1..<runs {
            var candidate = max(first + (bytes.count - first) * run / runs, (guesses.last ?? first) + 1)
            while candidate + patternLength <= bytes.count {
                guard let found = memchr(bytes.baseAddress! + candidate, Int32(UInt8(ascii: "{")), bytes.count - candidate - patternLength + 1) else { break }
                let offset = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - bytes.baseAddress!
                candidate = offset + 1
                guard memcmp(bytes.baseAddress! + offset, pattern, patternLength) == 0 else { continue }
                // Preceded, past any whitespace, by a comma.
                var comma = offset - 1
                while comma > first, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[comma]) { comma -= 1 }
                if bytes[comma] == UInt8(ascii: ",") {
                    guesses.append(comma)
                    break
                }
            }
        }
        return guesses
    }

    /// Parses array elements from `position`, keeping them on the value
    /// stack, until the array closes or (when `stop` is given) the comma at
    /// `stop` is reached exactly: the one element loop, for a whole array as
    /// for a run of a split one. Passing `stop` means the next run guessed
    /// wrong, and this run goes on to the end. `isAbandoned` is asked every
    /// 32 elements (it takes a lock): an earlier run ended the chain, so this
    /// one is wasted.
    mutating func parseRun(depth: Int, stoppingAt stop: Int? = nil, passedStop: () -> Void = {},
                           isAbandoned: () -> Bool = { false }) -> RunOutcome {
        var stop = stop
        var elements = 0
        while true {
            skipWhitespace()
            do throws(JSONParseError) { pushValue(try parseValue(depth: depth)) } catch { return .failed(error) }
            skipWhitespace()
            guard position < bytes.count else { return .failed(error("unexpected end of input inside an array")) }
            switch bytes[position] {
            case UInt8(ascii: ","):
                if let next = stop {
                    if position == next { return .landed }
                    if position > next {
                        stop = nil
                        passedStop()
                    }
                }
                elements += 1
                if elements % 32 == 0 && isAbandoned() { return .abandoned }
                position += 1
            case UInt8(ascii: "]"):
                return .closed(end: position + 1)
            default:
                return .failed(error("expected ',' or ']' after an array element"))
            }
        }
    }
}

/// How a run of array elements ended.
enum RunOutcome {
    /// At the comma where the next run started.
    case landed
    /// At the array's ']'; `end` is just past it.
    case closed(end: Int)
    case failed(JSONParseError)
    /// Stopped early: an earlier run ended the chain of proven runs.
    case abandoned
}

/// The parsers of one array's runs, each used by exactly one iteration of a
/// concurrent loop and read by the caller once all have finished: hence
/// unchecked Sendable. Run 0 starts at the first element, run i after
/// comma `guesses[i - 1]`.
private final class SpeculativeRuns: @unchecked Sendable {
    let count: Int
    // Raw memory, not arrays: concurrent writes to distinct elements of an
    // Array (or any class property) would still race on the array itself.
    private let parsers: UnsafeMutablePointer<_Parser>
    let outcomes: UnsafeMutablePointer<RunOutcome?>
    private let starts: [Int]
    private let stops: [Int?]

    init(bytes: UnsafeBufferPointer<UInt8>, rejectsDuplicateKeys: Bool, first: Int, guesses: [Int]) {
        count = guesses.count + 1
        parsers = .allocate(capacity: count)
        parsers.initialize(repeating: _Parser(bytes: bytes, rejectsDuplicateKeys: rejectsDuplicateKeys), count: count)
        outcomes = .allocate(capacity: count)
        outcomes.initialize(repeating: nil, count: count)
        starts = [first] + guesses.map { $0 + 1 }
        stops = guesses.map { $0 } + [nil]
    }

    func parse(_ index: Int, depth: Int) {
        parsers[index].position = starts[index]
        let outcome = parsers[index].parseRun(depth: depth, stoppingAt: stops[index],
                                              passedStop: { endChain(after: index) },
                                              isAbandoned: { index > chainEnd.withLock { $0 } })
        if case .landed = outcome {} else { endChain(after: index) }
        outcomes[index] = outcome
    }

    /// The lowest run known to end the chain of proven runs (closed, failed
    /// or passed the next run's start): the runs after it are wasted work, and
    /// stop soon (a wrong guess past a small array's end would otherwise parse
    /// half of a large array for nothing).
    private let chainEnd = Locked(Int.max)

    private func endChain(after index: Int) {
        chainEnd.withLock { $0 = min($0, index) }
    }

    /// The elements of runs `0..<runCount`, in order, moved off their stacks.
    func elements(ofFirst runCount: Int) -> [JSONValue] {
        let total = (0..<runCount).reduce(0) { $0 + parsers[$1].stackedValueCount }
        return [JSONValue](unsafeUninitializedCapacity: total) { destination, initialized in
            for index in 0..<runCount {
                initialized += parsers[index].moveStackedValues(to: destination.baseAddress! + initialized)
            }
        }
    }

    func free() {
        for index in 0..<count { parsers[index].releaseStorage() }
        parsers.deinitialize(count: count)
        parsers.deallocate()
        outcomes.deinitialize(count: count)
        outcomes.deallocate()
    }
}
