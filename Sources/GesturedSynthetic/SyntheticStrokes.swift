import GesturedCore
import Glibc

/// Strokes drawn by synthetic "hands", seeded: the data of the stroke tests and of the accuracy
/// figures of `gestured-bench strokes` (docs/RECOGNIZERS.md, "Stroke accuracy").
///
/// A hand takes a shape's template and draws it the way people do: at a size of 80–600 pt, with
/// its own aspect (±15% per axis), turned within a given angle, in either direction and (for a
/// closed shape) from any point, at a speed profile that starts and ends slowly (minimum jerk)
/// at a mean speed of 400–2500 pt/s (at least 0.2 s), sampled at 120 Hz, with corners rounded, a slow wobble, sensor jitter, and an
/// overshoot and a hook at the ends. Scribbles and straight lines are the shapes that must not
/// match.
public struct SyntheticHand: Sendable {
    /// One drawn stroke: where the finger was at each frame, and when (milliseconds from down).
    public struct Drawing: Sendable {
        public var points: [Point]
        public var times: [Double]
    }

    /// How much a hand varies; `standard` is what the accuracy figures use.
    public struct Variation: Sendable {
        public var sizes: ClosedRange<Double> = 80...600
        /// Mean speed along the path, in points per second (at least 0.2 s a stroke).
        public var speeds: ClosedRange<Double> = 400...2500
        /// Largest turn, in radians, either way.
        public var rotation = 25.0 * .pi / 180
        public var reverse = true
        public var jitter = 1.5
        public var wobble = 0.02
        public var overshoot = 0.08
        /// Largest stretch, as a fraction of the size, over which corners are rounded.
        public var rounding = 0.04
        public init() {}
    }

    public var variation: Variation
    private var rng: SplitMix64

    public init(seed: UInt64, variation: Variation = Variation()) {
        rng = SplitMix64(seed: seed); self.variation = variation
    }

    public mutating func uniform(_ low: Double, _ high: Double) -> Double { rng.uniform(low, high) }

    /// `template` drawn once, centred at `center`.
    public mutating func draw(_ template: [Point], center: Point = Point(x: 640, y: 400)) -> Drawing {
        var path = template
        let closed = (path[0] - path[path.count - 1]).length < 1e-6
        if variation.reverse && rng.next() % 2 == 0 { path.reverse() }
        if closed { path = Self.startingElsewhere(path, at: rng.uniform(0, 1)) }
        // Size, aspect, turn, around the shape's centre.
        let box = Self.bounds(path)
        let scale = rng.uniform(variation.sizes.lowerBound, variation.sizes.upperBound) / max(box.size.width, box.size.height)
        let (sx, sy) = (scale * rng.uniform(0.85, 1.15), scale * rng.uniform(0.85, 1.15))
        let angle = rng.uniform(-variation.rotation, variation.rotation)
        let (c, s) = (cos(angle), sin(angle))
        let mid = Point(x: box.midX, y: box.midY)
        path = path.map { p in
            let (x, y) = ((p.x - mid.x) * sx, (p.y - mid.y) * sy)
            return Point(x: center.x + c * x - s * y, y: center.y + s * x + c * y)
        }
        let size = { let b = Self.bounds(path); return max(b.size.width, b.size.height) }()
        // Overshoot at the end and a small hook at the start, along the ends' directions.
        path = Self.extended(path, end: rng.uniform(0, variation.overshoot) * size,
                             start: rng.uniform(0, variation.overshoot / 2) * size)
        let length = Self.length(path)
        let duration = max(200, length / rng.uniform(variation.speeds.lowerBound, variation.speeds.upperBound) * 1000)
        let frames = max(8, Int(duration / (1000.0 / 120)))
        // Rounded corners: each sample is the mean of the path over a short stretch around it.
        let rounding = rng.uniform(0, variation.rounding) * size
        let wobble = (phase: rng.uniform(0, 2 * .pi), cycles: rng.uniform(1, 3), amplitude: rng.uniform(0, variation.wobble) * size)
        var points: [Point] = [], times: [Double] = []
        for k in 0...frames {
            let u = Double(k) / Double(frames)
            let along = length * (10 * u * u * u - 15 * u * u * u * u + 6 * u * u * u * u * u)
            var p = Self.mean(path, around: along, radius: rounding, length: length)
            let w = wobble.amplitude * sin(wobble.phase + 2 * .pi * wobble.cycles * u)
            p = Point(x: p.x + w + rng.unit() * variation.jitter, y: p.y - w + rng.unit() * variation.jitter)
            points.append(p); times.append(u * duration)
        }
        return Drawing(points: points, times: times)
    }

    /// A scribble: a smooth random walk through 4–10 points in a box of 80–600 pt.
    public mutating func scribble(center: Point = Point(x: 640, y: 400)) -> Drawing {
        let size = rng.uniform(variation.sizes.lowerBound, variation.sizes.upperBound)
        let count = 4 + Int(rng.next() % 7)
        var controls: [Point] = []
        for _ in 0..<count {
            controls.append(Point(x: center.x + rng.unit() * size / 2, y: center.y + rng.unit() * size / 2))
        }
        var path: [Point] = []
        // Catmull-Rom through the points: curved like a hand, not a polygon.
        for i in 0..<(controls.count - 1) {
            let p0 = controls[max(i - 1, 0)], p1 = controls[i], p2 = controls[i + 1], p3 = controls[min(i + 2, controls.count - 1)]
            for step in 0..<12 {
                let t = Double(step) / 12, t2 = t * t, t3 = t2 * t
                func f(_ a: Double, _ b: Double, _ c: Double, _ d: Double) -> Double {
                    0.5 * (2 * b + (-a + c) * t + (2 * a - 5 * b + 4 * c - d) * t2 + (-a + 3 * b - 3 * c + d) * t3)
                }
                path.append(Point(x: f(p0.x, p1.x, p2.x, p3.x), y: f(p0.y, p1.y, p2.y, p3.y)))
            }
        }
        path.append(controls[controls.count - 1])
        return plain(path)
    }

    /// A straight line of 80–600 pt in any direction.
    public mutating func line(center: Point = Point(x: 640, y: 400)) -> Drawing {
        let length = rng.uniform(variation.sizes.lowerBound, variation.sizes.upperBound)
        let angle = rng.uniform(-.pi, .pi)
        let d = Vector(dx: cos(angle) * length / 2, dy: sin(angle) * length / 2)
        return plain([center - d, center + d])
    }

    /// `path` sampled at 120 Hz at the hand's speeds, with jitter, without the shape hand's other habits.
    private mutating func plain(_ path: [Point]) -> Drawing {
        let length = Self.length(path)
        let duration = max(200, length / rng.uniform(variation.speeds.lowerBound, variation.speeds.upperBound) * 1000)
        let frames = max(8, Int(duration / (1000.0 / 120)))
        var points: [Point] = [], times: [Double] = []
        for k in 0...frames {
            let u = Double(k) / Double(frames)
            let p = Self.point(path, at: length * u)
            points.append(Point(x: p.x + rng.unit() * variation.jitter, y: p.y + rng.unit() * variation.jitter))
            times.append(u * duration)
        }
        return Drawing(points: points, times: times)
    }

    // MARK: Path arithmetic

    public static func length(_ path: [Point]) -> Double {
        zip(path, path.dropFirst()).reduce(0) { $0 + ($1.1 - $1.0).length }
    }

    static func bounds(_ path: [Point]) -> Rect {
        let xs = path.map(\.x), ys = path.map(\.y)
        return Rect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    }

    /// The point `distance` along `path` (clamped to its ends).
    static func point(_ path: [Point], at distance: Double) -> Point {
        var rest = max(distance, 0)
        for (a, b) in zip(path, path.dropFirst()) {
            let d = (b - a).length
            if rest <= d, d > 0 { return a + (b - a) * (rest / d) }
            rest -= d
        }
        return path[path.count - 1]
    }

    /// The mean of the path's points over [along − radius, along + radius], in 7 samples.
    static func mean(_ path: [Point], around along: Double, radius: Double, length: Double) -> Point {
        guard radius > 0 else { return point(path, at: along) }
        var x = 0.0, y = 0.0
        for k in -3...3 {
            let p = point(path, at: min(max(along + radius * Double(k) / 3, 0), length))
            x += p.x; y += p.y
        }
        return Point(x: x / 7, y: y / 7)
    }

    /// A closed path started `fraction` of the way round.
    static func startingElsewhere(_ path: [Point], at fraction: Double) -> [Point] {
        let length = length(path)
        let start = length * fraction
        var result: [Point] = []
        let steps = max(64, path.count * 4)
        for k in 0...steps {
            let d = (start + length * Double(k) / Double(steps)).truncatingRemainder(dividingBy: length)
            result.append(point(path, at: d))
        }
        return result
    }

    /// The path with its end carried on by `end` and its start begun `start` earlier.
    static func extended(_ path: [Point], end: Double, start: Double) -> [Point] {
        var result = path
        if let last = path.last, let before = path.dropLast().last(where: { ($0 - last).length > 1e-9 }) {
            let d = last - before
            result.append(last + d * (end / d.length))
        }
        if let first = path.first, let after = path.dropFirst().first(where: { ($0 - first).length > 1e-9 }) {
            let d = first - after
            result.insert(first + d * (start / d.length), at: 0)
        }
        return result
    }
}

extension Rect {
    fileprivate var midX: Double { origin.x + size.width / 2 }
    fileprivate var midY: Double { origin.y + size.height / 2 }
}
