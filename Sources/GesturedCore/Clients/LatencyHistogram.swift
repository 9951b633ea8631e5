/// How long the daemon took from having read a device's events (once the read returns) to
/// having written the resulting lines to every client, one sample per read: the figure behind
/// the `stats` line.
///
/// Buckets of 1 µs up to `limit`, so a percentile is exact to the microsecond where it
/// matters; slower samples share the last bucket and still count in `maximum`. The storage is
/// allocated once: recording a sample never allocates.
public struct LatencyHistogram: Sendable {
    /// 10 ms: far beyond any frame's budget (a panel reports every 4–17 ms).
    public static let limit = 10_000

    private var buckets: [UInt64]
    public private(set) var count: UInt64 = 0
    public private(set) var maximum = Interval.zero

    public init() { buckets = Array(repeating: 0, count: Self.limit + 1) }

    public mutating func record(_ latency: Interval) {
        let us = max(0, latency.microseconds)
        buckets[Int(min(us, Int64(Self.limit)))] += 1
        count += 1
        if latency > maximum { maximum = latency }
    }

    /// The smallest latency that `fraction` of the samples do not exceed (nearest rank);
    /// zero with no samples.
    public func percentile(_ fraction: Double) -> Interval {
        guard count > 0 else { return .zero }
        let rank = max(1, UInt64((fraction * Double(count)).rounded(.up)))
        var seen: UInt64 = 0
        for (us, n) in buckets.enumerated() {
            seen += n
            if seen >= rank { return us == Self.limit ? maximum : Interval(microseconds: Int64(us)) }
        }
        return maximum
    }
}
