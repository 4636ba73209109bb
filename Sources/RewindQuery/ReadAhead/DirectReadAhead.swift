import CReadAhead
import Foundation
import Recorder

/// A file read from a point to its end past the page cache, a few blocks ahead
/// of the reader on threads of its own (`rewind_read_ahead_*`, CReadAhead): what
/// `rewind find DIR` reads a recording on a cold disk with.
///
/// Filling the page cache is the kernel's work on the searching CPUs; on a
/// virtual machine that gives free memory back to its host it is most of a
/// cold search (1.1 GB of recordings: 2.2–2.6 s of kernel time through the
/// cache, 0.1 s past it). Linux only: elsewhere, and on file systems that cannot
/// read past the cache, ``init(file:from:to:)`` fails and the file is read as usual.
final class DirectReadAhead: LogFileReadAhead {
    /// The file it reads (opened again past the cache: the same file).
    let file: ReadOnlyFile
    private let reader: OpaquePointer

    /// Blocks of 1 MB in a ring of six (the one being read and up to five ahead), two threads reading.
    static let blockBytes = 1 << 20
    static let depth = 6
    static let readers = 2

    init?(file: ReadOnlyFile, from offset: Int64, to end: Int64) {
        guard let reader = rewind_read_ahead_open(file.descriptor, offset, end, Self.blockBytes, Int32(Self.depth), Int32(Self.readers)) else { return nil }
        self.file = file
        self.reader = reader
    }

    deinit { rewind_read_ahead_close(reader) }

    /// The bytes at `offset` where they lie, up to `count` of them and the end of
    /// the block holding them (nil when it does not hold them): valid until the next
    /// call asks for bytes of a later block.
    func bytesInPlace(at offset: Int64, count: Int) -> UnsafeRawBufferPointer? {
        var held = Int64(count)
        guard let bytes = rewind_read_ahead_bytes(reader, offset, &held) else { return nil }
        return UnsafeRawBufferPointer(start: bytes, count: Int(held))
    }

    /// Copies what it holds of the `count` bytes at `offset` into `destination`
    /// (waiting for them to be read): how many, from the first; the caller reads the rest.
    func copy(at offset: Int64, into destination: UnsafeMutableRawPointer, count: Int) -> Int {
        Int(rewind_read_ahead_copy(reader, offset, destination, Int64(count)))
    }
}

extension ReadOnlyFile {
    /// The share of the file's pages in the page cache (0...1); nil when the system cannot tell.
    var pageCacheShare: Double? {
        let share = rewind_page_cache_share(descriptor, size)
        return share < 0 ? nil : share
    }
}

extension LogReader {
    /// Bytes an indexing scan indexes per hold of the index; the stretch after
    /// it is prefetched meanwhile (a cold disk reads while the CPU scans).
    static let indexingScanStretch = 16 << 20
    /// Bytes left to index below which a cold recording is read through the page cache
    /// all the same: starting a read-ahead's threads costs more than a small file's reads.
    static let directReadMinimum: Int64 = 1 << 20

    /// Opens the file at `path` and starts reading it, for a reader opened on it
    /// soon (``LogReader/init(prefetched:indexing:)``): `rewind find DIR` calls it for
    /// the recordings a worker will search next, so the disk is busy while the CPUs
    /// search. A file mostly not in the page cache is read past it, from its start
    /// (``DirectReadAhead``: filling the cache was most of a cold search's kernel
    /// time); for any other, the kernel is asked for its first `bytes` (a hint).
    /// Nil when the file cannot be opened (the reader then says why).
    package static func prefetch(path: String, bytes: Int = indexingScanStretch) -> PrefetchedFile? {
        guard let file = try? ReadOnlyFile(path: path) else { return nil }
        let size = file.size
        if readsPastCache(file, remaining: size, minimumBytes: directReadMinimum),
           let readAhead = DirectReadAhead(file: file, from: 0, to: size) {
            return PrefetchedFile(file: file, readAhead: readAhead)
        }
        file.prefetch(offset: 0, count: Int64(bytes))
        return PrefetchedFile(file: file, readAhead: nil)
    }
}

/// A file opened and being read ahead of its reader (``LogReader/prefetch(path:bytes:)``).
package final class PrefetchedFile: @unchecked Sendable {
    // Sendable: handed from the thread that prefetched to the one that reads, never used by both.
    let file: ReadOnlyFile
    let readAhead: DirectReadAhead?

    init(file: ReadOnlyFile, readAhead: DirectReadAhead?) {
        self.file = file
        self.readAhead = readAhead
    }
}

extension LogReader {
    /// Opens the log `prefetched` holds (``prefetch(path:bytes:)``): its header is read from
    /// what the prefetch has read, and so is the rest by ``indexingScanPathValues(paths:_:)``
    /// when the prefetch reads past the cache.
    package convenience init(path: String, indexing: Indexing, prefetched: PrefetchedFile?) throws(LogReadError) {
        try self.init(path: path, indexing: indexing, opened: prefetched?.file, readAhead: prefetched?.readAhead)
    }
}

extension LogReader {
    /// The prefetch's read-ahead when there is one (taken: the reader lets it go
    /// with the scan). Else a read-ahead of the rest of the file past the page cache, when most of it
    /// is not in the cache and there is at least `minimumBytes` left to index
    /// (``DirectReadAhead``); nil otherwise, and where the system cannot read so.
    func coldReadAhead(minimumBytes: Int64) -> DirectReadAhead? {
        let (file, scanned, size, prefetched) = takeIndexingPosition()
        if let prefetched = prefetched as? DirectReadAhead { return prefetched }
        guard Self.readsPastCache(file, remaining: size - scanned, minimumBytes: minimumBytes) else { return nil }
        return DirectReadAhead(file: file, from: scanned, to: size)
    }

    /// Whether `remaining` bytes of `file` are better read past the page cache: at least
    /// `minimumBytes` of them, and most of the file not in the cache (a system that
    /// cannot tell reads through the cache).
    static func readsPastCache(_ file: ReadOnlyFile, remaining: Int64, minimumBytes: Int64) -> Bool {
        guard remaining >= minimumBytes, let share = file.pageCacheShare else { return false }
        return share < 0.5
    }
}
