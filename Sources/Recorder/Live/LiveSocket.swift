import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP socket with the few blocking-with-timeout calls live recording needs,
/// over POSIX calls so every failure is a value (never a trap or a `SIGPIPE`).
/// Used by the app's stream and by `rewind listen`; one thread uses a socket at a time.
package struct LiveSocket {
    package let descriptor: Int32

    package init(descriptor: Int32) {
        self.descriptor = descriptor
        LiveSocket.suppressSIGPIPE(descriptor)
    }

    /// Why a socket call failed, in words for a one-line report.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
        /// True when nothing happened within the timeout (the connection may be fine).
        package var isTimeout = false
        package init(_ description: String, isTimeout: Bool = false) {
            self.description = description
            self.isTimeout = isTimeout
        }
        static func errno(_ what: String, _ code: Int32 = Foundation.errno) -> Failure {
            Failure("\(what): \(String(cString: strerror(code)))")
        }
    }

    /// Connects to `address`, giving up after `timeout` seconds.
    package static func connect(to address: LiveAddress, timeout: Double) -> Result<LiveSocket, Failure> {
        var hints = addrinfo()
        hints.ai_socktype = Platform.streamSocketType
        hints.ai_family = AF_UNSPEC
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(address.host, String(address.port), &hints, &list)
        guard status == 0, let first = list else {
            return .failure(Failure("cannot resolve \(address.host): \(String(cString: gai_strerror(status)))"))
        }
        defer { freeaddrinfo(list) }
        var failure = Failure("no address for \(address.host)")
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let info = candidate {
            candidate = info.pointee.ai_next
            let descriptor = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
            guard descriptor >= 0 else { failure = .errno("cannot create a socket"); continue }
            let socket = LiveSocket(descriptor: descriptor)
            socket.setNonBlocking(true)
            if systemConnect(descriptor, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 || errno == EINPROGRESS {
                switch socket.wait(for: Int16(POLLOUT), timeout: timeout) {
                case .ready:
                    var error: Int32 = 0
                    var length = socklen_t(MemoryLayout<Int32>.size)
                    getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length)
                    if error == 0 {
                        socket.setNonBlocking(false)
                        var one: Int32 = 1
                        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                        return .success(socket)
                    }
                    failure = .errno("cannot connect to \(address)", error)
                case .timedOut: failure = Failure("cannot connect to \(address): timed out")
                case .failed(let reason): failure = reason
                }
            } else {
                failure = .errno("cannot connect to \(address)")
            }
            socket.close()
        }
        return .failure(failure)
    }

    package enum Readiness { case ready, timedOut, failed(Failure) }

    /// Waits until the socket is ready for `events` (POLLIN/POLLOUT), or `timeout` seconds.
    package func wait(for events: Int16, timeout: Double) -> Readiness {
        var entry = pollfd(fd: descriptor, events: events, revents: 0)
        while true {
            let result = poll(&entry, 1, Int32(max(0, min(timeout, 86_400)) * 1000))
            if result > 0 {
                // Readable-with-EOF and errors count as ready: the next call reports them.
                return .ready
            }
            if result == 0 { return .timedOut }
            if errno != EINTR { return .failed(.errno("poll failed")) }
        }
    }

    /// Sends all of `bytes`; fails when the peer is gone or makes no progress for `timeout` seconds.
    package func send(_ bytes: UnsafeRawBufferPointer, timeout: Double) -> Failure? {
        var sent = 0
        while sent < bytes.count {
            let result = systemSend(descriptor, bytes.baseAddress! + sent, bytes.count - sent, Platform.noSignalFlag)
            if result > 0 { sent += result; continue }
            if result < 0 && errno == EINTR { continue }
            if result < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                if case .ready = wait(for: Int16(POLLOUT), timeout: timeout) { continue }
                return Failure("the peer accepted nothing for \(timeout) s")
            }
            return .errno("cannot send")
        }
        return nil
    }

    package func send(_ bytes: [UInt8], timeout: Double) -> Failure? {
        bytes.withUnsafeBytes { send($0, timeout: timeout) }
    }

    /// Reads what is there (at most `maximum` bytes) into `buffer`, waiting up to `timeout` seconds.
    /// Returns 0 at the end of the stream.
    package func receive(into buffer: inout [UInt8], maximum: Int, timeout: Double) -> Result<Int, Failure> {
        switch wait(for: Int16(POLLIN), timeout: timeout) {
        case .timedOut: return .failure(Failure("timed out", isTimeout: true))
        case .failed(let failure): return .failure(failure)
        case .ready: break
        }
        let start = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: maximum))
        while true {
            let result = buffer.withUnsafeMutableBytes { systemReceive(descriptor, $0.baseAddress! + start, maximum, 0) }
            if result >= 0 {
                buffer.removeLast(maximum - result)
                return .success(result)
            }
            if errno == EINTR { continue }
            buffer.removeLast(maximum)
            return .failure(.errno("cannot receive"))
        }
    }

    /// True when the peer has closed or reset the connection (something to read means EOF
    /// here: listeners never send after their reply).
    package var peerHasHungUp: Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) > 0
    }

    /// Ends both directions at once, waking a thread blocked on the socket (close would not).
    package func shutdownBoth() { _ = shutdown(descriptor, Int32(SHUT_RDWR)) }

    package func close() { _ = systemClose(descriptor) }

    func setNonBlocking(_ on: Bool) {
        let flags = fcntl(descriptor, F_GETFL)
        _ = fcntl(descriptor, F_SETFL, on ? flags | O_NONBLOCK : flags & ~O_NONBLOCK)
    }

    private static func suppressSIGPIPE(_ descriptor: Int32) {
        Platform.suppressSIGPIPE(onSocket: descriptor)
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    }
}

/// `host:port` (IPv6 hosts in brackets: `[::1]:7777`).
package struct LiveAddress: Sendable, Equatable, CustomStringConvertible {
    package var host: String
    package var port: UInt16

    package init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// Parses `host:port`; nil when either part is missing or the port is not 1–65535
    /// (or 0, when `allowsAnyPort`, for "pick a free one").
    package init?(_ text: String, allowsAnyPort: Bool = false) {
        guard let colon = text.lastIndex(of: ":") else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, let port = UInt16(text[text.index(after: colon)...]), port > 0 || allowsAnyPort else { return nil }
        self.host = host
        self.port = port
    }

    package var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

// The C functions, named apart from LiveSocket's methods of the same name.
private func systemConnect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 { connect(fd, address, length) }
private func systemSend(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int, _ flags: Int32) -> Int { send(fd, bytes, count, flags) }
private func systemReceive(_ fd: Int32, _ bytes: UnsafeMutableRawPointer, _ count: Int, _ flags: Int32) -> Int { recv(fd, bytes, count, flags) }
private func systemClose(_ fd: Int32) -> Int32 { close(fd) }
