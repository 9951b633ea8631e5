import GesturedCore
import Glibc

/// The kernel's CLOCK_MONOTONIC, the clock evdev stamps events with (after
/// `EVIOCSCLOCKID`) and the clock `DeadlineTimer` runs on.
public enum MonotonicClock {
    /// Now, in microseconds. `clock_gettime(CLOCK_MONOTONIC)` cannot fail with a valid clock id
    /// and pointer, so this does not throw.
    public static func now() -> Instant {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Instant(seconds: Int64(time.tv_sec), microseconds: Int64(time.tv_nsec) / 1000)
    }
}
