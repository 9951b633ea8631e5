/// Which "connected" and "disconnected" lines the daemon writes: a burst per peer uid per window
/// (`RateLimiter`, keyed by uid), the disconnection of a connection logged exactly when its
/// connection was; and for a uid that connected more than that, one summary at the end of its
/// window: "uid 1001: 67,803 connections in 3 s, 67,795 not logged". A member of the socket's
/// group that loops connect/close then costs a handful of lines per window instead of two per
/// connection, which at tens of thousands a second would trip journald's own rate limit and
/// drop the daemon's real warnings.
///
/// Bounded: at most `capacity` uids are counted at once; the connections of any other uid are
/// counted together as "other uids". Pure: the caller passes `now` and writes what it is told.
public struct ConnectionLog: Sendable {
    private struct Period: Sendable {
        var start: Instant
        var last: Instant
        var connections = 0
        var unlogged = 0
    }

    /// The key of uids that found no room.
    public static let overflowKey = "other uids"

    private var limiter: RateLimiter
    private var periods: [String: Period] = [:]
    /// When the earliest window with unlogged connections ends (its summary is due).
    public private(set) var nextSummary: Instant?

    /// - Parameters:
    ///   - burst: connections logged per uid per window (with their disconnections).
    ///   - window: how long a uid's count runs before its summary.
    ///   - capacity: uids counted at once.
    public init(burst: Int = 5, window: Interval = Interval(seconds: 30), capacity: Int = 64) {
        limiter = RateLimiter(burst: burst, window: window, capacity: capacity)
    }

    public var window: Interval { limiter.window }

    /// The key a uid is counted under (nil: the kernel would not say who connected).
    public static func key(uid: UInt32?) -> String { uid.map { "uid \($0)" } ?? "unknown uid" }

    /// A client of `uid` connected at `now`: whether to log this connection (and, later, its
    /// disconnection). Call `summaries(now:)` first, so a window that ended is reported before a
    /// new one starts.
    public mutating func connected(uid: UInt32?, now: Instant) -> Bool {
        var key = Self.key(uid: uid)
        if let period = periods[key], period.start + limiter.window <= now { periods[key] = nil }
        if periods[key] == nil, periods.count >= limiter.capacity { key = Self.overflowKey }
        let logs = limiter.admit(key: key, now: now).logs
        var period = periods[key] ?? Period(start: now, last: now)
        period.connections += 1
        period.last = now
        if !logs {
            period.unlogged += 1
            let end = period.start + limiter.window
            nextSummary = min(nextSummary ?? end, end)
        }
        periods[key] = period
        return logs
    }

    /// The summary lines of the windows that ended by `now` with connections not logged, by key;
    /// forgets every window that ended.
    public mutating func summaries(now: Instant) -> [String] {
        guard let due = nextSummary, due <= now else {
            if periods.count >= limiter.capacity { forgetEnded(now: now) }
            return []
        }
        var lines: [String] = []
        for (key, period) in periods.sorted(by: { $0.key < $1.key }) where period.start + limiter.window <= now && period.unlogged > 0 {
            let seconds = ((period.last - period.start).microseconds + 999_999) / 1_000_000
            lines.append("\(key): \(Self.grouped(period.connections)) connections in \(max(1, seconds)) s, "
                         + "\(Self.grouped(period.unlogged)) not logged")
        }
        forgetEnded(now: now)
        return lines
    }

    private mutating func forgetEnded(now: Instant) {
        periods = periods.filter { $0.value.start + limiter.window > now }
        nextSummary = periods.values.filter { $0.unlogged > 0 }.map { $0.start + limiter.window }.min()
    }

    /// `67803` → `67,803`.
    static func grouped(_ value: Int) -> String {
        let digits = Array(String(value))
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return text
    }
}
