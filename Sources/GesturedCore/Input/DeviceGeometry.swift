/// Maps a device's axis units onto the screen, in points.
///
/// Order (each step on normalized coordinates in [0, 1]):
/// 1. normalize: `(v - min) / (max - min)` per axis, so the full axis range covers the screen;
/// 2. calibration: libinput's matrix `[a b c; d e f]`: x' = a·x + b·y + c, y' = d·x + e·y + f
///    (the same numbers as udev's `LIBINPUT_CALIBRATION_MATRIX`);
/// 3. rotation clockwise by 0/90/180/270 degrees, for panels mounted rotated;
/// 4. scale to the screen's size in points.
public struct DeviceGeometry: Hashable, Sendable {
    public static let identityCalibration: [Double] = [1, 0, 0, 0, 1, 0]

    /// Points per millimetre when the screen size comes from the panel's physical size: one point
    /// is 1/160 inch, Android's density-independent pixel and close to UIKit's point (1/163 inch),
    /// so thresholds taken from those platforms keep their physical meaning.
    public static let pointsPerMillimetre = 160.0 / 25.4

    public let x: AxisInfo
    public let y: AxisInfo
    public let rotation: Rotation
    public let calibration: [Double]
    public let screen: Size
    /// `calibration`'s six numbers as stored fields: `point(for:)` runs for every touch of every
    /// frame, and reading the array there checked its bounds six times.
    @usableFromInline let matrix: Matrix

    @usableFromInline struct Matrix: Hashable, Sendable {
        @usableFromInline let a, b, c, d, e, f: Double
    }

    public init(x: AxisInfo, y: AxisInfo, screen: Size, rotation: Rotation = .none,
                calibration: [Double] = DeviceGeometry.identityCalibration) {
        self.x = x; self.y = y; self.screen = screen; self.rotation = rotation
        let c = calibration.count == 6 ? calibration : DeviceGeometry.identityCalibration
        self.calibration = c
        matrix = Matrix(a: c[0], b: c[1], c: c[2], d: c[3], e: c[4], f: c[5])
    }

    /// The device's physical size in points, nil when it implies none (no resolution); what a
    /// screen without a configured size takes from its first device (`ScreenSizing`). Rotation
    /// by 90/270 swaps the sides. The ranges are whatever the device reports: spans are taken in
    /// `Double` (an axis from `Int32.min` to `Int32.max` is 2³² − 1 units), and ranges that imply
    /// no positive size (empty or inverted) imply none.
    public static func physicalScreen(x: AxisInfo, y: AxisInfo, rotation: Rotation) -> Size? {
        guard x.resolution > 0, y.resolution > 0 else { return nil }
        let width = (Double(x.maximum) - Double(x.minimum)) / Double(x.resolution) * pointsPerMillimetre
        let height = (Double(y.maximum) - Double(y.minimum)) / Double(y.resolution) * pointsPerMillimetre
        guard width > 0, height > 0 else { return nil }
        switch rotation {
        case .none, .half: return Size(width: width, height: height)
        case .quarter, .threeQuarters: return Size(width: height, height: width)
        }
    }

    /// The screen location of a device position.
    @inlinable public func point(for position: DevicePosition) -> Point {
        let nx = Self.normalize(position.x, x), ny = Self.normalize(position.y, y)
        let m = matrix
        let cx = m.a * nx + m.b * ny + m.c
        let cy = m.d * nx + m.e * ny + m.f
        let rx: Double, ry: Double
        switch rotation {
        case .none: (rx, ry) = (cx, cy)
        case .quarter: (rx, ry) = (1 - cy, cx)
        case .half: (rx, ry) = (1 - cx, 1 - cy)
        case .threeQuarters: (rx, ry) = (cy, 1 - cx)
        }
        return Point(x: rx * screen.width, y: ry * screen.height)
    }

    @inlinable static func normalize(_ value: Int32, _ axis: AxisInfo) -> Double {
        let span = Double(axis.maximum) - Double(axis.minimum)
        return span > 0 ? (Double(value) - Double(axis.minimum)) / span : 0
    }
}
