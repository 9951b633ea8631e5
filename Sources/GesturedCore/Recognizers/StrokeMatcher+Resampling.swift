/// A path as the matcher compares it: resampled to equidistant points, centred and scaled to a
/// unit vector (Protractor's preprocessing); and the measures of its shape (`PathShape`).
extension StrokeMatcher {
    /// Resamples `path` to `resampledCount` equidistant points along it, moves their centroid to
    /// the origin and scales them to a unit vector, into `out` (x, y, x, y, …). False when the
    /// path has no length.
    static func normalize(_ path: UnsafeBufferPointer<Point>, into out: UnsafeMutableBufferPointer<Double>) -> Bool {
        let n = resampledCount
        guard let first = path.first else { return false }
        var length = 0.0
        for i in path.indices.dropFirst() { length += (path[i] - path[i - 1]).length }
        guard length > 0 else { return false }
        let step = length / Double(n - 1)
        out[0] = first.x; out[1] = first.y
        var count = 1
        var carried = 0.0   // distance walked since the last resampled point
        var previous = first
        var i = 1
        while i < path.count && count < n {
            let next = path[i]
            let d = (next - previous).length
            if carried + d >= step && d > 0 {
                let q = previous + (next - previous) * ((step - carried) / d)
                out[2 * count] = q.x; out[2 * count + 1] = q.y
                count += 1
                previous = q
                carried = 0
            } else {
                carried += d
                previous = next
                i += 1
            }
        }
        // Rounding can leave the last point unwritten: it is the path's end.
        let last = path[path.count - 1]
        while count < n { out[2 * count] = last.x; out[2 * count + 1] = last.y; count += 1 }
        var cx = 0.0, cy = 0.0
        for k in 0..<n { cx += out[2 * k]; cy += out[2 * k + 1] }
        cx /= Double(n); cy /= Double(n)
        var sum = 0.0
        for k in 0..<n {
            out[2 * k] -= cx; out[2 * k + 1] -= cy
            sum += out[2 * k] * out[2 * k] + out[2 * k + 1] * out[2 * k + 1]
        }
        let norm = sum.squareRoot()
        guard norm > 0 else { return false }
        for k in 0..<(2 * n) { out[k] /= norm }
        return true
    }
}

/// A path's length, the diagonal of its bounding box and the gap between its ends.
struct PathShape {
    var length = 0.0
    var diagonal = 0.0
    var gap = 0.0

    init<C: Collection<Point>>(_ points: C) {
        guard let first = points.first else { return }
        var (minX, minY, maxX, maxY) = (first.x, first.y, first.x, first.y)
        var previous = first
        for p in points {
            length += (p - previous).length
            previous = p
            minX = min(minX, p.x); maxX = max(maxX, p.x); minY = min(minY, p.y); maxY = max(maxY, p.y)
        }
        diagonal = Vector(dx: maxX - minX, dy: maxY - minY).length
        gap = (previous - first).length
    }
}
