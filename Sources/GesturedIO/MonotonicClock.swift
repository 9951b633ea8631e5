import GesturedCore
import Glibc

/// Where the daemon's parts read the time: CLOCK_MONOTONIC (`MonotonicClock.system`), or a
/// virtual clock in tests, which move it by hand.
public protocol Clock: AnyObject, Sendable {
    func now() -> Instant
}

/// The kernel's CLOCK_MONOTONIC, the clock evdev stamps events with (after
/// `EVIOCSCLOCKID`) and the clock `DeadlineTimer` runs on.
public enum MonotonicClock {
    /// The system's monotonic clock as a `Clock`.
    public static let system: any Clock = SystemClock()

    private final class SystemClock: Clock {
        func now() -> Instant { MonotonicClock.now() }
    }

    /// Now, in microseconds. `clock_gettime(CLOCK_MONOTONIC)` cannot fail with a valid clock id
    /// and pointer, so this does not throw.
    public static func now() -> Instant {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Instant(seconds: Int64(time.tv_sec), microseconds: Int64(time.tv_nsec) / 1000)
    }
}
