import Foundation
import Inspector
import Recorder

// `rewind ls DIR` over 10,000 recordings: headers and last records only.
//  - 10,000 real logs of about 3 KB (a header and 20 entries each);
//  - 10,000 logs of 1 MB each, 10 GB in all, written sparse (a header, a hole,
//    then the last entries) because the benchmark box cannot spare 10 GB: the
//    list reads the same bytes from each (first and last 16 KB), so this shows
//    that the total size does not matter. Files are in the page cache (just
//    written); a cold disk adds its seek time per file.
//
//   swift run -c release rewind-bench catalog
func runCatalogBenchmarks() {
    print("\n## catalog (rewind ls)")
    let count = Benchmark.quick ? 200 : 10_000
    for sparse in [false, true] {
        var template = Array("/tmp/rewind-bench-catalog-XXXXXX".utf8CString)
        let directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var bytes: Int64 = 0
        for index in 0..<count {
            let folder = directory + "/run-\(index / 500)"
            if index % 500 == 0 { try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
            bytes += writeLog(folder + "/Tests.case\(index).jsonl", index: index, apparentSize: sparse ? 1 << 20 : nil)
        }
        var listed = 0
        let first = Benchmark.once { listed = RecordingCatalog.list(directory).count }
        var best = first
        for _ in 0..<(Benchmark.quick ? 0 : 2) { best = min(best, Benchmark.once { listed = RecordingCatalog.list(directory).count }) }
        guard listed == count else {
            print("listed \(listed) of \(count) recordings: catalog benchmark invalid")
            return
        }
        let size = bytes >= 1_000_000_000 ? "\(Double(bytes / 100_000_000) / 10) GB" : "\(bytes / 1_000_000) MB"
        let name = "ls \(count) recordings, \(size)\(sparse ? " (sparse)" : "")"
        Benchmark.report(name, Benchmark.format(seconds: best), baseline: Benchmark.format(seconds: first) + " (1st)")
    }
}

/// A header and 20 keyframe entries; with `apparentSize`, a hole before the entries
/// makes the file that long (the hole reads as zeros: a full read would call it damage).
private func writeLog(_ path: String, index: Int, apparentSize: Int64?) -> Int64 {
    var head: [UInt8] = Array(#"{"kind":"header","format":"rewind","version":1,"created":\#(1_767_258_000 + index),"process":"xctest","stateType":"S","actionType":"A","keyframeInterval":32,"options":{},"metadata":{"test":"Tests/case\#(index)()"},"stateReplayable":true"#.utf8)
    LogLine.seal(&head, recordStart: 0)
    var tail: [UInt8] = []
    for sequence in 0..<20 {
        let start = tail.count
        tail += Array(#"{"kind":"entry","keyframe":true,"seq":\#(sequence),"time":\#(1_767_258_000 + index),"durationNs":1000,"action":{"type":"tick","payload":{"n":\#(sequence)},"replayable":true},"changed":[""],"state":{"count":\#(sequence),"label":"item \#(sequence)"}"#.utf8)
        LogLine.seal(&tail, recordStart: start)
    }
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard descriptor >= 0 else { return 0 }
    defer { close(descriptor) }
    _ = head.withUnsafeBytes { write(descriptor, $0.baseAddress!, $0.count) }
    if let apparentSize {
        // The hole ends on a newline so the tail's first entry starts a line.
        let offset = apparentSize - Int64(tail.count) - 1
        lseek(descriptor, off_t(offset), SEEK_SET)
        var newline: UInt8 = 0x0A
        _ = write(descriptor, &newline, 1)
    }
    _ = tail.withUnsafeBytes { write(descriptor, $0.baseAddress!, $0.count) }
    return apparentSize ?? Int64(head.count + tail.count)
}
