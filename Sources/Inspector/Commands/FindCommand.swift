import Foundation
import Recorder
import RewindQuery

/// `rewind find <log|dir> '<query>' [--first] [--changes] [--count]`: the
/// entries whose state satisfies a query (docs/QUERIES.md), one line each as
/// `rewind log` prints them. Like grep: exit 0 when something matched, 1 when
/// nothing did, 2 for bad input. A directory is searched recording by
/// recording on all cores, results streaming in path order.
enum FindCommand: CommandRunner {
    struct Options: Sendable {
        var mode = QueryScan.Mode.matches
        var countOnly = false
    }

    static func run(_ invocation: Invocation, streams: inout some TextStreams) -> Int32 {
        if invocation.isSet("--first") && invocation.isSet("--changes") {
            return invocation.usageError("--first and --changes cannot be combined", streams: &streams)
        }
        let query: Query
        do {
            query = try Query(parsing: invocation.positional[1])
        } catch {
            return invocation.fail("bad query at \(error.description)", streams: &streams)
        }
        var options = Options()
        if invocation.isSet("--first") { options.mode = .first }
        if invocation.isSet("--changes") { options.mode = .changes }
        options.countOnly = invocation.isSet("--count")

        let path = invocation.positional[0]
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            return FindInDirectory.run(directory: path, query: query, options: options, by: invocation.displayName, streams: &streams)
        }
        guard let timeline = openIndexingInBackground(path, program: invocation.program.name, streams: &streams) else { return 2 }
        var output = BufferedOutput()
        var listed = 0
        let unavailable = search(timeline, query: query, options: options) { line in
            listed += 1
            if let line { output.append(line, to: &streams) }
        }
        output.flush(to: &streams)
        if options.countOnly {
            streams.output(String(listed))
        } else if listed == 0 {
            streams.output("No entry of \(timeline.name.escapingControlCharacters) matches \(query.description.escapingControlCharacters.truncated(toWidth: PathSuggestion.shownWidth))")
            for note in PathSuggestion.notes(for: query.paths, in: timeline) { streams.output(note) }
        }
        if let skipped = GapDescription.skipNote(timeline, doing: "searched", program: invocation.program.name) {
            streams.error("\(invocation.displayName): " + skipped)
        }
        if unavailable > 0 {
            streams.error("\(invocation.displayName): \(timeline.name): \(unavailable) entries skipped: their state cannot be rebuilt (a damaged record or a gap before them; see \(invocation.program.name) stats)")
        }
        return listed > 0 ? 0 : 1
    }

    /// Runs the query over `timeline` and hands `found` each entry it lists:
    /// its line (nil with `countOnly`), in log order. Returns the number of
    /// entries skipped because their state is unavailable.
    @discardableResult
    static func search(_ timeline: LogTimeline, query: Query, options: Options, workers: Int = ProcessInfo.processInfo.activeProcessorCount,
                       prefix: String = "", found: (String?) -> Void) -> Int {
        var scan = QueryScan(reader: timeline.reader, query: query, mode: options.mode)
        scan.workers = workers
        // Sized once: the index may still be growing, and every line of one search has one width.
        let numberWidth = numberWidth(for: timeline)
        var unavailable = 0
        scan.run { report in
            unavailable += report.unavailable
            if options.countOnly {
                for _ in report.hits { found(nil) }
            } else {
                for line in lines(for: report.hits, in: timeline, mode: options.mode, prefix: prefix, numberWidth: numberWidth) { found(line) }
            }
            return true
        }
        return unavailable
    }

    /// The output lines of `hits`, each after `prefix`, numbered as `rewind log` numbers
    /// entries (`numberWidth`: by default sized for the timeline now).
    static func lines(for hits: [QueryScan.Hit], in timeline: LogTimeline, mode: QueryScan.Mode, prefix: String = "",
                      numberWidth: Int? = nil) -> [String] {
        guard !hits.isEmpty else { return [] }
        let width = numberWidth ?? self.numberWidth(for: timeline)
        return hits.map { prefix + line(for: $0, in: timeline, mode: mode, numberWidth: width) }
    }

    /// The width of entry numbers in lines, as `rewind log` has it. The index
    /// may still be growing: size them for the count it is heading for.
    static func numberWidth(for timeline: LogTimeline) -> Int {
        let expected = timeline.reader.isFullyIndexed ? timeline.count
            : Int(Double(timeline.count) / max(0.001, timeline.reader.indexProgress) * 1.1)
        return max(3, String(expected).count)
    }

    /// Opens `path` with only its start indexed: the rest is indexed on another
    /// thread while the query scans what is indexed (QueryScan waits for each chunk).
    static func openIndexingInBackground(_ path: String, program: String, streams: inout some TextStreams) -> LogTimeline? {
        do {
            return try LogTimeline(path: path, indexInBackground: true)
        } catch {
            streams.error("\(program): \(error.description)")
            return nil
        }
    }

    /// `  41  +2.125s  checkout.submit  → false` (the arrow only with `--changes`).
    static func line(for hit: QueryScan.Hit, in timeline: LogTimeline, mode: QueryScan.Mode, numberWidth: Int) -> String {
        var line = timeline.entry(at: hit.index).map { CommandSupport.entryLine($0, number: timeline.entryNumber(at: hit.index), numberWidth: numberWidth) }
            ?? String(timeline.entryNumber(at: hit.index)).leftPadded(toWidth: numberWidth) + "  (unreadable record)"
        if mode == .changes { line += hit.truth ? "  → true" : "  → false" }
        return line
    }
}

/// Lines collected and written 64 kB at a time: a million matches do not
/// sit in memory, nor cost a write each.
struct BufferedOutput {
    private var text = ""
    /// True when the lines hold the command's own terminal styles (see ``TextStreams/outputStyled(_:)``).
    let styled: Bool

    init(styled: Bool = false) { self.styled = styled }

    mutating func append(_ line: String, to streams: inout some TextStreams) {
        text += line
        text += "\n"
        if text.utf8.count > 1 << 16 { flush(to: &streams) }
    }

    mutating func flush(to streams: inout some TextStreams) {
        guard !text.isEmpty else { return }
        if styled { streams.outputStyled(String(text.dropLast())) } else { streams.output(String(text.dropLast())) }
        text = ""
    }
}
