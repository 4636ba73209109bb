import Foundation

/// What differs between the systems Rewind runs on, in one place (as
/// swift-argument-parser's `Platform`): the rest of the code calls these and
/// carries no `#if os(…)` of its own for them.
package enum Platform {
    // MARK: Sockets

    #if canImport(Glibc)
    package static let streamSocketType = Int32(SOCK_STREAM.rawValue)
    /// Passed to every `send`: a peer gone away is an `EPIPE`, never a `SIGPIPE`.
    package static let noSignalFlag = Int32(MSG_NOSIGNAL)
    #else
    package static let streamSocketType = SOCK_STREAM
    /// Darwin has no `MSG_NOSIGNAL`: the socket itself is marked (``suppressSIGPIPE(onSocket:)``).
    package static let noSignalFlag: Int32 = 0
    #endif

    /// Marks a socket so that writing to it after the peer left returns `EPIPE`
    /// instead of raising `SIGPIPE` (which would end the app): `SO_NOSIGPIPE` on
    /// Darwin; on Linux every `send` passes ``noSignalFlag`` instead.
    package static func suppressSIGPIPE(onSocket descriptor: Int32) {
        #if canImport(Darwin)
        var one: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    // MARK: Threads

    /// The stack of every thread Rewind starts (the writer, the live stream, the
    /// listener's readers): encoding and parsing recurse once per level of a
    /// value, and a log accepts values 512 levels deep. Darwin gives secondary
    /// threads 512 KiB, too little for that; Linux gives 8 MiB, where the depth
    /// limits are tested, so every platform gets the same.
    package static let threadStackSize = 8 << 20

    /// Starts a thread named `name` running `body`, with ``threadStackSize``.
    package static func startThread(named name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        thread.name = name
        thread.stackSize = threadStackSize
        thread.start()
    }

    // MARK: Memory

    /// Makes glibc give every allocation of 128 KiB or more a mapping of its own, returned to
    /// the system when freed. By default glibc raises that threshold to the size of the last
    /// large block freed (up to 32 MiB), after which a 30 MB state's line, its parse and its
    /// rebuilds come from the heap and stay resident after they are let go: the inspector on a
    /// 30 MB state held 167 MB where 110 MB were in use (docs/PERFORMANCE.md, huge states).
    ///
    /// It also keeps the threads to two arenas (the main thread's, and one for the background
    /// work): by default each thread that allocates gets an arena of its own, and what the view
    /// builder frees in one (the items a huge diff's first lines parse) is not reused by the
    /// read-ahead allocating in another, so the same session on a 30 MB state peaked at 84 MB in
    /// some runs and 94–97 MB in others; with two arenas, 83.5–84.8 MB every time.
    /// For a process that holds a few large, short-lived buffers (the inspector), not for apps.
    /// Looked up at run time: a C library without `mallopt` (musl), or Darwin, whose allocator
    /// returns large blocks by itself, is left as it is.
    package static func returnLargeAllocationsToTheSystem() {
        #if canImport(Glibc)
        typealias MemoryAllocationOption = @convention(c) (Int32, Int32) -> Int32
        // `M_MMAP_THRESHOLD` and `M_ARENA_MAX` in <malloc.h>, which the Glibc module does not import.
        let mmapThreshold: Int32 = -3, arenaMax: Int32 = -8
        guard let symbol = dlsym(nil, "mallopt") else { return }
        let mallopt = unsafeBitCast(symbol, to: MemoryAllocationOption.self)
        _ = mallopt(mmapThreshold, 128 << 10)
        _ = mallopt(arenaMax, 2)
        #endif
    }

    /// Hands back to the system the memory freed inside the allocator's heaps (glibc's
    /// `malloc_trim`): called after the inspector builds a view off the input thread, whose
    /// transient trees (a huge diff's first items, a rebuilt neighbour's copies) would otherwise
    /// stay resident once freed. A no-op where there is no `malloc_trim` (Darwin, musl).
    package static func returnFreedMemoryToTheSystem() {
        #if canImport(Glibc)
        typealias Trim = @convention(c) (Int) -> Int32
        guard let symbol = dlsym(nil, "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: Trim.self)(0)
        #endif
    }

    // MARK: Clocks

    /// A monotonic clock in nanoseconds, read straight from the system (what the
    /// recorder times reducer calls with, twice per call): `CLOCK_UPTIME_RAW` on
    /// Darwin (what `DispatchTime` reads there), `CLOCK_MONOTONIC` elsewhere.
    package static func monotonicNanoseconds() -> UInt64 {
        #if canImport(Darwin)
        return clock_gettime_nsec_np(CLOCK_UPTIME_RAW)
        #else
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
        #endif
    }

    // MARK: Files

    /// Writes the file's data to the disk itself, so that it survives a power
    /// cut: `fsync` does that on Linux, but on Darwin it only hands the data to
    /// the drive, whose cache may lose it; `F_FULLFSYNC` flushes the drive too
    /// (where the file system cannot, fall back to `fsync`). 0 on success,
    /// otherwise -1 with `errno` set, as `fsync`.
    package static func synchronizeToDisk(_ descriptor: Int32) -> Int32 {
        #if canImport(Darwin)
        if fcntl(descriptor, F_FULLFSYNC) == 0 { return 0 }
        #endif
        return fsync(descriptor)
    }

    /// A device or inode number as an unsigned 64-bit value, whatever its C type:
    /// Darwin's `dev_t` is a signed `Int32` that can be negative, which `UInt64(_:)`
    /// would trap on. Only compared for equality, so the bit pattern is what counts.
    package static func fileNumber<Number: BinaryInteger>(_ number: Number) -> UInt64 {
        UInt64(truncatingIfNeeded: number)
    }

    // MARK: Where recordings go

    /// Where recordings go by default (``ActionRecorder/defaultDirectory``).
    ///
    /// - `$REWIND_RECORDINGS`, when set, everywhere;
    /// - on iOS, tvOS, watchOS and visionOS: `Library/Caches/Rewind` in the
    ///   app's container (an app's working directory is `/`, where nothing can be
    ///   written; caches are not backed up and are found in the simulator's folder);
    /// - on macOS: the working directory, or the caches folder when that is `/`
    ///   (an app started from the Finder or the Dock);
    /// - on Linux and elsewhere: the working directory.
    package static func recordingsDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let directory = environment["REWIND_RECORDINGS"], !directory.isEmpty { return directory }
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        return cachesDirectory()
        #elseif os(macOS)
        let current = FileManager.default.currentDirectoryPath
        return current == "/" ? cachesDirectory() : current
        #else
        return FileManager.default.currentDirectoryPath
        #endif
    }

    #if canImport(Darwin)
    private static func cachesDirectory() -> String {
        let caches = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first
            ?? URL(fileURLWithPath: NSTemporaryDirectory())
        return caches.appendingPathComponent("Rewind", isDirectory: true).path
    }
    #endif

    /// Where a log named by a relative `path` goes: in the directory of
    /// ``recordingsDirectory(environment:)`` (created when missing) where the
    /// working directory means nothing to an app (iOS and the other device
    /// systems, a macOS app started from the Finder); elsewhere `path` as it is,
    /// read against the working directory as the shell would.
    package static func recordingPath(_ path: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        guard !path.hasPrefix("/") else { return path }
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        return inRecordingsDirectory(path, environment: environment)
        #elseif os(macOS)
        guard FileManager.default.currentDirectoryPath == "/" else { return path }
        return inRecordingsDirectory(path, environment: environment)
        #else
        return path
        #endif
    }

    /// `directory/path` in the recordings directory, creating that directory (and
    /// only it, with its parents) when missing; opening the log says what went wrong.
    package static func inRecordingsDirectory(_ path: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let directory = recordingsDirectory(environment: environment)
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory + "/" + path
    }
}
