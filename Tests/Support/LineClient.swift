import CLinux
import GesturedCore
import GesturedIO
import Glibc

/// A test client of the daemon's line protocol over a Unix socket.
///
/// Never sleeps: connecting waits for the socket file to appear with inotify on its directory,
/// reading waits with `poll()`, both bounded by a deadline.
public final class LineClient {
    public let path: String
    public let descriptor: FileDescriptor
    private var buffer: [UInt8] = []
    public private(set) var reachedEndOfFile = false
    /// CLOCK_MONOTONIC right after the `recv` that completed the line `readLine` returned last:
    /// lines are only received when no complete line is buffered, so every buffered line came
    /// complete with the latest `recv` (latency measurements use it).
    public private(set) var lastReceive = Instant.zero

    /// Connects to `path`, waiting until `deadline` for a server to listen there.
    public init(path: String, deadline: Instant) throws(SystemError) {
        self.path = path
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let notify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        defer { if notify >= 0 { Glibc.close(notify) } }
        if notify >= 0 { inotify_add_watch(notify, directory, UInt32(IN_CREATE | IN_MOVED_TO | IN_ATTRIB)) }
        while true {
            // Non-blocking, so a full listen backlog (EAGAIN) cannot block past the deadline.
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
                                | Int32(SOCK_NONBLOCK.rawValue), 0)
            guard fd >= 0 else { throw SystemError(operation: "socket", errno: .current) }
            var connectError: SystemError?
            do {
                try Self.connect(fd, path)
            } catch {
                connectError = error
            }
            guard let error = connectError else {
                descriptor = FileDescriptor(rawValue: fd)
                return
            }
            Glibc.close(fd)
            guard error.errno == .noSuchFile || error.errno == .connectionRefused || error.errno == .wouldBlock,
                  MonotonicClock.now() < deadline else { throw error }
            // Wait for a change in the directory; at most 50 ms, because the server may have
            // bound (file created) but not yet listened, and no further event would announce it.
            let remaining = max(0, (deadline - MonotonicClock.now()).microseconds / 1000)
            var pollFD = pollfd(fd: notify, events: Int16(POLLIN), revents: 0)
            _ = poll(&pollFD, notify >= 0 ? 1 : 0, Int32(min(remaining, 50)))
            var drain = [UInt8](repeating: 0, count: 4096)
            while notify >= 0 && drain.withUnsafeMutableBytes({ Glibc.read(notify, $0.baseAddress, $0.count) }) > 0 {}
        }
    }

    private init(path: String, descriptor: FileDescriptor) {
        self.path = path
        self.descriptor = descriptor
    }

    /// Listens at `path`, calls `listening` (which starts the client), and returns the first
    /// connection made before `deadline`, then stops listening (the socket file stays). It lets
    /// a test stand between the daemon and a client it starts as a subprocess, and so know when
    /// that client is connected.
    public static func acceptFirst(at path: String, deadline: Instant,
                                   listening: () throws -> Void) throws -> LineClient {
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard listener >= 0 else { throw SystemError(operation: "socket", errno: .current) }
        defer { Glibc.close(listener) }
        try withUnixSocketAddress(path, for: "bind") { (address, length) throws(SystemError) in
            if bind(listener, address, length) == -1 { throw SystemError(operation: "bind", path: path, errno: .current) }
        }
        if listen(listener, 1) == -1 { throw SystemError(operation: "listen", path: path, errno: .current) }
        try listening()
        while true {
            let remaining = (deadline - MonotonicClock.now()).microseconds / 1000
            guard remaining > 0 else { throw SystemError(operation: "accept", path: path, errno: Errno(rawValue: ETIMEDOUT)) }
            var pollFD = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pollFD, 1, Int32(min(remaining, Int64(Int32.max))))
            if ready == -1 && Errno.current != .interrupted { throw SystemError(operation: "poll", path: path, errno: .current) }
            guard ready == 1 else { continue }
            let fd = accept4(listener, nil, nil, Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue))
            if fd >= 0 { return LineClient(path: path, descriptor: FileDescriptor(rawValue: fd)) }
            if Errno.current != .interrupted && Errno.current.rawValue != ECONNABORTED {
                throw SystemError(operation: "accept4", path: path, errno: .current)
            }
        }
    }

    deinit { try? descriptor.close() }

    /// The next line without its `\n`, or nil when `deadline` passes or the server closes the
    /// connection first.
    public func readLine(deadline: Instant) throws(SystemError) -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            if reachedEndOfFile { return nil }
            let remaining = (deadline - MonotonicClock.now()).microseconds / 1000
            if remaining < 0 { return nil }
            var pollFD = pollfd(fd: descriptor.rawValue, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pollFD, 1, Int32(min(remaining, Int64(Int32.max))))
            if ready == -1 {
                if Errno.current == .interrupted { continue }
                throw SystemError(operation: "poll", path: path, errno: .current)
            }
            if ready == 0 { continue }  // loop re-checks the deadline
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { recv(descriptor.rawValue, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count > 0 {
                lastReceive = MonotonicClock.now()
                buffer += chunk[0..<count]
            } else if count == 0 {
                reachedEndOfFile = true
            } else if Errno.current != .wouldBlock && Errno.current != .interrupted {
                if Errno.current == .connectionReset { reachedEndOfFile = true; continue }
                throw SystemError(operation: "recv", path: path, errno: .current)
            }
        }
    }

    /// Waits until the server closes the connection (true) or the deadline passes (false),
    /// discarding lines.
    public func waitForEndOfFile(deadline: Instant) throws(SystemError) -> Bool {
        while try readLine(deadline: deadline) != nil {}
        return reachedEndOfFile
    }

    /// Sends `line` and a `\n`.
    public func send(line: String) throws(SystemError) {
        let bytes = Array((line + "\n").utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes {
                Glibc.send(descriptor.rawValue, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL))
            }
            if count == -1 {
                if Errno.current == .interrupted { continue }
                if Errno.current == .wouldBlock {
                    var pollFD = pollfd(fd: descriptor.rawValue, events: Int16(POLLOUT), revents: 0)
                    if poll(&pollFD, 1, 5000) == 1 { continue }
                }
                throw SystemError(operation: "send", path: path, errno: .current)
            }
            sent += count
        }
    }

    /// Leaves a socket file at `path` that nothing listens on, as a crashed daemon does: binds
    /// a socket there and closes it.
    public static func makeStaleSocketFile(at path: String) throws(SystemError) {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SystemError(operation: "socket", errno: .current) }
        defer { Glibc.close(fd) }
        try withUnixSocketAddress(path, for: "bind") { (address, length) throws(SystemError) in
            if bind(fd, address, length) == -1 { throw SystemError(operation: "bind", path: path, errno: .current) }
        }
    }

    static func connect(_ fd: Int32, _ path: String) throws(SystemError) {
        try withUnixSocketAddress(path, for: "connect") { (address, length) throws(SystemError) in
            if Glibc.connect(fd, address, length) == -1 { throw SystemError(operation: "connect", path: path, errno: .current) }
        }
    }
}
