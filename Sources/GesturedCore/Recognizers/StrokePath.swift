/// A drawn path as the stroke recognizer keeps it: bounded, allocated once, thinned online.
///
/// Points closer than `sampleSpacing` to the last kept one are skipped: at 120 Hz a slow finger
/// moves less per frame than the sensor's jitter, and jitter would otherwise lengthen the path
/// and bend its resampling (measured: 4 pt instead of none takes the generator's shapes from
/// 95.8% to 99.6% recognized at the default score). The buffer holds `maximumPoints`; when it is
/// full every second point is dropped and the spacing doubles, so a long stroke keeps its whole
/// shape at a coarser step. `gestured record-stroke` and `replay --strokes` collect paths
/// through this type too, so a recorded template is what the recognizer would have seen.
public struct StrokePath: Sendable {
    /// Most points kept. 256 at 4 pt is a path of 1 000 pt before the first thinning; the
    /// matcher resamples to `StrokeMatcher.resampledCount` anyway.
    public static let maximumPoints = 256
    /// Least distance between two kept points, before any thinning.
    public static let sampleSpacing: Distance = 4

    /// The kept points (never more than `maximumPoints`).
    public private(set) var points: [Point] = []
    /// Length of the kept polyline.
    public private(set) var length = Distance.zero
    private var spacing = sampleSpacing
    private var minimum = Point.zero, maximum = Point.zero

    public init() { points.reserveCapacity(Self.maximumPoints) }

    /// The diagonal of the kept points' bounding box.
    public var diagonal: Distance { (maximum - minimum).distance }

    /// Adds `p` unless it is within the spacing of the last kept point.
    public mutating func add(_ p: Point) {
        guard let last = points.last else {
            points.append(p); minimum = p; maximum = p
            return
        }
        let d = (p - last).distance
        guard d >= spacing else { return }
        if points.count == Self.maximumPoints { thin() }
        points.append(p)
        length += d
        minimum = Point(x: min(minimum.x, p.x), y: min(minimum.y, p.y))
        maximum = Point(x: max(maximum.x, p.x), y: max(maximum.y, p.y))
    }

    /// Adds the last position of a stroke even when it is within the spacing, so that the path
    /// ends where the finger lifted.
    public mutating func finish(at p: Point) {
        guard let last = points.last, p != last, (p - last).distance < spacing else { return add(p) }
        if points.count == Self.maximumPoints { thin() }
        length += (p - last).distance
        points.append(p)
    }

    public mutating func removeAll() {
        points.removeAll(keepingCapacity: true)
        length = .zero
        spacing = Self.sampleSpacing
    }

    /// Keeps every second point and the last, in place, and doubles the spacing.
    private mutating func thin() {
        let n = points.count
        var kept = 0
        var i = 0
        while i < n {
            points[kept] = points[i]; kept += 1
            i += 2
        }
        if (n - 1) % 2 != 0 { points[kept] = points[n - 1]; kept += 1 }
        points.removeLast(n - kept)
        spacing = spacing * 2
    }

    /// The path of `points` as the recognizer would keep it.
    public static func kept<S: Sequence<Point>>(_ points: S) -> [Point] {
        var path = StrokePath()
        var last: Point?
        for p in points { path.add(p); last = p }
        if let last { path.finish(at: last) }
        return path.points
    }
}
