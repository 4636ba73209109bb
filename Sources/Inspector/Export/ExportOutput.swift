import Foundation
import Recorder

/// An export's text on its way into a file or into memory, a piece at a time, so that `e` on
/// a 30 MB diff (a 76 MB report) never holds the report: written to a file, the text goes to
/// disk every ``chunkBytes``, and at each of those the export may be cancelled (Esc) and says
/// how far it is (``fraction``, which the writer keeps up to date).
///
/// A fenced block's opening depends on what it holds (a fence longer than any run of backticks
/// inside, a fold's "(N lines)"): ``fencedBlock(language:folding:_:)`` writes its body aside
/// first (a scratch file beside the report, or a buffer) while counting both, then frames it
/// and copies it into place.
final class ExportOutput {
    /// Bytes written at once, and between two looks at whether the export was cancelled.
    static let chunkBytes = 256 << 10

    /// Where the text goes when it is not kept in memory.
    private struct Destination {
        let descriptor: Int32
        /// The name the user is told (in error messages), not the temporary one written.
        let shownPath: String
        /// The folder for the scratch file a block's body goes to first.
        let directory: String
        let isCancelled: () -> Bool
        let progress: (Double) -> Void
    }

    /// What a fenced block's body holds so far, for its opening and closing.
    private struct Block {
        var bytes: [UInt8] = []
        /// Bytes of the body already in the scratch file (written there from `bytes`).
        var inScratch = 0
        var newlines = 0
        var longestBacktickRun = 0
        var backtickRun = 0
        var endsWithNewline = false
    }

    private let destination: Destination?
    /// In memory, the whole text; into a file, what is not written yet.
    private var pending: [UInt8] = []
    private var block: Block?
    /// Reused for every block's body, unlinked as soon as it is opened (nothing is left behind).
    private var scratch: Int32?
    /// How far the export is, 0...1: reported to `progress` each time a chunk is written.
    var fraction = 0.0
    private var reported = -1

    /// Whether the export was cancelled (Esc): what is written next throws ``ExportWriteError/cancelled``.
    var isCancelled: Bool { destination?.isCancelled() ?? false }

    /// Text kept in memory (``text``): never cancelled, never failing.
    init() { destination = nil }

    /// Text written to `descriptor`, an open file that the caller closes; `shownPath` names it in
    /// errors, `directory` is where a block's scratch file goes.
    init(descriptor: Int32, shownPath: String, directory: String, isCancelled: @escaping () -> Bool,
         progress: @escaping (Double) -> Void) {
        destination = Destination(descriptor: descriptor, shownPath: shownPath, directory: directory, isCancelled: isCancelled,
                                  progress: progress)
    }

    deinit { if let scratch { close(scratch) } }

    /// The text written to memory.
    var text: String { String(decoding: pending, as: UTF8.self) }

    /// Writes `text` as it is.
    func write(_ text: String) throws(ExportWriteError) {
        try append(text, escaping: false)
    }

    /// Writes `text` with what could control a terminal escaped (``Swift/String/escapingControlCharactersKeepingLines``):
    /// a report is read with `cat` and `less` as well as in a browser.
    func writeForTerminals(_ text: String) throws(ExportWriteError) {
        try append(text, escaping: true)
    }

    /// The same for UTF-8 `bytes` of whole characters.
    func writeForTerminals(utf8 bytes: UnsafeBufferPointer<UInt8>) throws(ExportWriteError) {
        if mayNeedEscaping(bytes, escaping: true) {
            appendRaw(TerminalEscaping.escape(String(decoding: bytes, as: UTF8.self), keepingLineBreaks: true).utf8)
        } else {
            appendRaw(bytes)
        }
        try writeFullChunk()
    }

    /// A fenced code block of what `body` writes: the fence longer than any run of backticks
    /// inside, a last newline of the body dropped; with `folding`, inside `<details>` when the
    /// body has more than `lines` lines, the summary saying how many.
    func fencedBlock(language: String, folding: (summary: String, lines: Int)? = nil,
                     _ body: () throws(ExportWriteError) -> Void) throws(ExportWriteError) {
        precondition(block == nil, "fenced blocks do not nest")
        block = Block()
        do {
            try body()
        } catch {
            block = nil
            throw error
        }
        let measured = block!
        block = nil
        let fence = String(repeating: "`", count: max(3, measured.longestBacktickRun + 1))
        let trim = measured.endsWithNewline ? 1 : 0
        let lines = measured.newlines - trim + 1
        let folds = folding.map { lines > $0.lines } ?? false
        if folds, let folding { try write("<details><summary>\(folding.summary) (\(lines) lines)</summary>\n\n") }
        try write(fence + language + "\n")
        try copyBody(of: measured, dropping: trim)
        try write("\n" + fence + "\n" + (folds ? "\n</details>\n" : ""))
    }

    /// Writes what is still held to the file (the end of an export).
    func finish() throws(ExportWriteError) {
        guard let destination, !pending.isEmpty else { return }
        try writeOut(&pending, to: destination.descriptor)
    }

    // MARK: Writing

    private func append(_ text: String, escaping: Bool) throws(ExportWriteError) {
        var text = text
        if text.withUTF8({ mayNeedEscaping($0, escaping: escaping) }) {
            text = TerminalEscaping.escape(text, keepingLineBreaks: true)
        }
        appendRaw(text.utf8)
        try writeFullChunk()
    }

    /// Whether `bytes` may hold something to escape (when `escaping`); in a block, its body is counted on the way.
    private func mayNeedEscaping(_ bytes: UnsafeBufferPointer<UInt8>, escaping: Bool) -> Bool {
        if block != nil { return measure(bytes, escaping: escaping) }
        return escaping && TerminalEscaping.mayNeedEscaping(bytes, keepingLineBreaks: true)
    }

    private func appendRaw(_ bytes: some Collection<UInt8>) {
        if block != nil { block!.bytes.append(contentsOf: bytes) } else { pending.append(contentsOf: bytes) }
    }

    /// Counts a block body's newlines and runs of backticks (before escaping, as the fence is
    /// chosen for the text); returns whether `bytes` may need escaping (when `escaping`).
    private func measure(_ bytes: UnsafeBufferPointer<UInt8>, escaping: Bool) -> Bool {
        guard !bytes.isEmpty else { return false }
        var (newlines, longest, run) = (block!.newlines, block!.longestBacktickRun, block!.backtickRun)
        var mayNeedEscaping = false
        for byte in bytes {
            if byte == UInt8(ascii: "`") {
                run += 1
                if run > longest { longest = run }
                continue
            }
            run = 0
            if byte == 0x0A { newlines += 1 }
            if escaping && !mayNeedEscaping && TerminalEscaping.mayNeedEscaping(byte, keepingLineBreaks: true) { mayNeedEscaping = true }
        }
        block!.newlines = newlines
        block!.longestBacktickRun = longest
        block!.backtickRun = run
        block!.endsWithNewline = bytes.last == 0x0A
        return mayNeedEscaping
    }

    /// Sends a full chunk on: a block's body to its scratch file, the rest to the file.
    private func writeFullChunk() throws(ExportWriteError) {
        guard let destination else { return }
        if block != nil {
            guard block!.bytes.count >= Self.chunkBytes else { return }
            try moveBlockToScratch()
        } else {
            guard pending.count >= Self.chunkBytes else { return }
            try writeOut(&pending, to: destination.descriptor)
        }
    }

    private func moveBlockToScratch() throws(ExportWriteError) {
        let descriptor = try scratchFile(emptied: block!.inScratch == 0)
        let count = block!.bytes.count
        try writeOut(&block!.bytes, to: descriptor)
        block!.inScratch += count
    }

    /// Writes `bytes` to `descriptor` and empties them, after a look at whether the export was cancelled.
    private func writeOut(_ bytes: inout [UInt8], to descriptor: Int32) throws(ExportWriteError) {
        guard let destination else { return }
        if destination.isCancelled() { throw .cancelled }
        let failure = bytes.withUnsafeBytes { WriteAll.write($0, to: descriptor).failure }
        if let failure { throw cannotWrite(failure) }
        bytes.removeAll(keepingCapacity: true)
        // Whole percents, and never back (the fractions are sums of shares, equal ones may differ in their last bit).
        let percent = Int(fraction * 100)
        if percent > reported {
            reported = percent
            destination.progress(fraction)
        }
    }

    /// The block's body into the text, without its last `dropping` bytes.
    private func copyBody(of measured: Block, dropping trim: Int) throws(ExportWriteError) {
        guard let destination, measured.inScratch > 0 else {
            pending.append(contentsOf: measured.bytes.dropLast(trim))
            return try writeFullChunk()
        }
        // The body went to the scratch file (its last part may still be in `measured.bytes`).
        let scratch = try scratchFile(emptied: false)
        if !measured.bytes.isEmpty, let failure = measured.bytes.withUnsafeBytes({ WriteAll.write($0, to: scratch).failure }) {
            throw cannotWrite(failure)
        }
        try writeOut(&pending, to: destination.descriptor)
        let length = measured.inScratch + measured.bytes.count - trim
        var offset = 0
        var chunk = [UInt8](repeating: 0, count: Self.chunkBytes)
        while offset < length {
            let wanted = min(Self.chunkBytes, length - offset)
            let read = chunk.withUnsafeMutableBytes { pread(scratch, $0.baseAddress, wanted, off_t(offset)) }
            guard read > 0 else { throw cannotWrite(read < 0 ? errno : EIO) }
            pending.append(contentsOf: chunk[..<read])
            offset += read
            try writeOut(&pending, to: destination.descriptor)
        }
    }

    /// The scratch file, made on first use; `emptied`: cut to nothing for a new body.
    private func scratchFile(emptied: Bool) throws(ExportWriteError) -> Int32 {
        guard let destination else { preconditionFailure("a scratch file is only for a file's text") }
        if let scratch {
            if emptied {
                guard ftruncate(scratch, 0) == 0, lseek(scratch, 0, SEEK_SET) == 0 else { throw cannotWrite(errno) }
            }
            return scratch
        }
        // Beside the report (on the disk the user chose, not a RAM-backed /tmp), removed at once.
        var template = Array(((destination.directory as NSString).appendingPathComponent(".rewind-export-XXXXXX")).utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw cannotWrite(errno) }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        scratch = descriptor
        return descriptor
    }

    private func cannotWrite(_ code: Int32) -> ExportWriteError {
        ExportWriteError(description: "cannot write \(destination?.shownPath ?? "the export"): \(String(cString: strerror(code)))")
    }
}
