/// Screen-space geometry, in points (the `screen` coordinate space of the configuration).
///
/// Device axis units never appear here: `DevicePosition` carries them until `DeviceGeometry`
/// maps them to points (libinput keeps `device_coords` and `normalized_coords` apart likewise).

/// A location in points, in the coordinate space of the screen or of a view.
public struct Point: Hashable, Sendable {
    public var x: Double
    public var y: Double
    @inlinable public init(x: Double, y: Double) { self.x = x; self.y = y }
    public static let zero = Point(x: 0, y: 0)

    @inlinable public static func + (a: Point, b: Vector) -> Point { Point(x: a.x + b.dx, y: a.y + b.dy) }
    @inlinable public static func - (a: Point, b: Point) -> Vector { Vector(dx: a.x - b.x, dy: a.y - b.y) }
    @inlinable public static func - (a: Point, b: Vector) -> Point { Point(x: a.x - b.dx, y: a.y - b.dy) }
}

/// A displacement in points.
public struct Vector: Hashable, Sendable {
    public var dx: Double
    public var dy: Double
    @inlinable public init(dx: Double, dy: Double) { self.dx = dx; self.dy = dy }
    public static let zero = Vector(dx: 0, dy: 0)
    @inlinable public var length: Double { (dx * dx + dy * dy).squareRoot() }
    /// `length` as a distance on the screen, to compare with a threshold.
    @inlinable public var distance: Distance { Distance(points: length) }
    @inlinable public static func + (a: Vector, b: Vector) -> Vector { Vector(dx: a.dx + b.dx, dy: a.dy + b.dy) }
    @inlinable public static func - (a: Vector, b: Vector) -> Vector { Vector(dx: a.dx - b.dx, dy: a.dy - b.dy) }
    @inlinable public static func * (a: Vector, k: Double) -> Vector { Vector(dx: a.dx * k, dy: a.dy * k) }
    @inlinable public static func / (a: Vector, k: Double) -> Vector { Vector(dx: a.dx / k, dy: a.dy / k) }
}

/// A size in points.
public struct Size: Hashable, Sendable {
    public var width: Double
    public var height: Double
    @inlinable public init(width: Double, height: Double) { self.width = width; self.height = height }
}

/// A rectangle in points; `origin` is its top-left corner (y grows downwards, as on screen).
public struct Rect: Hashable, Sendable {
    public var origin: Point
    public var size: Size
    @inlinable public init(x: Double, y: Double, width: Double, height: Double) {
        origin = Point(x: x, y: y)
        size = Size(width: width, height: height)
    }
    @inlinable public var minX: Double { origin.x }
    @inlinable public var minY: Double { origin.y }
    @inlinable public var maxX: Double { origin.x + size.width }
    @inlinable public var maxY: Double { origin.y + size.height }

    /// Half-open containment, as `CGRect.contains`: the right and bottom edges are outside.
    @inlinable public func contains(_ p: Point) -> Bool {
        p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY
    }

    /// This rectangle grown or shrunk by `insets` (UIKit's `inset(by:)`: positive insets shrink).
    @inlinable public func inset(by insets: EdgeInsets) -> Rect {
        Rect(x: minX + insets.left, y: minY + insets.top,
             width: size.width - insets.left - insets.right,
             height: size.height - insets.top - insets.bottom)
    }
}

/// Insets of a rectangle's edges, UIKit's `UIEdgeInsets`: negative values enlarge it.
public struct EdgeInsets: Hashable, Sendable {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double
    @inlinable public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top; self.left = left; self.bottom = bottom; self.right = right
    }
    public static let zero = EdgeInsets()
}
