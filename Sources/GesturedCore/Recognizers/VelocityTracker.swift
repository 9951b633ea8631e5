/// Velocity of a continuous value (a translation, a scale, a rotation) from its recent samples.
///
/// A single-frame difference jumps with every uneven frame interval and every jittery sample, so
/// the velocity is the slope of the least-squares line through the samples of the last
/// `GestureDefaults.velocityHorizon` (100 ms), stopping early at a gap longer than
/// `GestureDefaults.velocityStopGap` (40 ms: the touch had stopped), with at least
/// `GestureDefaults.minimumVelocitySamples` samples, else 0 (Flutter's `VelocityTracker` does the
/// same with a quadratic fit; a line is steadier at the release of a flick).
///
/// The samples live in a fixed-capacity ring stored inline (a homogeneous tuple, read and written
/// through a pointer to its first element, as both Swift 6.0 and 6.3 accept): adding one never
/// allocates.
struct VelocityTracker: Sendable {
    struct Sample: Sendable {
        var time: Instant
        var x: Double
        var y: Double
    }

    /// Flutter `VelocityTracker._historySize`; 100 ms holds 12 samples at 120 Hz.
    static let capacity = 20

    private typealias Ring = (Sample, Sample, Sample, Sample, Sample, Sample, Sample, Sample, Sample, Sample,
                              Sample, Sample, Sample, Sample, Sample, Sample, Sample, Sample, Sample, Sample)
    private static let empty = Sample(time: .zero, x: 0, y: 0)
    private var ring: Ring = (empty, empty, empty, empty, empty, empty, empty, empty, empty, empty,
                              empty, empty, empty, empty, empty, empty, empty, empty, empty, empty)
    /// Index of the newest sample; meaningful when `count > 0`.
    private var newest = 0
    private(set) var count = 0

    /// Records the value (x, y) at `time`. Times must not decrease.
    mutating func add(_ time: Instant, x: Double, y: Double = 0) {
        let index = (newest + 1) % Self.capacity
        newest = index
        withUnsafeMutablePointer(to: &ring) { tuple in
            tuple.withMemoryRebound(to: Sample.self, capacity: Self.capacity) { $0[index] = Sample(time: time, x: x, y: y) }
        }
        count = min(count + 1, Self.capacity)
    }

    mutating func removeAll() { count = 0 }

    /// The velocity per second of each component, at the newest sample. A `mutating get`
    /// though it changes nothing: read from a non-mutating context, the inline ring would be
    /// copied to a temporary for every read.
    var velocity: (x: Double, y: Double) {
        mutating get {
            guard count > 0 else { return (0, 0) }
            let (count, newest) = (count, newest)
            // Read in place through a pointer: a copy of the ring would be 480 bytes a read.
            return withUnsafeMutablePointer(to: &ring) { tuple in
                tuple.withMemoryRebound(to: Sample.self, capacity: Self.capacity) { ring in
                    Self.slope(UnsafeBufferPointer(start: ring, count: Self.capacity), newest: newest, count: count)
                }
            }
        }
    }

    /// The least-squares slope over the `count` samples of `ring` that end at `newest`.
    private static func slope(_ ring: UnsafeBufferPointer<Sample>, newest: Int, count: Int) -> (x: Double, y: Double) {
        let newestSample = ring[newest]
        // One pass, walking back from the newest sample while it is recent and continuous, summing
        // times relative to it (seconds, ≤ 0) and values relative to it (so the sums stay small
        // and the centred sums below lose nothing to cancellation).
        var used = 0
        var previous = newestSample.time
        var st = 0.0, sx = 0.0, sy = 0.0, stt = 0.0, stx = 0.0, sty = 0.0
        var index = newest
        while used < count {
            let s = ring[index]
            guard newestSample.time - s.time <= GestureDefaults.velocityHorizon,
                  previous - s.time <= GestureDefaults.velocityStopGap else { break }
            previous = s.time
            used += 1
            let t = (s.time - newestSample.time).seconds
            let (x, y) = (s.x - newestSample.x, s.y - newestSample.y)
            st += t; sx += x; sy += y
            stt += t * t; stx += t * x; sty += t * y
            index = index == 0 ? capacity - 1 : index - 1
        }
        guard used >= GestureDefaults.minimumVelocitySamples else { return (0, 0) }
        // Least squares: slope = Σ(t−t̄)(v−v̄) / Σ(t−t̄)², with the centred sums from the raw ones.
        let n = Double(used)
        stt -= st * st / n
        stx -= st * sx / n
        sty -= st * sy / n
        guard stt > 0 else { return (0, 0) }
        return (stx / stt, sty / stt)
    }
}
