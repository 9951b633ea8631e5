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

/// What the daemon's loop waits on and what its parts register with: an epoll set (`Poller`),
/// or a scripted one in tests, so the loop runs embedded in a test's process on a virtual clock.
public protocol EventPolling: AnyObject {
    func add(_ fd: FileDescriptor, token: UInt64, events: PollEvents) throws(SystemError)
    func modify(_ fd: FileDescriptor, token: UInt64, events: PollEvents) throws(SystemError)
    func remove(_ fd: FileDescriptor) throws(SystemError)
    /// Waits until something is ready or `timeout` milliseconds pass (-1: no limit), and puts
    /// what is ready in `ready` (emptied first; its storage is reused: no allocation per wakeup).
    func wait(timeout: Int32, into ready: inout [PollResult]) throws(SystemError)
}

/// An epoll instance (level-triggered): the daemon's single wait point for devices, the timer,
/// signals and clients.
public final class Poller: EventPolling {
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
        var results: [PollResult] = []
        try wait(timeout: timeout, into: &results)
        return results
    }

    public func wait(timeout: Int32, into ready: inout [PollResult]) throws(SystemError) {
        ready.removeAll(keepingCapacity: true)
        let count: Int32
        // `do throws(…)`: Swift 6.0 infers `any Error` for the catch of a plain `do`.
        do throws(SystemError) {
            count = try syscall("epoll_wait", onInterrupt: .fail) {
                buffer.withUnsafeMutableBufferPointer { events in
                    // The buffer is never empty (init); glibc 2.41 declares the pointer non-null.
                    epoll_wait(descriptor.rawValue, events.baseAddress!, Int32(events.count), timeout)
                }
            }
        } catch where error.errno == .interrupted {
            return   // a signal: the caller recomputes its timeout and waits again
        }
        for index in 0..<Int(count) {
            ready.append(PollResult(token: buffer[index].data.u64, events: PollEvents(rawValue: buffer[index].events)))
        }
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
