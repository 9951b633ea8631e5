import GesturedCore

/// The targets of `gestured calibrate` and the least-squares fit of libinput's calibration matrix
/// from where a panel reported each touch (docs/KIOSK.md, "Calibration").
///
/// Everything is on normalized coordinates in [0, 1], libinput's convention for
/// `LIBINPUT_CALIBRATION_MATRIX`: a raw position is `(v - min) / (max - min)` per axis (the same
/// normalization as `DeviceGeometry`), a target is its place on the screen divided by the
/// screen's size, and the matrix `[a b c; d e f]` maps the first onto the second:
/// x' = a·x + b·y + c, y' = d·x + e·y + f.

/// A position in normalized coordinates: (0, 0) is the top left corner, (1, 1) the bottom right.
public struct NormalizedPoint: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }

    /// A raw device position normalized by its axes' ranges (0 on an empty range, as
    /// `DeviceGeometry` does).
    public init(_ position: DevicePosition, x: AxisInfo, y: AxisInfo) {
        func normalize(_ value: Int32, _ axis: AxisInfo) -> Double {
            let span = Double(axis.maximum) - Double(axis.minimum)
            return span > 0 ? (Double(value) - Double(axis.minimum)) / span : 0
        }
        self.init(x: normalize(position.x, x), y: normalize(position.y, y))
    }

    public var description: String { "(\(LineEncoder.fixed(x, decimals: 4)), \(LineEncoder.fixed(y, decimals: 4)))" }
}

/// The four places to touch, in the order they are shown.
public enum CalibrationTarget: Int, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    case topLeft, topRight, bottomRight, bottomLeft

    /// How far in from each edge the targets sit, as a fraction of the width and height: far
    /// enough from the bezel that a finger can be put on them squarely (a resistive panel's
    /// edges are its least linear part), near enough to the corners that the fit sees the
    /// whole panel's skew.
    public static let inset = 0.125

    /// Where it is shown, in normalized screen coordinates.
    public var point: NormalizedPoint {
        let near = Self.inset, far = 1 - Self.inset
        switch self {
        case .topLeft: return NormalizedPoint(x: near, y: near)
        case .topRight: return NormalizedPoint(x: far, y: near)
        case .bottomRight: return NormalizedPoint(x: far, y: far)
        case .bottomLeft: return NormalizedPoint(x: near, y: far)
        }
    }

    /// `top left`, `top right`, `bottom right`, `bottom left`.
    public var description: String {
        switch self {
        case .topLeft: "top left"
        case .topRight: "top right"
        case .bottomRight: "bottom right"
        case .bottomLeft: "bottom left"
        }
    }
}

/// Why a set of touches gives no matrix.
public enum CalibrationFitRefusal: Error, Hashable, Sendable, CustomStringConvertible {
    /// The touches do not span the screen in both directions (all at one place, or on one line):
    /// no affine map, or only a wildly magnifying one, sends them to the targets.
    case degenerate(spread: Double, minimum: Double)
    /// The touches are not where any affine map of the panel puts them: at least one was far off
    /// its target (`residual` and `limit` in points).
    case residual(Double, limit: Double)

    public var description: String {
        switch self {
        case .degenerate(let spread, let minimum):
            "the touches do not span the screen (spread \(LineEncoder.fixed(spread, decimals: 4)) of the panel's range, "
                + "at least \(LineEncoder.fixed(minimum, decimals: 4)) needed): each target must be touched where it is shown"
        case .residual(let residual, let limit):
            "a touch was far off its target: the fit misses by \(LineEncoder.fixed(residual, decimals: 1)) points, "
                + "more than the limit of \(LineEncoder.fixed(limit, decimals: 1))"
        }
    }
}

/// A fitted matrix and how well it explains the touches.
public struct CalibrationFit: Hashable, Sendable {
    /// The fraction of the screen's diagonal above which a fit is refused (2 %).
    ///
    /// With four touches and six unknowns, the part of the touches no affine map explains is a
    /// single pattern (alternating signs at the four corners): a touch that misses its place by
    /// a distance `m` leaves about `m / 4` at every touch. 2 % of the diagonal (30 points on a
    /// 1280 × 800 screen, about 5 mm at 160 points per inch) therefore refuses a touch about 8 %
    /// of the diagonal off (two fingers' widths), while the scatter of a careful press (a few
    /// points) stays far below it.
    public static let residualLimitFraction = 0.02
    /// The smallest spread of the touches, as a fraction of the targets' own spread (1/10): below
    /// it the matrix would magnify the panel more than tenfold, which is no panel but touches all
    /// made in one place or along one line.
    public static let minimumSpreadFraction = 0.1

    /// libinput's `a b c d e f`.
    public var matrix: [Double]
    /// The largest distance, in points, between where the matrix puts a touch and its target.
    public var residual: Double

    /// The residual limit in points for a screen of `size` (`residualLimitFraction` of its
    /// diagonal).
    public static func residualLimit(screen size: Size) -> Double {
        residualLimitFraction * (size.width * size.width + size.height * size.height).squareRoot()
    }

    /// The least-squares fit of the matrix that sends each raw point onto its target.
    ///
    /// The two rows are independent problems with the same design matrix `[x y 1]`; each is
    /// solved by the normal equations on centred coordinates (the 2 × 2 covariance of the raw
    /// points), which is exact when the pairs are an exact affine map and well conditioned for
    /// points near the screen's corners.
    /// - Parameters:
    ///   - pairs: at least three (raw, target) pairs; `gestured calibrate` gives four.
    ///   - screen: the screen's size, to measure the residual in points.
    /// - Throws: `.degenerate` when the raw points do not span both directions. The residual is
    ///   measured, not judged: `CalibrationSession` compares it with `residualLimit`.
    public static func fit(_ pairs: [(raw: NormalizedPoint, target: NormalizedPoint)],
                           screen: Size) throws(CalibrationFitRefusal) -> CalibrationFit {
        let n = Double(pairs.count)
        guard pairs.count >= 3 else { throw .degenerate(spread: 0, minimum: 0) }
        func mean(_ value: ((raw: NormalizedPoint, target: NormalizedPoint)) -> Double) -> Double {
            pairs.reduce(0) { $0 + value($1) } / n
        }
        let mx = mean { $0.raw.x }, my = mean { $0.raw.y }
        let tx = mean { $0.target.x }, ty = mean { $0.target.y }
        var sxx = 0.0, sxy = 0.0, syy = 0.0, txx = 0.0, tyy = 0.0
        var bx = (0.0, 0.0), by = (0.0, 0.0)
        for pair in pairs {
            let dx = pair.raw.x - mx, dy = pair.raw.y - my
            let ex = pair.target.x - tx, ey = pair.target.y - ty
            sxx += dx * dx; sxy += dx * dy; syy += dy * dy
            txx += ex * ex; tyy += ey * ey
            bx.0 += dx * ex; bx.1 += dy * ex
            by.0 += dx * ey; by.1 += dy * ey
        }
        // The smallest spread of the raw points (the square root of the covariance's smaller
        // eigenvalue, per point) against the targets' smaller spread.
        let trace = (sxx + syy) / n, det = (sxx * syy - sxy * sxy) / (n * n)
        let smallest = max(0, trace / 2 - max(0, trace * trace / 4 - det).squareRoot())
        let spread = smallest.squareRoot()
        let minimum = minimumSpreadFraction * (min(txx, tyy) / n).squareRoot()
        guard spread.isFinite, spread >= minimum, spread > 0 else { throw .degenerate(spread: spread, minimum: minimum) }
        let d = sxx * syy - sxy * sxy
        let a = (bx.0 * syy - bx.1 * sxy) / d, b = (bx.1 * sxx - bx.0 * sxy) / d
        let dd = (by.0 * syy - by.1 * sxy) / d, e = (by.1 * sxx - by.0 * sxy) / d
        let matrix = [a, b, tx - a * mx - b * my, dd, e, ty - dd * mx - e * my]
        var residual = 0.0
        for pair in pairs {
            let fx = matrix[0] * pair.raw.x + matrix[1] * pair.raw.y + matrix[2]
            let fy = matrix[3] * pair.raw.x + matrix[4] * pair.raw.y + matrix[5]
            let distance = Vector(dx: (fx - pair.target.x) * screen.width, dy: (fy - pair.target.y) * screen.height).length
            residual = max(residual, distance)
        }
        return CalibrationFit(matrix: matrix, residual: residual)
    }
}
