import Foundation
import Recorder
import RewindJSON

// Kills a recording process with SIGKILL at random moments and checks that
// nothing flushed before the kill is lost or misread (issue: reliability).
//
//   rewind-crash-test [--iterations N] [--seed S]     run the test (default 200 kills)
//   rewind-crash-test child LOG PROGRESS SESSION       (internal) record until killed
//   rewind-crash-test hold LOG                          (tests) record one entry, say "recording",
//                                                       keep the log open until stdin closes
//
// The child records steps forever, flushing at random intervals; after each
// flush it atomically writes how many entries it has flushed in this session.
// After each kill the parent opens the log with LogReader and requires: it
// opens; every session holds at least the flushed entries; every entry's state
// equals what the deterministic reducer produces; damage only ever appears as
// a reported torn tail. Every other kill appends to the previous log, so
// recovery of a torn tail on reopen is exercised too.

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "child", arguments.count == 4, let session = Int(arguments[3]) {
    runChild(log: arguments[1], progress: arguments[2], session: session)
}
if arguments.first == "hold", arguments.count == 2 {
    holdLog(arguments[1])
}
exit(runParent(arguments))

/// A second process with a recorder open on `log`, for the one-writer tests:
/// they wait for the "recording" line, try to record into the same file, then close stdin.
func holdLog(_ log: String) -> Never {
    do {
        let recorder = try ActionRecorder(file: log)
        var state = CrashState()
        recorder.recording(crashReducer)(&state, .step(0))
        try recorder.flush()
        FileHandle.standardOutput.write(Data("recording\n".utf8))
        _ = FileHandle.standardInput.readDataToEndOfFile()
        try recorder.close()
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("rewind-crash-test hold: \(error)\n".utf8))
        exit(3)
    }
}

func runChild(log: String, progress: String, session: Int) -> Never {
    do {
        let recorder = try ActionRecorder(file: log)
        let reducer = recorder.recording(crashReducer)
        var state = CrashState()
        var generator = SystemRandomNumberGenerator()
        var step = 0
        while true {
            let batch = Int.random(in: 1...40, using: &generator)
            for _ in 0..<batch {
                reducer(&state, .step(session * stepsPerSession + step))
                step += 1
            }
            try recorder.flush()
            let temporary = progress + ".tmp"
            try String(step).write(toFile: temporary, atomically: false, encoding: .utf8)
            _ = rename(temporary, progress)
        }
    } catch {
        FileHandle.standardError.write(Data("rewind-crash-test child: \(error)\n".utf8))
        exit(3)
    }
}

func runParent(_ arguments: [String]) -> Int32 {
    var iterations = 200
    var seed = UInt64(Date().timeIntervalSince1970)
    var index = 0
    while index < arguments.count {
        switch arguments[index] {
        case "--iterations" where index + 1 < arguments.count: iterations = Int(arguments[index + 1]) ?? iterations; index += 1
        case "--seed" where index + 1 < arguments.count: seed = UInt64(arguments[index + 1]) ?? seed; index += 1
        default:
            print("usage: rewind-crash-test [--iterations N] [--seed S]")
            return 2
        }
        index += 1
    }
    var random = SplitMix64(seed: seed)
    let directory = NSTemporaryDirectory() + "rewind-crash-\(getpid())"
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let executable = (Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])).resolvingSymlinksInPath()
    var expected = ExpectedStates()
    var totals = (entries: 0, tornTails: 0, sessions: 0)
    var verifiedEntries = 0
    print("rewind-crash-test: \(iterations) kills, seed \(seed)")

    var log = ""
    var flushedPerSession: [Int] = []
    for iteration in 0..<iterations {
        // Even iterations start a fresh log; odd ones append a session to it.
        if iteration % 2 == 0 {
            verifiedEntries += totals.entries
            totals.entries = 0
            log = directory + "/crash-\(iteration).jsonl"
            flushedPerSession = []
        }
        let progress = directory + "/progress-\(iteration)"
        let child = Process()
        child.executableURL = executable
        child.arguments = ["child", log, progress, String(flushedPerSession.count)]
        do { try child.run() } catch {
            print("rewind-crash-test: cannot start the child: \(error)")
            return 1
        }
        usleep(UInt32(5_000 + random.next() % 120_000))
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        guard child.terminationReason == .uncaughtSignal else {
            print("rewind-crash-test: iteration \(iteration): the child exited with status \(child.terminationStatus) before the kill")
            return 1
        }
        let flushed = (try? String(contentsOfFile: progress, encoding: .utf8)).flatMap { Int($0) } ?? 0
        flushedPerSession.append(flushed)
        do {
            let result = try verify(log: log, flushedPerSession: flushedPerSession, expected: &expected)
            totals.entries = result.entries
            totals.tornTails += result.tornTail ? 1 : 0
            totals.sessions += 1
        } catch {
            print("rewind-crash-test: iteration \(iteration) FAILED (seed \(seed)): \(error)")
            let kept = NSTemporaryDirectory() + "rewind-crash-failed-\(seed)-\(iteration).jsonl"
            try? FileManager.default.copyItem(atPath: log, toPath: kept)
            print("  log kept at \(kept)")
            return 1
        }
    }
    verifiedEntries += totals.entries
    print("rewind-crash-test: \(iterations) kills survived: \(verifiedEntries) entries verified, \(totals.tornTails) torn tails reported and skipped")
    return 0
}

struct VerificationFailure: Error, CustomStringConvertible {
    var description: String
}

/// Opens the log and checks every entry against the deterministic reducer.
func verify(log: String, flushedPerSession: [Int], expected: inout ExpectedStates) throws -> (entries: Int, tornTail: Bool) {
    let reader: LogReader
    do { reader = try LogReader(path: log) } catch {
        // Kills that land before any header reached the disk leave nothing to open.
        if flushedPerSession.allSatisfy({ $0 == 0 }) { return (0, false) }
        throw VerificationFailure(description: "the log does not open: \(error)")
    }
    let damage = reader.damage.filter { $0 != reader.tornTail }
    guard damage.isEmpty else {
        throw VerificationFailure(description: "damage other than a torn tail: \(damage.map(\.description).joined(separator: "; "))")
    }
    let bytes = try Data(contentsOf: URL(fileURLWithPath: log))
    if let last = bytes.last, last != UInt8(ascii: "\n"), reader.tornTail == nil {
        throw VerificationFailure(description: "the file ends without a newline but no torn tail is reported")
    }
    var entriesPerSession = Array(repeating: 0, count: flushedPerSession.count)
    for index in 0..<reader.entryCount {
        let entry = try reader.entry(at: index)
        guard case .integer(let step)? = entry.action.payload["step"]?["_0"] else {
            throw VerificationFailure(description: "entry \(index) holds an unexpected action \(entry.action.payload)")
        }
        let session = Int(step) / stepsPerSession
        let withinSession = Int(step) % stepsPerSession
        // A log opened again continues its entry numbers: every entry's sequence number is its
        // place in the whole log, across sessions (no gaps: the queue waits).
        guard session < entriesPerSession.count, withinSession == entriesPerSession[session], entry.sequence == Int64(index) else {
            throw VerificationFailure(description: "entry \(index) (session \(session), step \(withinSession), sequence \(entry.sequence)) is out of order or repeated")
        }
        entriesPerSession[session] += 1
        let state = try reader.state(at: index)
        let want = try JSONEncoding.value(of: expected.state(afterSequence: withinSession))
        guard state == want else {
            throw VerificationFailure(description: "entry \(index) (sequence \(entry.sequence)) rebuilds to a wrong state")
        }
    }
    for (session, flushed) in flushedPerSession.enumerated() where entriesPerSession[session] < flushed {
        throw VerificationFailure(description: "session \(session) had flushed \(flushed) entries but only \(entriesPerSession[session]) came back")
    }
    return (entriesPerSession.reduce(0, +), reader.tornTail != nil)
}

