import Foundation
import Dispatch

/// Minimal timing harness: runs a closure until it has taken enough time, and
/// reports the best per-iteration time, so noisy neighbours inflate nothing.
struct Benchmark {
    /// `--quick` (used by CI) shrinks sizes and repetitions to a smoke run.
    static let quick = CommandLine.arguments.contains("--quick")

    /// Best seconds per call of `body` over several rounds.
    static func measure(rounds: Int = 5, minimumSeconds: Double = 0.2, _ body: () -> Void) -> Double {
        let rounds = quick ? 1 : rounds
        let minimum = quick ? 0.0 : minimumSeconds
        var best = Double.infinity
        for _ in 0..<rounds {
            var iterations = 0
            let start = DispatchTime.now().uptimeNanoseconds
            var elapsed = 0.0
            repeat {
                body()
                iterations += 1
                elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            } while elapsed < minimum
            best = min(best, elapsed / Double(iterations))
        }
        return best
    }

    /// Best seconds per call of a baseline and of a candidate, measured in
    /// alternating rounds so that a neighbour's load, which comes and goes on
    /// a shared machine, falls on both alike rather than on whichever ran second.
    static func compare(rounds: Int = 7, minimumSeconds: Double = 0.15,
                        baseline: () -> Void, candidate: () -> Void) -> (baseline: Double, candidate: Double) {
        var best = (baseline: Double.infinity, candidate: Double.infinity)
        for _ in 0..<(quick ? 1 : rounds) {
            best.baseline = min(best.baseline, measure(rounds: 1, minimumSeconds: minimumSeconds, baseline))
            best.candidate = min(best.candidate, measure(rounds: 1, minimumSeconds: minimumSeconds, candidate))
        }
        return best
    }

    /// The `rewind` executable built beside this one, which `section` runs as a user does;
    /// nil (and a line saying so) when it has not been built.
    static func rewindExecutable(for section: String) -> String? {
        let rewind = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("rewind").path
        guard FileManager.default.isExecutableFile(atPath: rewind) else {
            print("\(section): \(rewind) is missing: build it first (swift build -c release)")
            return nil
        }
        return rewind
    }

    /// Seconds for one run of `body` (for things too slow to repeat).
    static func once(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// Wall-clock and process CPU seconds (every thread) for one run of `body`.
    /// CPU time of the calling thread alone, for an operation that runs on it
    /// (a rebuild, a parse): other threads of the process winding down (a closed
    /// recorder's writer freeing its buffers) do not count.
    static func threadCPU(_ body: () throws -> Void) rethrows -> Double {
        func cpu() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        }
        let start = cpu()
        try body()
        return cpu() - start
    }

    static func onceWithCPU(_ body: () throws -> Void) rethrows -> (wall: Double, cpu: Double) {
        func cpu() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
            return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        }
        let startCPU = cpu()
        let wall = try once(body)
        return (wall, cpu() - startCPU)
    }

    static func format(seconds: Double) -> String {
        if seconds < 1e-6 { return String(format3(seconds * 1e9)) + " ns" }
        if seconds < 1e-3 { return String(format3(seconds * 1e6)) + " µs" }
        if seconds < 1 { return String(format3(seconds * 1e3)) + " ms" }
        return String(format3(seconds)) + " s"
    }

    static func format(bytesPerSecond: Double) -> String { format3(bytesPerSecond / 1e6) + " MB/s" }

    static func format3(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return rounded >= 100 ? String(Int(rounded.rounded())) : String(rounded)
    }

    /// Prints one result row: name, figure, baseline figure and the ratio.
    static func report(_ name: String, _ figure: String, baseline: String? = nil, ratio: Double? = nil) {
        var line = name.padding(toLength: 52, withPad: " ", startingAt: 0) + figure.padding(toLength: 14, withPad: " ", startingAt: 0)
        if let baseline { line += "baseline " + baseline.padding(toLength: 14, withPad: " ", startingAt: 0) }
        if let ratio { line += "ratio " + format3(ratio) + "×" }
        print(line)
    }
}

extension Benchmark {
    /// Resident memory of this process in bytes: Linux `/proc/self/statm`; 0
    /// elsewhere (the memory rows then read 0: measured on Linux only).
    static func residentBytes() -> Int {
        #if os(Linux)
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
        #else
        return 0
        #endif
    }

    /// The same in MB.
    static func residentMegabytes() -> Double { Double(residentBytes()) / 1e6 }
}
