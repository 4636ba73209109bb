import Foundation
import Inspector
import Recorder

/// Any bytes as a log file: opening, reading every entry and rebuilding every
/// state either works or throws a LogReadError; never a crash or a hang. The
/// same bytes searched as `rewind find` searches them (the state scan, whose
/// record heads are read in C) end with a status, never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLogReader(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let path = scratchPath
    // Plain POSIX writes: FileManager.createFile writes atomically through a
    // temporary file, which made each run wait on the disk.
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard descriptor >= 0 else { return 0 }
    let written = write(descriptor, start, count)
    close(descriptor)
    guard written == count else { return 0 }
    guard let reader = try? LogReader(path: path) else { return 0 }
    for index in 0..<reader.entryCount {
        _ = try? reader.entry(at: index)
        _ = try? reader.state(at: index)
        _ = try? reader.stateBefore(index)
    }
    _ = reader.damage
    _ = reader.tornTail
    _ = reader.refresh()
    // `--count` writes a line only for a match; the query reads paths, `changed` and the action.
    _ = RewindCommandLine.run(["find", path, "exists /a or /b/0 > 1 or changed /c or action == x", "--count"])
    return 0
}

private let scratchPath = NSTemporaryDirectory() + "rewind-fuzz-log-\(getpid()).jsonl"
