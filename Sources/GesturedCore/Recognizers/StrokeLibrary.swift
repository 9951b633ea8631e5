/// The built-in stroke templates: the sixteen shapes of the $1 study (Wobbrock et al., UIST 2007),
/// drawn here by the project, each once, on a 100-point box with y growing downwards.
///
/// Each is one example as a user would draw it (the direction and, for closed shapes, the start
/// point do not matter: the matcher tries both ways and every start). docs/strokes/*.svg are
/// pictures of these very points (`gestured-bench stroke-pictures` writes them).
public enum StrokeLibrary {
    /// The names, in the order of CONTRACT.md §4.
    public static let names = [
        "circle", "check", "x", "zigzag", "triangle", "rectangle", "caret", "v", "arrow", "star", "pigtail",
        "delete", "leftSquareBracket", "rightSquareBracket", "leftCurlyBrace", "rightCurlyBrace",
    ]

    /// The built-in template called `name`, or nil.
    public static func template(named name: String) -> StrokeTemplate? {
        guard let points = points(name) else { return nil }
        return StrokeTemplate(name: name, points: points)
    }

    /// Every built-in template, in `names` order.
    public static var all: [StrokeTemplate] { names.compactMap(template(named:)) }

    private static func points(_ name: String) -> [Point]? {
        switch name {
        case "circle":
            // Clockwise on screen from the top.
            return arc(center: Point(x: 50, y: 50), radius: 50, from: -.pi / 2, to: 1.5 * .pi, steps: 32)
        case "check":
            return polyline([(0, 55), (35, 95), (100, 0)])
        case "x":
            // One stroke: down the diagonal, up the right side, down the other diagonal.
            return polyline([(0, 0), (100, 100), (100, 0), (0, 100)])
        case "zigzag":
            return polyline([(0, 0), (20, 60), (40, 0), (60, 60), (80, 0), (100, 60)])
        case "triangle":
            return polyline([(50, 0), (0, 87), (100, 87), (50, 0)])
        case "rectangle":
            return polyline([(0, 0), (0, 70), (100, 70), (100, 0), (0, 0)])
        case "caret":
            return polyline([(0, 100), (50, 0), (100, 100)])
        case "v":
            return polyline([(0, 0), (50, 100), (100, 0)])
        case "arrow":
            // The shaft, then the head as a triangle back to the tip.
            return polyline([(0, 50), (100, 50), (70, 20), (70, 80), (100, 50)])
        case "star":
            // A pentagram: every second of five points on a circle, back to the first.
            return (0...5).map { k in
                Point(x: 50, y: 50) + AngleMath.unitVector(-.pi / 2 + Double(k) * 4 * .pi / 5) * 50
            }
        case "pigtail":
            // A prolate trochoid over one turn: up from the lower left, a loop at the top, down to
            // the lower right.
            return (0...40).map { k in
                let t = Double(k) / 40 * 2 * .pi
                let u = AngleMath.unitVector(t)
                return Point(x: 16 * t + 40 * u.dy, y: 40 * u.dx)
            }
        case "delete":
            return polyline([(0, 0), (100, 100), (0, 100), (100, 0)])
        case "leftSquareBracket":
            return polyline([(60, 0), (0, 0), (0, 100), (60, 100)])
        case "rightSquareBracket":
            return polyline([(0, 0), (60, 0), (60, 100), (0, 100)])
        case "leftCurlyBrace":
            return leftCurlyBrace
        case "rightCurlyBrace":
            return leftCurlyBrace.map { Point(x: 45 - $0.x, y: $0.y) }
        default:
            return nil
        }
    }

    /// `{` from its top end: a hook to the left, down, a sharp point at mid-height, down, a hook
    /// back to the right.
    private static var leftCurlyBrace: [Point] {
        let q = Double.pi / 2
        return arc(center: Point(x: 45, y: 20), radius: 20, from: -q, to: -2 * q, steps: 8)
            + polyline([(25, 40), (0, 50), (25, 60)])
            + arc(center: Point(x: 45, y: 80), radius: 20, from: 2 * q, to: q, steps: 8)
    }

    private static func polyline(_ points: [(Double, Double)]) -> [Point] { points.map { Point(x: $0.0, y: $0.1) } }

    /// `steps + 1` points on a circle from angle `from` to `to` (radians, clockwise on screen).
    private static func arc(center: Point, radius: Double, from: Double, to: Double, steps: Int) -> [Point] {
        (0...steps).map { k in center + AngleMath.unitVector(from + (to - from) * Double(k) / Double(steps)) * radius }
    }
}
