/// The units of the recognizers' thresholds and measures, in types (as durations have
/// `Interval`): a distance in points, a speed in points per second, an angle in radians. A
/// threshold is read from the configuration once in its type, and the recognizers measure in the
/// same types (`Vector.distance`, `TouchPair.span`, `TouchPair.angle`), so a threshold is only
/// ever compared with a measure of its unit. Value wrappers with `@inlinable` arithmetic: they
/// cost nothing over the bare `Double` on the per-frame path.
///
/// `Distance` has no `+`, `-` or `/` of two distances, only named methods: with its
/// `* (Distance, Double)` and its literals, `100 + 2 * x` (x a `Double`) would be a `Distance` as
/// much as a `Double`, which Swift 6.0 rejects as ambiguous.

/// A distance on the screen, in points: a slop, a movement limit, a zone's width.
public struct Distance: Hashable, Comparable, Sendable, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral,
    CustomStringConvertible {
    public var points: Double
    @inlinable public init(points: Double) { self.points = points }
    @inlinable public init(floatLiteral value: Double) { points = value }
    @inlinable public init(integerLiteral value: Int) { points = Double(value) }
    @inlinable public static func < (a: Distance, b: Distance) -> Bool { a.points < b.points }
    @inlinable public static func * (a: Distance, k: Double) -> Distance { Distance(points: a.points * k) }
    @inlinable public static func += (a: inout Distance, b: Distance) { a.points += b.points }
    /// The average speed of covering `a` in `b`.
    @inlinable public static func / (a: Distance, b: Interval) -> Speed { Speed(pointsPerSecond: a.points / b.seconds) }
    /// How many times `other` fits in it: a ratio, without unit (a pinch's scale).
    @inlinable public func ratio(to other: Distance) -> Double { points / other.points }
    /// How far it is from `other`: |self − other|.
    @inlinable public func distance(to other: Distance) -> Distance { Distance(points: (points - other.points).magnitude) }
    public static let zero = Distance(points: 0)
    public var description: String { "\(points) pt" }
}

/// A speed on the screen, in points per second.
public struct Speed: Hashable, Comparable, Sendable, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral,
    CustomStringConvertible {
    public var pointsPerSecond: Double
    @inlinable public init(pointsPerSecond: Double) { self.pointsPerSecond = pointsPerSecond }
    @inlinable public init(floatLiteral value: Double) { pointsPerSecond = value }
    @inlinable public init(integerLiteral value: Int) { pointsPerSecond = Double(value) }
    @inlinable public static func < (a: Speed, b: Speed) -> Bool { a.pointsPerSecond < b.pointsPerSecond }
    public var description: String { "\(pointsPerSecond) pt/s" }
}

/// An angle, in radians (clockwise positive on the screen, y growing downwards).
public struct Angle: Hashable, Comparable, Sendable, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral,
    CustomStringConvertible {
    public var radians: Double
    @inlinable public init(radians: Double) { self.radians = radians }
    @inlinable public init(floatLiteral value: Double) { radians = value }
    @inlinable public init(integerLiteral value: Int) { radians = Double(value) }
    @inlinable public static func < (a: Angle, b: Angle) -> Bool { a.radians < b.radians }
    @inlinable public static func + (a: Angle, b: Angle) -> Angle { Angle(radians: a.radians + b.radians) }
    @inlinable public static func - (a: Angle, b: Angle) -> Angle { Angle(radians: a.radians - b.radians) }
    @inlinable public static func += (a: inout Angle, b: Angle) { a.radians += b.radians }
    @inlinable public var magnitude: Angle { Angle(radians: radians.magnitude) }
    public static let zero = Angle(radians: 0)
    public var description: String { "\(radians) rad" }
}
