import GesturedCore
import GesturedIO

/// A clock the test moves by hand (`Clock`).
public final class VirtualClock: Clock, @unchecked Sendable {
    public var time: Instant
    public init(_ time: Instant = Instant(microseconds: 1_000_000)) { self.time = time }
    public func now() -> Instant { time }
}

/// A timer on a `VirtualClock` (`DeadlineArming`): armed at an instant, expired once the clock
/// reaches it. It has no descriptor of its own; `ScriptedPoller` reports it.
public final class VirtualTimer: DeadlineArming {
    public let descriptor = FileDescriptor(rawValue: -1)
    /// The instant it is armed at, nil when disarmed.
    public private(set) var armed: Instant?
    /// How many times it was armed or disarmed to a new instant.
    public private(set) var armings = 0
    public init() {}
    public func arm(at deadline: Instant?) throws(SystemError) { armed = deadline; armings += 1 }
    @discardableResult public func acknowledge() throws(SystemError) -> UInt64 { armed = nil; return 1 }
}

/// A poller for a loop that runs embedded in a test: the real descriptors it is given (sockets,
/// pipes) are watched by a real epoll set, polled without waiting; the virtual timer is reported
/// under `timerToken` once the virtual clock has reached its instant. So the loop never sleeps,
/// and time moves only when the test moves it.
public final class ScriptedPoller: EventPolling {
    private let real: Poller
    private let timer: VirtualTimer
    private let timerToken: UInt64
    private let clock: VirtualClock

    public init(timer: VirtualTimer, timerToken: UInt64, clock: VirtualClock) throws(SystemError) {
        real = try Poller()
        self.timer = timer
        self.timerToken = timerToken
        self.clock = clock
    }

    public func add(_ fd: FileDescriptor, token: UInt64, events: PollEvents) throws(SystemError) {
        guard fd.rawValue >= 0 else { return }
        try real.add(fd, token: token, events: events)
    }
    public func modify(_ fd: FileDescriptor, token: UInt64, events: PollEvents) throws(SystemError) {
        guard fd.rawValue >= 0 else { return }
        try real.modify(fd, token: token, events: events)
    }
    public func remove(_ fd: FileDescriptor) throws(SystemError) {
        guard fd.rawValue >= 0 else { return }
        try real.remove(fd)
    }

    /// What is ready now, without waiting (`timeout` is ignored: the test drives time).
    public func wait(timeout: Int32, into ready: inout [PollResult]) throws(SystemError) {
        try real.wait(timeout: 0, into: &ready)
        if let armed = timer.armed, armed <= clock.time { ready.append(PollResult(token: timerToken, events: .readable)) }
    }
}
