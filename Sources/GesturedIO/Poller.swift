import CLinux
import Glibc

/// Readiness conditions (`EPOLLIN`, `EPOLLOUT`, ...).
public struct PollEvents: OptionSet, Hashable, Sendable {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let readable = PollEvents(rawValue: EPOLLIN.rawValue)
    public static let writable = PollEvents(rawValue: EPOLLOUT.rawValue)
    /// The peer closed its end (reported even when not asked for).
    public static let hangup = PollEvents(rawValue: EPOLLHUP.rawValue)
    /// An error condition (reported even when not asked for).
    public static let error = PollEvents(rawValue: EPOLLERR.rawValue)
    /// The peer shut down writing.
    public static let peerClosed = PollEvents(rawValue: EPOLLRDHUP.rawValue)
}

/// One ready descriptor: the token given to `add`, and what it is ready for.
public struct PollResult: Hashable, Sendable {
    public var token: UInt64
    public var events: PollEvents
    public init(token: UInt64, events: PollEvents) { self.token = token; self.events = events }
}

/// An epoll instance (level-triggered): the daemon's single wait point for devices, the timer,
/// signals and clients.
public final class Poller {
    public let descriptor: FileDescriptor
    private var buffer: [epoll_event]
    private var isClosed = false

    /// - Parameter capacity: how many ready descriptors one `wait` reports at most; the rest
    ///   stay ready (level-triggered) and are reported by the next `wait`.
    public init(capacity: Int = 64) throws(SystemError) {
        let fd = try syscall("epoll_create1", onInterrupt: .fail) { epoll_create1(Int32(EPOLL_CLOEXEC)) }
        descriptor = FileDescriptor(rawValue: fd)
        buffer = Array(repeating: epoll_event(), count: max(1, capacity))
    }

    deinit { if !isClosed { try? descriptor.close() } }

    public func add(_ fd: FileDescriptor, token: UInt64, events: PollEvents) throws(SystemError) {
        try control(EPOLL_CTL_ADD, "epoll_ctl(ADD)", fd, token: token, events: events)
    }

    public func modify(_ fd: FileDescriptor, token: UInt64, events: PollEvents) throws(SystemError) {
        try control(EPOLL_CTL_MOD, "epoll_ctl(MOD)", fd, token: token, events: events)
    }

    public func remove(_ fd: FileDescriptor) throws(SystemError) {
        try control(EPOLL_CTL_DEL, "epoll_ctl(DEL)", fd, token: 0, events: [])
    }

    /// Waits until a descriptor is ready or `timeout` milliseconds pass (-1: no limit).
    ///
    /// A signal interrupting the wait (`EINTR`) returns an empty list rather than retrying:
    /// the caller recomputes its timeout from its deadline and waits again.
    public func wait(timeout: Int32) throws(SystemError) -> [PollResult] {
        let count = buffer.withUnsafeMutableBufferPointer { events in
            epoll_wait(descriptor.rawValue, events.baseAddress, Int32(events.count), timeout)
        }
        if count == -1 {
            let error = Errno.current
            if error == .interrupted { return [] }
            throw SystemError(operation: "epoll_wait", errno: error)
        }
        var results: [PollResult] = []
        results.reserveCapacity(Int(count))
        for index in 0..<Int(count) {
            results.append(PollResult(token: buffer[index].data.u64, events: PollEvents(rawValue: buffer[index].events)))
        }
        return results
    }

    public func close() throws(SystemError) {
        guard !isClosed else { return }
        isClosed = true
        try descriptor.close()
    }

    private func control(_ op: Int32, _ name: String, _ fd: FileDescriptor, token: UInt64,
                         events: PollEvents) throws(SystemError) {
        var event = epoll_event()
        event.events = events.rawValue
        event.data.u64 = token
        try syscall(name, onInterrupt: .retry) { epoll_ctl(descriptor.rawValue, op, fd.rawValue, &event) }
    }
}
