import Testing
@testable import GesturedCore

struct DeviceGeometryTests {
    static let axis = AxisInfo(minimum: 0, maximum: 1000)
    static let screen = Size(width: 800, height: 400)

    func map(_ x: Int32, _ y: Int32, rotation: Rotation = .none, calibration: [Double] = DeviceGeometry.identityCalibration) -> Point {
        DeviceGeometry(x: Self.axis, y: Self.axis, screen: Self.screen, rotation: rotation, calibration: calibration)
            .point(for: DevicePosition(x: x, y: y))
    }

    @Test func fullAxisRangeCoversTheScreen() {
        #expect(map(0, 0) == Point(x: 0, y: 0))
        #expect(map(1000, 1000) == Point(x: 800, y: 400))
        #expect(map(250, 500) == Point(x: 200, y: 200))
    }

    @Test func axisMinimumIsTheScreenEdge() {
        let g = DeviceGeometry(x: AxisInfo(minimum: 100, maximum: 300), y: AxisInfo(minimum: -50, maximum: 50), screen: Self.screen)
        #expect(g.point(for: DevicePosition(x: 100, y: -50)) == Point(x: 0, y: 0))
        #expect(g.point(for: DevicePosition(x: 200, y: 0)) == Point(x: 400, y: 200))
    }

    @Test(arguments: [
        (Rotation.none, Point(x: 80, y: 80)),          // device (100, 200) of 1000: top-left region
        (Rotation.quarter, Point(x: 640, y: 40)),      // clockwise: top-left goes to top-right
        (Rotation.half, Point(x: 720, y: 320)),
        (Rotation.threeQuarters, Point(x: 160, y: 360)),
    ])
    func rotationIsClockwise(rotation: Rotation, expected: Point) {
        #expect(map(100, 200, rotation: rotation) == expected)
    }

    @Test func calibrationMatrixFollowsLibinput() {
        // Scale x by half and shift it right by a quarter; y unchanged.
        #expect(map(1000, 500, calibration: [0.5, 0, 0.25, 0, 1, 0]) == Point(x: 600, y: 200))
    }

    /// Found by the pipeline fuzz target: `maximum - minimum` in `Int32` trapped for a device whose
    /// axis spans every `Int32` (a broken or hostile device), when the configuration sets no
    /// screen size; an empty or inverted range implied a zero or negative screen.
    @Test func theWidestAxesImplyTheirSizeAndEmptyOnesTheFallback() throws {
        let widest = AxisInfo(minimum: .min, maximum: .max, resolution: 1)
        let s = try #require(DeviceGeometry.physicalScreen(x: widest, y: widest, rotation: .none))
        #expect(s.width == 4_294_967_295 * DeviceGeometry.pointsPerMillimetre && s.height == s.width)
        let inverted = AxisInfo(minimum: 10, maximum: -10, resolution: 1), empty = AxisInfo(minimum: 5, maximum: 5, resolution: 1)
        #expect(DeviceGeometry.physicalScreen(x: inverted, y: Self.axis, rotation: .none) == nil)
        #expect(DeviceGeometry.physicalScreen(x: widest, y: empty, rotation: .quarter) == nil)
        #expect(ScreenSizing.resolve(configured: nil, firstDevice: DeviceDescription(sysname: "event0", name: "empty", mtX: widest, mtY: empty,
                                                                                     slotCount: 2, hasTrackingID: true))
                == (ScreenSizing.fallback, .fallback))
    }

    @Test func physicalScreenUsesResolutionAndRotation() throws {
        let x = AxisInfo(minimum: 0, maximum: 2540, resolution: 10)   // 254 mm = 10 in = 1600 pt
        let y = AxisInfo(minimum: 0, maximum: 1270, resolution: 10)   // 5 in = 800 pt
        let s = try #require(DeviceGeometry.physicalScreen(x: x, y: y, rotation: .none))
        #expect(abs(s.width - 1600) < 1e-9 && abs(s.height - 800) < 1e-9)
        let r = try #require(DeviceGeometry.physicalScreen(x: x, y: y, rotation: .quarter))
        #expect(abs(r.width - 800) < 1e-9 && abs(r.height - 1600) < 1e-9)
        #expect(DeviceGeometry.physicalScreen(x: Self.axis, y: Self.axis, rotation: .none) == nil)
    }
}
