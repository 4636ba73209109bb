import Foundation
import Recorder
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A bound, listening TCP socket with a wake-up pipe, so `close()` from another
/// thread ends a blocked `accept` at once.
final class ListeningSocket: @unchecked Sendable {
    /// The address actually bound (port 0 becomes the port the system chose).
    let address: LiveAddress
    /// True when bound to a loopback address (127.0.0.0/8 or ::1, IPv4-mapped included).
    let isLoopback: Bool
    /// True when bound to every interface (0.0.0.0 or ::), whatever the spelling asked for
    /// (`0`, `0.0`, `0x0`, `*` where the resolver takes it).
    let isUnspecified: Bool
    private let descriptor: Int32
    private let wake: (read: Int32, write: Int32)

    init(binding requested: LiveAddress) throws(LiveListenError) {
        var hints = addrinfo()
        hints.ai_socktype = Platform.streamSocketType
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(requested.host, String(requested.port), &hints, &list)
        guard status == 0, let info = list else {
            throw LiveListenError("cannot listen on \(requested): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        let descriptor = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
        guard descriptor >= 0 else { throw LiveListenError("cannot create a socket: \(String(cString: strerror(errno)))") }
        var one: Int32 = 1
        // A restarted listener takes its port back while old connections linger in TIME_WAIT.
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        guard bind(descriptor, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0, listen(descriptor, 64) == 0 else {
            let code = errno
            _ = systemClose(descriptor)
            throw LiveListenError("cannot listen on \(requested): \(String(cString: strerror(code)))")
        }
        var bound = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &bound) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else {
            _ = systemClose(descriptor)
            throw LiveListenError("cannot create a pipe: \(String(cString: strerror(errno)))")
        }
        self.descriptor = descriptor
        wake = (pipeEnds[0], pipeEnds[1])
        address = LiveAddress(host: requested.host, port: ListeningSocket.port(of: bound))
        (isLoopback, isUnspecified) = ListeningSocket.kind(of: bound)
    }


    /// Whether a bound address is loopback, and whether it is the unspecified address (every interface).
    private static func kind(of address: sockaddr_storage) -> (loopback: Bool, unspecified: Bool) {
        var copy = address
        return withUnsafePointer(to: &copy) { pointer in
            if Int32(address.ss_family) == AF_INET6 {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    let bytes = withUnsafeBytes(of: $0.pointee.sin6_addr) { Array($0) }
                    let mapped = bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF
                    let loopback = bytes[0..<15].allSatisfy { $0 == 0 } && bytes[15] == 1 || mapped && bytes[12] == 127
                    let unspecified = bytes.allSatisfy { $0 == 0 } || mapped && bytes[12...].allSatisfy { $0 == 0 }
                    return (loopback, unspecified)
                }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                let host = UInt32(bigEndian: $0.pointee.sin_addr.s_addr)
                return (host >> 24 == 127, host == 0)
            }
        }
    }

    deinit {
        _ = systemClose(descriptor)
        _ = systemClose(wake.read)
        _ = systemClose(wake.write)
    }

    /// The next connection, its peer's address (`127.0.0.1:50312`) and host (`127.0.0.1`); nil once `close()` was called.
    func accept() -> (LiveSocket, String, String)? {
        while true {
            var entries = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0), pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&entries, 2, -1)
            if ready < 0 && errno == EINTR { continue }
            if ready < 0 || entries[1].revents != 0 { return nil }
            var peer = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let connection = withUnsafeMutablePointer(to: &peer) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { systemAccept(descriptor, $0, &length) }
            }
            if connection < 0 { continue }
            let described = ListeningSocket.describe(peer)
            return (LiveSocket(descriptor: connection), described?.description ?? "(unknown peer)", described?.host ?? "(unknown peer)")
        }
    }

    /// Wakes `accept` for good.
    func close() {
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
    }

    private static func cText(_ characters: [CChar]) -> String {
        String(decoding: characters.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func port(of address: sockaddr_storage) -> UInt16 {
        var copy = address
        let family = Int32(address.ss_family)
        return withUnsafePointer(to: &copy) { pointer in
            if family == AF_INET6 {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
        }
    }

    /// `127.0.0.1:50312`, for reports; nil when it cannot be said.
    private static func describe(_ address: sockaddr_storage) -> LiveAddress? {
        var address = address
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        var service = [CChar](repeating: 0, count: Int(NI_MAXSERV))
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getnameinfo($0, socklen_t(MemoryLayout<sockaddr_storage>.size), &host, socklen_t(host.count), &service, socklen_t(service.count), NI_NUMERICHOST | NI_NUMERICSERV)
            }
        }
        guard status == 0 else { return nil }
        return LiveAddress(host: cText(host), port: UInt16(cText(service)) ?? 0)
    }
}

/// Why `rewind listen` could not start: one line, `cannot listen on 127.0.0.1:80: Permission denied`.
package struct LiveListenError: Error, Sendable, Equatable, CustomStringConvertible {
    package let description: String
    init(_ description: String) { self.description = description }
}

// The C calls, named apart from this type's methods of the same name.
#if canImport(Glibc)
private func systemClose(_ fd: Int32) -> Int32 { Glibc.close(fd) }
private func systemAccept(_ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>, _ length: UnsafeMutablePointer<socklen_t>) -> Int32 { Glibc.accept(fd, address, length) }
#else
private func systemClose(_ fd: Int32) -> Int32 { Darwin.close(fd) }
private func systemAccept(_ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>, _ length: UnsafeMutablePointer<socklen_t>) -> Int32 { Darwin.accept(fd, address, length) }
#endif
