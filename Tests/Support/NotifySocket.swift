import CLinux
import GesturedCore
import GesturedIO
import Glibc

/// The service manager's end of `NOTIFY_SOCKET` for tests: a bound `AF_UNIX` datagram socket
/// whose messages are read with `poll()` and a deadline, never by sleeping.
public final class NotifySocket {
    /// The value to give the daemon as `NOTIFY_SOCKET` (`@name` for an abstract socket).
    public let address: String
    public let descriptor: FileDescriptor
    /// Every message received so far, in order.
    public private(set) var received: [String] = []

    /// Binds at `path`, or in the abstract namespace when `path` starts with `@`.
    public init(address: String) throws(SystemError) {
        self.address = address
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SystemError(operation: "socket", errno: .current) }
        var socketAddress = sockaddr_un()
        socketAddress.sun_family = sa_family_t(AF_UNIX)
        let name = address.hasPrefix("@") ? [0] + Array(address.utf8.dropFirst()) : Array(address.utf8) + [0]
        guard name.count <= MemoryLayout.size(ofValue: socketAddress.sun_path) else {
            Glibc.close(fd)
            throw SystemError(operation: "bind", path: address, errno: .nameTooLong)
        }
        withUnsafeMutableBytes(of: &socketAddress.sun_path) { $0.copyBytes(from: name) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + name.count)
        let bound = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0 else {
            let error = SystemError(operation: "bind", path: address, errno: .current)
            Glibc.close(fd)
            throw error
        }
        descriptor = FileDescriptor(rawValue: fd)
    }

    deinit { try? descriptor.close() }

    /// The next message, or nil when `deadline` passes first.
    public func next(deadline: Instant) throws(SystemError) -> String? {
        while true {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = buffer.withUnsafeMutableBytes { recv(descriptor.rawValue, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count >= 0 {
                let message = String(decoding: buffer[0..<count], as: UTF8.self)
                received.append(message)
                return message
            }
            if Errno.current == .interrupted { continue }
            guard Errno.current == .wouldBlock else { throw SystemError(operation: "recv", path: address, errno: .current) }
            let remaining = (deadline - MonotonicClock.now()).microseconds / 1000
            if remaining < 0 { return nil }
            var pollFD = pollfd(fd: descriptor.rawValue, events: Int16(POLLIN), revents: 0)
            if poll(&pollFD, 1, Int32(min(remaining, Int64(Int32.max)))) == -1 && Errno.current != .interrupted {
                throw SystemError(operation: "poll", path: address, errno: .current)
            }
        }
    }

    /// Reads until a message satisfies `predicate` (returned) or `deadline` passes (nil).
    public func wait(deadline: Instant, for predicate: (String) -> Bool) throws(SystemError) -> String? {
        while let message = try next(deadline: deadline) {
            if predicate(message) { return message }
        }
        return nil
    }
}

/// A listening `AF_UNIX` stream socket bound at `path`, as a `.socket` unit would pass it.
public func makeListeningSocket(path: String, type: Int32 = Int32(SOCK_STREAM.rawValue)) throws(SystemError) -> FileDescriptor {
    let fd = socket(AF_UNIX, type | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw SystemError(operation: "socket", errno: .current) }
    let bound: Int32
    do {
        bound = try withUnixSocketAddress(path, for: "bind") { (address, length) throws(SystemError) in bind(fd, address, length) }
    } catch {
        Glibc.close(fd)
        throw error
    }
    if bound != 0 || (type == Int32(SOCK_STREAM.rawValue) && listen(fd, 16) != 0) {
        let error = SystemError(operation: "bind/listen", path: path, errno: .current)
        Glibc.close(fd)
        throw error
    }
    return FileDescriptor(rawValue: fd)
}
