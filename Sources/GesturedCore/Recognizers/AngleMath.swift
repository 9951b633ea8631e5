extension Angle {
    /// The direction of `v` from the positive x axis, in (−π, π], growing clockwise on screen
    /// (`AngleMath.atan2`).
    static func direction(of v: Vector) -> Angle { Angle(radians: AngleMath.atan2(v.dy, v.dx)) }

    /// Brought into (−π, π]: as a difference of two directions, the shortest turn between them
    /// (`AngleMath.normalized`).
    var normalized: Angle { Angle(radians: AngleMath.normalized(radians)) }
}

/// Angle arithmetic for the recognizers, on the Swift standard library alone.
///
/// The core may not import Glibc or Foundation, and the standard library has no `atan2`, so it
/// lives here. Accuracy: within 1e-15 rad of libm's `atan2` over finite inputs
/// (`NumericTruthTests` compares them, and fails beyond 1e-9).
enum AngleMath {
    /// √3, and tan(π/12) = 2 − √3: the argument reduction's constants.
    private static let sqrt3 = 1.7320508075688772935
    private static let tanPiOver12 = 0.26794919243112270647

    /// The angle of the vector (x, y) from the positive x axis, in (−π, π], as libm's `atan2`.
    ///
    /// On screen (y grows downwards) the angle grows clockwise. Signed zeros follow IEEE 754:
    /// `atan2(±0, −x) = ±π`, `atan2(±0, +x) = ±0`.
    static func atan2(_ y: Double, _ x: Double) -> Double {
        if x.isNaN || y.isNaN { return .nan }
        let ax = x.magnitude, ay = y.magnitude
        var r: Double
        if ax == 0 && ay == 0 {
            r = x.sign == .minus ? .pi : 0
        } else if ay <= ax {
            r = atanUnit(ay / ax)
        } else {
            r = .pi / 2 - atanUnit(ax / ay)
        }
        if x < 0 { r = .pi - r }
        return y.sign == .minus ? -r : r
    }

    /// atan(z) for z in [0, 1].
    ///
    /// Above tan(π/12), atan(z) = π/6 + atan(t) with t = (z√3 − 1)/(z + √3), which brings the
    /// argument to |t| ≤ tan(π/12) ≈ 0.268. There the odd Taylor series of atan converges to double
    /// precision within 13 terms (0.268²⁷/27 < 1e-16), so no minimax fit is needed.
    private static func atanUnit(_ z: Double) -> Double {
        if z <= tanPiOver12 { return atanSmall(z) }
        return .pi / 6 + atanSmall((z * sqrt3 - 1) / (z + sqrt3))
    }

    /// atan(t) for |t| ≤ 0.268: t − t³/3 + t⁵/5 − … to t²⁵/25, by Horner's rule in t².
    private static func atanSmall(_ t: Double) -> Double {
        let t2 = t * t
        var sum = 0.0
        var k = 12
        while k >= 0 {
            let term = 1 / Double(2 * k + 1)
            sum = (k % 2 == 0 ? term : -term) + t2 * sum
            k -= 1
        }
        return t * sum
    }

    /// `angle` brought into (−π, π], so that the difference of two `atan2` results is the
    /// shortest turn between them (the per-frame delta of an unwrapped rotation).
    static func normalized(_ angle: Double) -> Double {
        var r = angle.truncatingRemainder(dividingBy: 2 * .pi)
        if r > .pi { r -= 2 * .pi } else if r <= -.pi { r += 2 * .pi }
        return r
    }

    /// (cos θ, sin θ): the unit vector at `angle` radians, for rotating by multiplication.
    ///
    /// The Taylor series of cos and sin, after reducing the angle into [−π, π], to the 30th
    /// power: π³⁰/30! < 1e-17, so the result is within a few ulps of libm's. Used where a
    /// configured angle becomes a rotation once (a tolerance, a built-in template's arcs), never
    /// per frame.
    static func unitVector(_ angle: Double) -> Vector {
        let t = normalized(angle)
        let t2 = t * t
        var cosine = 0.0, sine = 0.0
        var k = 15
        while k >= 1 {
            // cos: Σ (−1)^k t^2k/(2k)!, sin: Σ (−1)^k t^(2k+1)/(2k+1)!, by Horner's rule in t².
            cosine = 1 - t2 / Double((2 * k - 1) * (2 * k)) * cosine
            sine = 1 - t2 / Double((2 * k) * (2 * k + 1)) * sine
            k -= 1
        }
        return Vector(dx: cosine, dy: t * sine)
    }
}
