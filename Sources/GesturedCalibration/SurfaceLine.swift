import GesturedCore

/// One line of `gestured-surface`, the small Wayland client that shows a full-screen surface
/// (and, with `--crosshair FX,FY`, a crosshair at that fraction of its size): `ready WIDTH
/// HEIGHT` once the surface is shown, then the touches the compositor gives it, `down ID X Y`,
/// `motion ID X Y`, `up ID`, `cancel` and `frame` (X and Y in surface coordinates).
///
/// `gestured calibrate --display wayland` reads only `ready` (the screen's size, for the
/// residual): the touches it measures come from the panel's raw axes, grabbed, so the
/// compositor, and the surface, see none of them.
public enum SurfaceLine: Hashable, Sendable {
    case ready(Size)
    case down(id: Int, at: Point)
    case motion(id: Int, at: Point)
    case up(id: Int)
    case cancel
    case frame

    /// The line without its newline; nil when it is none of the above.
    public init?(_ line: Substring) {
        let words = line.split(separator: " ", omittingEmptySubsequences: true)
        guard let kind = words.first else { return nil }
        func number(_ i: Int) -> Double? {
            guard i < words.count, let value = Double(words[i]), value.isFinite else { return nil }
            return value
        }
        func id() -> Int? { words.count > 1 ? Int(words[1]) : nil }
        switch kind {
        case "ready":
            guard words.count == 3, let w = number(1), let h = number(2), w > 0, h > 0 else { return nil }
            self = .ready(Size(width: w, height: h))
        case "down", "motion":
            guard words.count == 4, let id = id(), let x = number(2), let y = number(3) else { return nil }
            self = kind == "down" ? .down(id: id, at: Point(x: x, y: y)) : .motion(id: id, at: Point(x: x, y: y))
        case "up":
            guard words.count == 2, let id = id() else { return nil }
            self = .up(id: id)
        case "cancel" where words.count == 1: self = .cancel
        case "frame" where words.count == 1: self = .frame
        default: return nil
        }
    }

    /// `--crosshair FX,FY` for a target (fractions of the surface, `0.125,0.875`).
    public static func crosshairArgument(_ target: CalibrationTarget) -> String {
        "\(CalibrationReport.number(target.point.x)),\(CalibrationReport.number(target.point.y))"
    }
}
