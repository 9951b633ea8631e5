import GesturedCore
import CLinux
import Glibc

/// A timer armed at absolute instants whose expiry the loop's poller reports: `DeadlineTimer`,
/// or a scripted one in tests.
public protocol DeadlineArming: AnyObject {
    var descriptor: FileDescriptor { get }
    /// Arms the timer to expire at `deadline`, or disarms it for nil.
    func arm(at deadline: Instant?) throws(SystemError)
    /// Clears the expiry (the descriptor's readability); the number of expirations.
    @discardableResult func acknowledge() throws(SystemError) -> UInt64
}

/// A timerfd on CLOCK_MONOTONIC armed at absolute instants: the one timer the daemon arms at the
/// core's next deadline.
public final class DeadlineTimer: DeadlineArming {
    public let descriptor: FileDescriptor
    private var isClosed = false

    public init() throws(SystemError) {
        let fd = try syscall("timerfd_create", onInterrupt: .fail) {
            timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        }
        descriptor = FileDescriptor(rawValue: fd)
    }

    deinit { if !isClosed { try? descriptor.close() } }

    /// Arms the timer to expire at `deadline` (absolute CLOCK_MONOTONIC), or disarms it for nil.
    ///
    /// A deadline already in the past expires at once. An all-zero `it_value` would disarm
    /// instead, so instants at or before zero are moved to 1 ns.
    public func arm(at deadline: Instant?) throws(SystemError) {
        var spec = itimerspec()
        if let deadline {
            let micros = max(deadline.microseconds, 0)
            spec.it_value.tv_sec = Int(micros / 1_000_000)
            spec.it_value.tv_nsec = Int(micros % 1_000_000) * 1000
            if micros == 0 { spec.it_value.tv_nsec = 1 }
        }
        try syscall("timerfd_settime", onInterrupt: .retry) {
            timerfd_settime(descriptor.rawValue, Int32(TFD_TIMER_ABSTIME), &spec, nil)
        }
    }

    /// Reads and returns the number of expirations since the last call (0 when none: the
    /// descriptor is non-blocking), which also clears readability.
    @discardableResult
    public func acknowledge() throws(SystemError) -> UInt64 {
        var expirations: UInt64 = 0
        do {
            try syscall("read(timerfd)", onInterrupt: .retry) {
                withUnsafeMutableBytes(of: &expirations) { Glibc.read(descriptor.rawValue, $0.baseAddress, 8) }
            }
        } catch where error.errno == .wouldBlock {
            return 0
        }
        return expirations
    }

    public func close() throws(SystemError) {
        guard !isClosed else { return }
        isClosed = true
        try descriptor.close()
    }
}
