/// The units of the configuration's thresholds, in types (as durations have `Interval`): a
/// distance in points, a speed in points per second, an angle in radians. A threshold is read
/// from the configuration once in its type; the recognizers compare what they measure (plain
/// `Double`s of the screen's geometry) with its value, named by its unit (`slop.points`).

/// A distance on the screen, in points: a slop, a movement limit, a zone's width.
public struct Distance: Hashable, Comparable, Sendable, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral,
    CustomStringConvertible {
    public var points: Double
    @inlinable public init(points: Double) { self.points = points }
    @inlinable public init(floatLiteral value: Double) { points = value }
    @inlinable public init(integerLiteral value: Int) { points = Double(value) }
    @inlinable public static func < (a: Distance, b: Distance) -> Bool { a.points < b.points }
    @inlinable public static func * (a: Distance, k: Double) -> Distance { Distance(points: a.points * k) }
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
    public var description: String { "\(radians) rad" }
}
