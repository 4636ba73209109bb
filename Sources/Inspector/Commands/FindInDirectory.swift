import Foundation
import Recorder
import RewindQuery

/// `rewind find <dir> '<query>'`: every recording under a directory, one per
/// core at a time, results written in path order as soon as the recordings
/// before them are done. Lines are `path  <entry line>`; with `--count`,
/// `path: N` for each recording that has a match.
enum FindInDirectory {
    /// What one recording gave.
    struct Result: Sendable {
        var path: String
        var lines: [String] = []
        var count = 0
        /// False for a file that is not a recording (skipped quietly).
        var isRecording = true
        /// One line for a recording that could not be read (not for files that are not logs).
        var error: String?
        var unavailable = 0
    }

    /// `command` is how messages start: `rewind find`, or a debug executable's name.
    static func run(directory: String, query: Query, options: FindCommand.Options, by command: String = "rewind find",
                    streams: inout some TextStreams) -> Int32 {
        // Whether each file is a recording is told by the worker that opens it, not
        // before the search: reading 200 files' first bytes one after another,
        // cold, kept the CPUs idle for the first fifth of a second.
        let paths = files(under: directory)
        var output = BufferedOutput()
        var total = 0, matchingRecordings = 0, recordings = 0
        let workers = ProcessInfo.processInfo.activeProcessorCount
        // Recordings are opened and asked of the disk two per worker ahead of the
        // search, so a cold disk reads while the CPUs search.
        let readAhead = 2 * workers
        // The files opened ahead, by item, and the items workers have taken so far (in order).
        let prefetched = Locked<(files: [Int: PrefetchedFile], taken: Int)>(([:], 0))
        @Sendable func prefetch(_ item: Int) {
            guard item < paths.count, let file = LogReader.prefetch(path: paths[item]) else { return }
            // A worker that took the item meanwhile opened it itself: this one is let go (here, unlocked).
            prefetched.withLock { if item >= $0.taken { $0.files[item] = file } }
        }
        for item in 0..<readAhead { prefetch(item) }
        ParallelInOrder.run(count: paths.count, workers: workers, work: { item in
            prefetch(item + readAhead)
            let file = prefetched.withLock { state in
                state.taken = max(state.taken, item + 1)
                return state.files.removeValue(forKey: item)
            }
            return search(paths[item], prefetched: file, query: query, options: options)
        }) { result in
            guard result.isRecording else { return true }
            recordings += 1
            if let error = result.error {
                output.flush(to: &streams)
                streams.error("\(command): \(error)")
            }
            for line in result.lines { output.append(line, to: &streams) }
            if options.countOnly, result.count > 0 { output.append("\(result.path): \(result.count)", to: &streams) }
            if result.unavailable > 0 {
                output.flush(to: &streams)
                streams.error("\(command): \(result.path): \(result.unavailable) entries skipped: their state cannot be rebuilt")
            }
            total += result.count
            if result.count > 0 { matchingRecordings += 1 }
            return true
        }
        output.flush(to: &streams)
        guard recordings > 0 else {
            streams.error("\(command): \(directory): no Rewind recordings in this directory")
            return 2
        }
        if total == 0 && !options.countOnly {
            streams.output("No entry in the \(recordings) recordings under \(directory.escapingControlCharacters) matches \(query.description.escapingControlCharacters)")
        }
        return total > 0 ? 0 : 1
    }

    /// One recording, on a worker thread (its chunks are not split further: the
    /// recordings are), indexed as it is searched: each byte is read from the file once.
    static func search(_ path: String, prefetched: PrefetchedFile? = nil, query: Query, options: FindCommand.Options) -> Result {
        var result = Result(path: path)
        let timeline: LogTimeline
        do {
            // The header and the first entries; the search indexes the rest.
            timeline = try LogTimeline(path: path, indexingFirst: 4096, prefetched: prefetched)
        } catch {
            if error.isNotARecording { result.isRecording = false } else { result.error = error.description }
            return result
        }
        let report = QueryScan(reader: timeline.reader, query: query, mode: options.mode).runIndexing()
        result.unavailable = report.unavailable
        result.count = report.hits.count
        if !options.countOnly { result.lines = FindCommand.lines(for: report.hits, in: timeline, mode: options.mode, prefix: path.escapingControlCharacters + "  ") }
        return result
    }

    /// The regular files under `directory` (recursively; hidden files and folders, and links, skipped), sorted by path.
    static func files(under directory: String) -> [String] {
        // `readdir`, whose entries carry their type: FileManager's enumerator looked up
        // each file's owner and group by name (reading /etc/passwd and /etc/group per
        // file), which kept a cold search of 200 recordings from starting for tens of milliseconds.
        var paths: [String] = []
        func walk(_ folder: String) {
            guard let stream = opendir(folder) else { return }
            defer { closedir(stream) }
            while let entry = readdir(stream) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
                guard !name.hasPrefix(".") else { continue }
                let path = (folder as NSString).appendingPathComponent(name)
                var type = entry.pointee.d_type
                if type == UInt8(DT_UNKNOWN) {
                    // Some file systems do not say: ask (not following a link, as the entry's own type would not).
                    var status = stat()
                    guard lstat(path, &status) == 0 else { continue }
                    switch status.st_mode & S_IFMT {
                    case S_IFDIR: type = UInt8(DT_DIR)
                    case S_IFREG: type = UInt8(DT_REG)
                    case S_IFLNK: type = UInt8(DT_LNK)
                    default: type = 0
                    }
                }
                if type == UInt8(DT_LNK) {
                    // A link to a log is searched, as `rewind ls` lists it; a link to a folder is
                    // not walked (as ls does not), so a link back up cannot loop.
                    var status = stat()
                    guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
                    type = UInt8(DT_REG)
                }
                if type == UInt8(DT_DIR) {
                    walk(path)
                } else if type == UInt8(DT_REG) {
                    paths.append(path)
                }
            }
        }
        walk(directory)
        return paths.sorted()
    }
}
