import Foundation
import Testing
@testable import Recorder
import RewindJSON
import RewindTestSupport
@testable import RewindQuery

/// A cold recording read past the page cache (`DirectReadAhead`, what `rewind
/// find DIR` reads a recording on a cold disk with) gives the file's bytes,
/// exactly as `pread` does, however it is asked for them.
@Suite struct DirectReadAheadTests {
    let directory = TemporaryDirectory()

    /// A file of `count` random bytes, out of the page cache.
    private func coldFile(_ name: String, count: Int, seed: UInt64) -> (path: String, bytes: [UInt8]) {
        var generator = SplitMix64(seed: seed)
        let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let path = directory.file(name)
        writeBytes(bytes, to: path)
        PageCache.evict(path)
        return (path, bytes)
    }

    @Test func readsTheBytesPreadReadsForwardsBackAPieceAndPastItsEnd() throws {
        #if os(Linux)
        let size = 3 * DirectReadAhead.blockBytes + 12_345
        let (path, bytes) = coldFile("cold.bin", count: size, seed: 20)
        let file = try ReadOnlyFile(path: path)
        let start: Int64 = 5_000
        let readAhead = try #require(DirectReadAhead(file: file, from: start, to: Int64(size) - 100), "this file system reads past the cache")
        var generator = SplitMix64(seed: 7)
        var offset = Int(start), buffer: [UInt8] = [], reads = 0, inPlace = 0
        while offset < size {
            let count = Int.random(in: 1...(1 << 20) + 5_000, using: &generator)
            let wanted = Array(bytes[offset..<min(size, offset + count)])
            if Bool.random(using: &generator), let held = readAhead.bytesInPlace(at: Int64(offset), count: count) {
                // In place: as many as its block holds from there, never more than asked.
                #expect(held.count <= count && held.count > 0)
                #expect(held.elementsEqual(wanted.prefix(held.count)), "in place at \(offset)")
                inPlace += 1
            } else {
                let read = file.read(into: &buffer, at: Int64(offset), count: count, through: readAhead)
                #expect(read == wanted.count && buffer[..<read].elementsEqual(wanted), "copied at \(offset), \(count) bytes")
            }
            reads += 1
            // As a scan goes: on by most of what it read, back by the part of a line it left.
            offset += max(1, count - Int.random(in: 0...3_000, using: &generator))
        }
        #expect(inPlace > 0 && reads > inPlace)
        // Back before its start, and back past the blocks it let go: read with pread, the same bytes.
        let early = file.read(into: &buffer, at: 10, count: 4_000, through: readAhead)
        #expect(early == 4_000 && buffer[..<early].elementsEqual(bytes[10..<4_010]))
        #expect(readAhead.bytesInPlace(at: 10, count: 100) == nil)
        #else
        #expect(DirectReadAhead(file: try ReadOnlyFile(path: coldFile("cold.bin", count: 10, seed: 1).path), from: 0, to: 10) == nil)
        #endif
    }

    @Test func aFileThatGrowsOrShrinksWhileReadIsReadAsItIsNow() throws {
        #if os(Linux)
        let size = 2 * DirectReadAhead.blockBytes + 777
        let (path, bytes) = coldFile("changing.bin", count: size, seed: 21)
        let file = try ReadOnlyFile(path: path)
        let readAhead = try #require(DirectReadAhead(file: file, from: 0, to: Int64(size)))
        // Grown after the read-ahead started: what lies past its end is read with pread.
        let more = [UInt8](repeating: 0x41, count: 9_000)
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data(more))
        try handle.close()
        var buffer: [UInt8] = []
        let across = file.read(into: &buffer, at: Int64(size - 1_000), count: 5_000, through: readAhead)
        #expect(across == 5_000 && buffer[..<across].elementsEqual((bytes + more)[(size - 1_000)..<(size + 4_000)]))

        // Cut to half a block before the read-ahead reached it: nothing but what the file holds now.
        let (cutPath, cutBytes) = coldFile("cut.bin", count: size, seed: 22)
        let cutFile = try ReadOnlyFile(path: cutPath)
        let cutReadAhead = try #require(DirectReadAhead(file: cutFile, from: 0, to: Int64(size)))
        let first = cutFile.read(into: &buffer, at: 0, count: 1_000, through: cutReadAhead)
        #expect(first == 1_000 && buffer[..<1_000].elementsEqual(cutBytes[..<1_000]))
        truncate(cutPath, off_t(DirectReadAhead.blockBytes + DirectReadAhead.blockBytes / 2))
        let kept = DirectReadAhead.blockBytes + DirectReadAhead.blockBytes / 2
        var offset = 1_000, total = 1_000
        while true {
            let read = cutFile.read(into: &buffer, at: Int64(offset), count: 300_000, through: cutReadAhead)
            guard read > 0 else { break }
            // Blocks read before the cut may hold the old bytes; every byte is the file's, old or new, never another's.
            #expect(buffer[..<read].elementsEqual(cutBytes[offset..<(offset + read)]), "at \(offset)")
            offset += read
            total += read
        }
        #expect(total >= kept && total <= size)
        #endif
    }
}
