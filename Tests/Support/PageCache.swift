import Foundation

/// The page cache as tests see it: files put out of it, to test what a search
/// of recordings on a cold disk does, and how much of a file is in it.
public enum PageCache {
    /// Writes `path` out and asks the kernel to drop its pages from the cache
    /// (`posix_fadvise(DONTNEED)`: clean pages go at once). Linux only; elsewhere nothing.
    public static func evict(_ path: String) {
        #if os(Linux)
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        fsync(descriptor)
        _ = posix_fadvise(descriptor, 0, 0, POSIX_FADV_DONTNEED)
        #endif
    }

    /// The share of `path`'s pages in the page cache, 0...1 (`mincore`); nil when it cannot tell.
    public static func share(of path: String) -> Double? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_size > 0 else { return nil }
        let size = Int(status.st_size)
        guard let mapped = mmap(nil, size, PROT_READ, MAP_SHARED, descriptor, 0), mapped != MAP_FAILED else { return nil }
        defer { munmap(mapped, size) }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        var resident = [UInt8](repeating: 0, count: (size + page - 1) / page)
        #if os(Linux)
        guard mincore(mapped, size, &resident) == 0 else { return nil }
        #else
        guard resident.withUnsafeMutableBufferPointer({ mincore(mapped, size, UnsafeMutableRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self)) }) == 0 else { return nil }
        #endif
        return Double(resident.reduce(0) { $0 + Int($1 & 1) }) / Double(resident.count)
    }
}
