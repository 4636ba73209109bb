import CBacktrace
import Foundation
// On Linux the loaded images are read through the runtime's checked memory reader,
// whose capture entry point is SPI there (see `RuntimeImages.loadedImages()`); before
// Swift 6.3 that SPI is not known, so those toolchains name frames with dladdr(3).
#if canImport(Runtime) && os(Linux) && compiler(>=6.3)
@_spi(MemoryReaders) @_spi(Internal) import Runtime
#elseif canImport(Runtime) && !os(Linux)
import Runtime
#endif

/// The call stack of the thread that dispatched an action, taken on that thread
/// (a frame-pointer walk: microseconds) and turned into names later, on the
/// writer thread, where symbol lookup costs the app nothing.
///
/// With Swift's `Runtime` module (Linux with Swift 6.3 or later; macOS 26) names and source locations come
/// from the binaries' symbol tables and debug info, so a test bundle or an app
/// executable needs nothing special. Elsewhere `backtrace(3)` and `dladdr(3)` name
/// exported symbols only.
struct CallStack {
    private enum Frames {
        /// A `Runtime.Backtrace` (type-erased: it needs macOS 26).
        case runtime(any Sendable)
        case addresses([UInt])
    }

    private let frames: Frames

    /// How many frames a trace keeps, after Rewind's own frames are dropped.
    static let keptFrames = 12
    /// Frames captured: the kept ones plus room for the recorder and store frames above them.
    private static let capturedFrames = 32

    /// The caller's stack, innermost first.
    static func capture() -> CallStack {
        #if canImport(Runtime) && (!os(Linux) || compiler(>=6.3))
        if #available(macOS 26.0, *), let backtrace = try? Backtrace.capture(
            algorithm: .fast, limit: capturedFrames, top: 0, images: RuntimeImages.shared.map) {
            return CallStack(frames: .runtime(backtrace))
        }
        #endif
        return withUnsafeTemporaryAllocation(of: UnsafeMutableRawPointer?.self, capacity: capturedFrames) { buffer in
            let count = Int(rewind_backtrace(buffer.baseAddress, Int32(capturedFrames)))
            return CallStack(frames: .addresses((0..<max(0, count)).map { UInt(bitPattern: buffer[$0]) }))
        }
    }

    /// Readable frames, innermost first, without the frames of Rewind's recorder and
    /// store at the top: `CartView.checkout() at MyApp/CartView.swift:42`, or the
    /// address when no name is known.
    func names() -> [String] {
        var names: [String] = []
        var inRewind = true
        for (name, mangled) in allNames() {
            // The recorder's own frames (the capture, the wrapper, the store's send) come first.
            if inRewind, Self.isRewindFrame(mangled) { continue }
            inRewind = false
            names.append(name)
            if names.count == Self.keptFrames { break }
        }
        return names
    }

    /// Each frame's readable name and its mangled symbol (empty when unknown).
    private func allNames() -> [(name: String, mangled: String)] {
        switch frames {
        case .runtime(let captured):
            #if canImport(Runtime) && (!os(Linux) || compiler(>=6.3))
            if #available(macOS 26.0, *), let backtrace = captured as? Backtrace {
                return RuntimeImages.shared.names(of: backtrace)
            }
            #endif
            return []
        case .addresses(let addresses):
            return addresses.map { address in
                guard let pointer = UnsafeRawPointer(bitPattern: address), let symbol = rewind_symbol_name(pointer) else {
                    return (String(format: "0x%lx", address), "")
                }
                return (Self.demangle(symbol), String(cString: symbol))
            }
        }
    }

    /// Symbols of this module (Swift mangles the module name first: `$s8Recorder…`,
    /// specializations and closures included), the C shim and the runtime's capture.
    private static func isRewindFrame(_ mangled: String) -> Bool {
        mangled.hasPrefix("$s8Recorder") || mangled.hasPrefix("rewind_backtrace") || mangled.hasPrefix("$s7Runtime9Backtrace")
    }

    private static func demangle(_ symbol: UnsafePointer<CChar>) -> String {
        guard let demangled = swift_demangle(symbol, strlen(symbol), nil, nil, 0) else { return String(cString: symbol) }
        defer { free(demangled) }
        return String(cString: demangled)
    }
}

#if canImport(Runtime) && (!os(Linux) || compiler(>=6.3))
/// The loaded images, mapped once (mapping them per capture costs half a millisecond),
/// and frame names already worked out, by return address (symbolication reads debug
/// info; an app dispatches from the same few places again and again).
@available(macOS 26.0, *)
final class RuntimeImages: @unchecked Sendable {
    static let shared = RuntimeImages()

    let map = RuntimeImages.loadedImages()
    private let lock = NSLock()
    /// Names by the frame's description (its address); touched by writer threads only, under `lock`.
    private var cache: [String: (name: String, mangled: String)] = [:]

    func names(of backtrace: Backtrace) -> [(name: String, mangled: String)] {
        let keys = backtrace.frames.map(\.description)
        if let cached = lock.withLock({ () -> [(name: String, mangled: String)]? in
            let names = keys.compactMap { cache[$0] }
            return names.count == keys.count ? names : nil
        }) { return cached }
        guard let symbolicated = backtrace.symbolicated(with: map, options: [.useSymbolCache, .showSourceLocations]) else {
            return keys.map { ($0, "") }
        }
        let names = symbolicated.frames.map { ($0.symbol == nil ? $0.captured.description : Self.name($0), $0.symbol?.rawName ?? "") }
        // Inline frames would make the lists differ in length; only cache a one-to-one result.
        if names.count == keys.count { lock.withLock { for (key, name) in zip(keys, names) { cache[key] = name } } }
        return names
    }

    /// The images loaded in this process, read so that the app's other threads cannot
    /// make it crash. On Linux `ImageMap.capture()` lists every file mapping in
    /// /proc/self/maps and reads each one's first bytes with plain loads: a file that
    /// another thread unmaps meanwhile (a log read with mmap, Foundation's mapped `Data`)
    /// faults in the middle of recording. The runtime's local memory reader reads with
    /// process_vm_readv(2), which fails instead, and the mapping is skipped as not an image.
    /// Elsewhere the list comes from dyld, which holds images only.
    static func loadedImages() -> ImageMap {
        #if os(Linux)
        ImageMap.capture(using: LocalMemoryReader())
        #else
        ImageMap.capture()
        #endif
    }

    private static func name(_ frame: SymbolicatedBacktrace.Frame) -> String {
        guard let symbol = frame.symbol else { return frame.captured.description }
        var text = symbol.name.count > 160 ? String(symbol.name.prefix(159)) + "…" : symbol.name
        if let location = symbol.sourceLocation, location.line > 0 {
            text += " at \((location.path as NSString).lastPathComponent):\(location.line)"
        }
        return text
    }
}
#endif

/// The Swift runtime's demangler (exported by every Swift runtime; what backtraces use).
@_silgen_name("swift_demangle")
private func swift_demangle(
    _ mangledName: UnsafePointer<CChar>?, _ mangledNameLength: Int,
    _ outputBuffer: UnsafeMutablePointer<CChar>?, _ outputBufferSize: UnsafeMutablePointer<Int>?, _ flags: UInt32
) -> UnsafeMutablePointer<CChar>?
