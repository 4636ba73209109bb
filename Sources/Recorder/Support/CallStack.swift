import CBacktrace
import Foundation

/// Return addresses of the thread that dispatched an action, taken on that
/// thread (about a microsecond: `backtrace(3)` only walks frames) and turned
/// into names later, on the writer thread, where symbol lookup and demangling
/// cost the app nothing.
struct CallStack {
    private var addresses: [UInt]

    /// How many frames a trace keeps, after Rewind's own frames are dropped.
    static let keptFrames = 12
    /// Frames captured: the kept ones plus room for the recorder and store frames above them.
    private static let capturedFrames = 32

    /// The caller's stack, innermost first.
    static func capture() -> CallStack {
        withUnsafeTemporaryAllocation(of: UnsafeMutableRawPointer?.self, capacity: capturedFrames) { buffer in
            let count = Int(rewind_backtrace(buffer.baseAddress, Int32(capturedFrames)))
            return CallStack(addresses: (0..<max(0, count)).map { UInt(bitPattern: buffer[$0]) })
        }
    }

    /// Readable frames, innermost first, without the frames of Rewind's recorder
    /// and store at the top: `CartView.checkout() + 52`, or the image and address
    /// when the loader has no name for it (`MyApp 0x55d3c1a2`; link with
    /// `-Xlinker --export-dynamic` for names in stripped executables).
    func frames() -> [String] {
        var frames: [String] = []
        var inRewind = true
        for address in addresses {
            guard let pointer = UnsafeRawPointer(bitPattern: address) else { continue }
            let name = rewind_symbol_name(pointer).map { Self.demangle($0) }
            // The recorder's own frames (the capture, the wrapper, the store's send) come first.
            if inRewind, let name, Self.isRewindFrame(name) { continue }
            inRewind = false
            frames.append(name ?? String(format: "0x%lx", address))
            if frames.count == Self.keptFrames { break }
        }
        return frames
    }

    private static func isRewindFrame(_ name: String) -> Bool {
        name.hasPrefix("Recorder.") || name.contains(" in Recorder.") || name.hasPrefix("(extension in Recorder)")
            || name.hasPrefix("generic specialization") && name.contains("Recorder.") || name == "rewind_backtrace"
    }

    private static func demangle(_ symbol: UnsafePointer<CChar>) -> String {
        guard let demangled = swift_demangle(symbol, strlen(symbol), nil, nil, 0) else { return String(cString: symbol) }
        defer { free(demangled) }
        return String(cString: demangled)
    }
}

/// The Swift runtime's demangler (exported by every Swift runtime; what backtraces use).
@_silgen_name("swift_demangle")
private func swift_demangle(
    _ mangledName: UnsafePointer<CChar>?, _ mangledNameLength: Int,
    _ outputBuffer: UnsafeMutablePointer<CChar>?, _ outputBufferSize: UnsafeMutablePointer<Int>?, _ flags: UInt32
) -> UnsafeMutablePointer<CChar>?
