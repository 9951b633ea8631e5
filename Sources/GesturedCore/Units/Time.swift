/// A point in time on the kernel's CLOCK_MONOTONIC, in microseconds.
///
/// evdev stamps events with `struct timeval` (seconds + microseconds), and the timerfd takes the
/// same clock, so one integer type carries every timestamp in the core (libinput keeps its timers
/// in `uint64_t` microseconds for the same reason). Replay uses the recording's own timestamps as
/// the virtual clock.
public struct Instant: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var microseconds: Int64

    @inlinable public init(microseconds: Int64) { self.microseconds = microseconds }

    /// From a `struct timeval`-style pair.
    @inlinable public init(seconds: Int64, microseconds: Int64) {
        self.microseconds = seconds &* 1_000_000 &+ microseconds
    }

    public static let zero = Instant(microseconds: 0)

    @inlinable public static func < (a: Instant, b: Instant) -> Bool { a.microseconds < b.microseconds }
    @inlinable public static func + (a: Instant, b: Interval) -> Instant {
        Instant(microseconds: a.microseconds &+ b.microseconds)
    }
    @inlinable public static func - (a: Instant, b: Instant) -> Interval {
        Interval(microseconds: a.microseconds &- b.microseconds)
    }

    /// `seconds.micros` with exactly six decimals, as the line protocol writes `time`.
    public var description: String {
        let negative = microseconds < 0
        let magnitude = negative ? 0 &- microseconds : microseconds
        let fraction = String(magnitude % 1_000_000)
        let padded = String(repeating: "0", count: 6 - fraction.count) + fraction
        return (negative ? "-" : "") + String(magnitude / 1_000_000) + "." + padded
    }
}

/// A length of time, in microseconds.
public struct Interval: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var microseconds: Int64

    @inlinable public init(microseconds: Int64) { self.microseconds = microseconds }

    /// From seconds, as the configuration writes durations; rounded to the nearest microsecond.
    @inlinable public init(seconds: Double) {
        self.microseconds = Int64((seconds * 1_000_000).rounded())
    }

    @inlinable public static func milliseconds(_ ms: Int64) -> Interval { Interval(microseconds: ms * 1000) }

    public static let zero = Interval(microseconds: 0)

    @inlinable public var seconds: Double { Double(microseconds) / 1_000_000 }

    @inlinable public static func < (a: Interval, b: Interval) -> Bool { a.microseconds < b.microseconds }

    public var description: String { "\(seconds)s" }
}
