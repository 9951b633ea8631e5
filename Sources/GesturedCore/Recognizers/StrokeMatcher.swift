/// Scores a drawn path against stroke templates: Protractor (Li, CHI 2010) with a bounded
/// rotation, both drawing directions, and every start point of a closed shape.
///
/// Why this method (docs/RECOGNIZERS.md, "Stroke accuracy", has the measurements): each path is
/// resampled to `resampledCount` equidistant points, moved to its centroid and scaled to a unit
/// vector, so position, size and drawing speed drop out. The similarity of two such vectors
/// under a rotation θ is `a·cos θ + b·sin θ` (a: their dot product, b: their cross product), so
/// the best rotation is found in closed form, with no iterative search as in $1 and no
/// trigonometry: within a bound B it is the optimum when `a ≥ cos B·√(a²+b²)`, otherwise the
/// bound itself. Drawing direction drops out by also reading the drawing backwards; for a closed
/// template (its ends meet) every cyclic shift of the drawing is tried too, so a rectangle drawn
/// from any corner, either way round, matches. $P (point clouds) is invariant to both by
/// construction, but costs O(n²·√n) per template and loses the order that tells `x` from
/// `delete`; on the generator Protractor with these two extensions scored higher at a fraction
/// of the cost.
///
/// The score is `1 − φ/(π/2)` where φ is the angle between the two unit vectors after the best
/// allowed rotation (clamped to 0): 1 for the same shape, 0.8 at 18°.
///
/// `bestMatch` uses a buffer made at init: matching allocates nothing.
public struct StrokeMatcher: Sendable {
    /// Points a path is resampled to. Protractor's paper found 16 enough for its set; 32 keeps
    /// the corners of a star and the hooks of the braces (the generator's accuracy is the same
    /// at 64, and each comparison costs half).
    public static let resampledCount = 32

    /// A closed template's ends are nearer than this fraction of its bounding box's diagonal.
    static let closedGap = 0.2
    /// A drawing matches no template whose thickness (`thickness(_:)`) is more than this many
    /// times its own: uniform scaling keeps a line and a thin shape (a brace) close, and this
    /// tells a straight stroke from a shape that has width.
    static let thicknessRatio = 3.0

    public struct Match: Hashable, Sendable {
        /// Index into `names`.
        public var nameIndex: Int
        public var score: Double
    }

    /// The templates' distinct names, in the order they first appear.
    public let names: [String]
    /// Per template: its name's index, and whether it is closed.
    private let nameIndices: [Int]
    private let closed: [Bool]
    private let thicknesses: [Double]
    /// Every template's normalized vector, `2 × resampledCount` numbers each, one after another.
    private let vectors: [Double]
    /// cos and sin of the rotation bound; nil: any rotation.
    private let bound: Vector?
    /// The largest ratio of path length to bounding-box diagonal among the templates (the
    /// early-fail rule compares a drawing's ratio with it).
    public let longestRatio: Double
    private let bothDirections: Bool
    /// The drawing's normalized vector (scratch, sized once) and its thickness.
    private var candidate: [Double]
    private var candidateThickness = 0.0
    /// When the drawing goes round its centre more than once: its first turn, normalized (for
    /// closed templates: a circle drawn round twice is a circle).
    private var firstTurn: [Double]
    private var firstTurnThickness = 0.0
    private var hasFirstTurn = false
    private let anyClosed: Bool

    /// - Parameters:
    ///   - bothDirections, everyStart: whether to read the drawing backwards too and, for closed
    ///     templates, from every start point. Always true in the daemon; false only to measure
    ///     what they are worth (`gestured-bench strokes`).
    public init(templates: [StrokeTemplate], orientationSensitive: Bool = true,
                rotationTolerance: Angle = GestureDefaults.strokeRotationTolerance,
                bothDirections: Bool = true, everyStart: Bool = true) {
        var names: [String] = []
        var nameIndices: [Int] = [], closed: [Bool] = [], vectors: [Double] = [], thicknesses: [Double] = []
        var longestRatio = 0.0
        var scratch = [Double](repeating: 0, count: 2 * Self.resampledCount)
        for template in templates {
            let ok = template.points.withUnsafeBufferPointer { points in
                scratch.withUnsafeMutableBufferPointer { Self.normalize(points, into: $0) }
            }
            guard ok else { continue }
            if let i = names.firstIndex(of: template.name) { nameIndices.append(i) } else {
                nameIndices.append(names.count); names.append(template.name)
            }
            let shape = PathShape(template.points)
            let isClosed = everyStart && shape.gap <= Self.closedGap * shape.diagonal
            closed.append(isClosed)
            // A closed shape may be drawn round twice and still match (on its first turn).
            let turns = isClosed ? 2.0 : 1.0
            longestRatio = max(longestRatio, turns * shape.length / max(shape.diagonal, .ulpOfOne))
            vectors.append(contentsOf: scratch)
            thicknesses.append(scratch.withUnsafeBufferPointer { Self.thickness($0) })
        }
        self.names = names; self.nameIndices = nameIndices; self.closed = closed; self.vectors = vectors
        self.thicknesses = thicknesses
        self.longestRatio = longestRatio
        self.bothDirections = bothDirections
        bound = orientationSensitive ? AngleMath.unitVector(min(max(rotationTolerance.radians, 0), .pi)) : nil
        candidate = scratch
        firstTurn = scratch
        anyClosed = closed.contains(true)
    }

    /// How many templates (examples) it holds.
    public var templateCount: Int { nameIndices.count }

    /// The best-scoring template for `path`, or nil when the path has no length.
    public mutating func bestMatch(_ path: UnsafeBufferPointer<Point>) -> Match? {
        var best: Match?
        guard prepare(path) else { return nil }
        for t in nameIndices.indices {
            let score = score(template: t)
            if best.map({ score > $0.score }) ?? true { best = Match(nameIndex: nameIndices[t], score: score) }
        }
        return best
    }

    /// Every name's best score for `path` (in `names` order; all 0 when the path has no length):
    /// the tuning view of `gestured replay --strokes`.
    public mutating func scores(_ path: [Point]) -> [Double] {
        var result = [Double](repeating: 0, count: names.count)
        guard path.withUnsafeBufferPointer({ prepare($0) }) else { return result }
        for t in nameIndices.indices { result[nameIndices[t]] = max(result[nameIndices[t]], score(template: t)) }
        return result
    }

    private mutating func prepare(_ path: UnsafeBufferPointer<Point>) -> Bool {
        guard candidate.withUnsafeMutableBufferPointer({ Self.normalize(path, into: $0) }) else { return false }
        candidateThickness = candidate.withUnsafeBufferPointer { Self.thickness($0) }
        hasFirstTurn = false
        if anyClosed, let end = Self.endOfFirstTurn(path), end < path.count - 1 {
            hasFirstTurn = firstTurn.withUnsafeMutableBufferPointer {
                Self.normalize(UnsafeBufferPointer(rebasing: path[...end]), into: $0)
            }
            firstTurnThickness = firstTurn.withUnsafeBufferPointer { Self.thickness($0) }
        }
        return true
    }

    /// A drawing counts as going round more than once from this many turns round the mean of
    /// its points: a scribble often turns once or so, a shape drawn over twice nearly twice
    /// (at 1.0 the generator's scribbles matched a closed shape 5% of the time, at 1.75 1.5%).
    static let repeatedTurns = 2.0

    /// The index of the first point at which the path has gone once round the mean of its
    /// points, when it goes round at least `repeatedTurns` in all; nil otherwise.
    static func endOfFirstTurn(_ path: UnsafeBufferPointer<Point>) -> Int? {
        guard path.count > 2 else { return nil }
        var cx = 0.0, cy = 0.0
        for p in path { cx += p.x; cy += p.y }
        cx /= Double(path.count); cy /= Double(path.count)
        var previous = AngleMath.atan2(path[0].y - cy, path[0].x - cx)
        var turned = 0.0
        var end: Int?
        for i in 1..<path.count {
            let angle = AngleMath.atan2(path[i].y - cy, path[i].x - cx)
            turned += AngleMath.normalized(angle - previous)
            previous = angle
            if end == nil && turned.magnitude >= 2 * .pi { end = i }
        }
        return turned.magnitude >= repeatedTurns * 2 * .pi ? end : nil
    }

    /// √(λmin/λmax) of the normalized points' covariance: 0 for a straight line, 1 for a shape
    /// as wide as it is long (a circle). Free of rotation, so it needs no angle.
    static func thickness(_ v: UnsafeBufferPointer<Double>) -> Double {
        var xx = 0.0, yy = 0.0, xy = 0.0
        for i in 0..<resampledCount {
            let (x, y) = (v[2 * i], v[2 * i + 1])
            xx += x * x; yy += y * y; xy += x * y
        }
        let mean = (xx + yy) / 2
        let spread = (((xx - yy) / 2) * ((xx - yy) / 2) + xy * xy).squareRoot()
        let (large, small) = (mean + spread, max(mean - spread, 0))
        return large > 0 ? (small / large).squareRoot() : 0
    }

    /// The template's best score against the drawing, over both directions and, when the
    /// template is closed, every start point and the drawing's first turn.
    private func score(template t: Int) -> Double {
        let whole = score(template: t, candidate, thickness: candidateThickness)
        guard closed[t], hasFirstTurn else { return whole }
        return max(whole, score(template: t, firstTurn, thickness: firstTurnThickness))
    }

    private func score(template t: Int, _ candidate: [Double], thickness: Double) -> Double {
        guard thicknesses[t] <= Self.thicknessRatio * thickness else { return 0 }
        let n = Self.resampledCount
        return vectors.withUnsafeBufferPointer { all in
            candidate.withUnsafeBufferPointer { g in
                let v = UnsafeBufferPointer(rebasing: all[(2 * n * t)..<(2 * n * (t + 1))])
                var best = -1.0
                if closed[t] {
                    // Points 0 and n−1 of a closed path coincide: n−1 distinct start points,
                    // compared without the template's last point, and with the vectors'
                    // norms over those n−1 points, so that the result stays a cosine.
                    let m = n - 1
                    let norms = ((1 - v[2 * m] * v[2 * m] - v[2 * m + 1] * v[2 * m + 1])
                        * (1 - g[2 * m] * g[2 * m] - g[2 * m + 1] * g[2 * m + 1])).squareRoot()
                    guard norms > 0 else { return 0 }
                    for shift in 0..<m {
                        best = max(best, similarity(v, g, count: m) { ($0 + shift) % m } / norms)
                        if bothDirections {
                            best = max(best, similarity(v, g, count: m) { (shift + m - $0) % m } / norms)
                        }
                    }
                } else {
                    best = similarity(v, g, count: n) { $0 }
                    if bothDirections { best = max(best, similarity(v, g, count: n) { n - 1 - $0 }) }
                }
                return Self.score(cosine: best)
            }
        }
    }

    /// The dot product of the template `v`'s first `count` points and the drawing `g` read in
    /// the order `index`, after the best rotation within the bound.
    @inline(__always)
    private func similarity(_ v: UnsafeBufferPointer<Double>, _ g: UnsafeBufferPointer<Double>, count: Int,
                            _ index: (Int) -> Int) -> Double {
        var a = 0.0, b = 0.0
        for i in 0..<count {
            let j = index(i)
            let (tx, ty, gx, gy) = (v[2 * i], v[2 * i + 1], g[2 * j], g[2 * j + 1])
            a += tx * gx + ty * gy
            b += tx * gy - ty * gx
        }
        let r = (a * a + b * b).squareRoot()
        guard let bound, a < bound.dx * r else { return r }
        return a * bound.dx + b.magnitude * bound.dy
    }

    /// `1 − φ/(π/2)` for the angle φ whose cosine is `cosine`, clamped to 0…1.
    static func score(cosine: Double) -> Double {
        let c = min(max(cosine, -1), 1)
        let angle = AngleMath.atan2((1 - c * c).squareRoot(), c)
        return max(0, 1 - angle / (.pi / 2))
    }
}
