import GesturedSynthetic
import GesturedTestSupport
import Testing
@testable import GesturedCore

/// Rotation and calibration through the whole pipeline, and what a lost-events gap does to a
/// gesture in progress.
struct DeviceOrientationTests {
    /// A panel with a non-square axis range, so a mix-up of the axes would show.
    static let panel = DeviceDescription(sysname: "event3", name: "panel", mtX: AxisInfo(minimum: 0, maximum: 1999),
                                         mtY: AxisInfo(minimum: 0, maximum: 999), slotCount: 2, hasTrackingID: true)
    static let config = Configuration(screen: Size(width: 1000, height: 1000), views: [
        ViewSpec(id: "root", gestures: [swipe("flick", [.left, .right, .up, .down])]),
    ])

    /// One finger stroke along the device's +x axis (the panel's own "right"), 60% of its width
    /// in 100 ms; returns the swipe lines.
    static func strokeAlongDeviceX(rule: DeviceRule?, fallbackCalibration: [Double]? = nil) throws -> [GestureEvent] {
        var pipeline = try GesturePipeline(configuration: config, screen: config.screen!)
        let device = try pipeline.addDevice(panel, rule: rule, fallbackCalibration: fallbackCalibration)
        var output = Decisions()
        func frame(_ ms: Int64, _ contact: PanelScript.Contact) {
            for event in PanelScript.frame(at: Instant(microseconds: ms * 1000), [contact]) { pipeline.handle(event, from: device, into: &output) }
        }
        frame(0, .down(slot: 0, id: 1, x: 400, y: 300))
        for step in 1...5 { frame(Int64(step) * 20, .move(slot: nil, x: 400 + Int32(step) * 240, y: 300)) }
        frame(100, .up(slot: 0))
        while let deadline = pipeline.nextDeadline { pipeline.advance(to: deadline, into: &output) }
        return output.outputs.compactMap { if case .gesture(let g) = $0, g.state == .ended { g } else { nil } }
    }

    /// Rotation is the panel's mounting, clockwise: its +x points down the screen at 90°, left at
    /// 180°, up at 270°.
    @Test(arguments: [(Rotation.none, SwipeDirection.right), (.quarter, .down), (.half, .left), (.threeQuarters, .up)])
    func theSameStrokeSwipesTheRotatedWay(rotation: Rotation, direction: SwipeDirection) throws {
        let swipes = try Self.strokeAlongDeviceX(rule: DeviceRule(rotation: rotation))
        #expect(swipes.map(\.sample.values) == [.swipe(direction: direction)])
    }

    /// libinput's documented matrix for a 90° clockwise rotation, `0 -1 1 1 0 0`, gives the very
    /// lines `rotation: 90` gives, whether from the config or from udev's property.
    @Test func libinputNinetyDegreeMatrixEqualsRotationNinety() throws {
        let matrix = try #require(CalibrationMatrix.parse("0 -1 1 1 0 0"))
        let byRotation = try Self.strokeAlongDeviceX(rule: DeviceRule(rotation: .quarter))
        let byConfig = try Self.strokeAlongDeviceX(rule: DeviceRule(calibration: matrix))
        let byUdev = try Self.strokeAlongDeviceX(rule: nil, fallbackCalibration: matrix)
        #expect(!byRotation.isEmpty)
        #expect(byConfig == byRotation)
        #expect(byUdev == byRotation)
        // The config's calibration wins over udev's.
        #expect(try Self.strokeAlongDeviceX(rule: DeviceRule(calibration: DeviceGeometry.identityCalibration),
                                            fallbackCalibration: matrix).map(\.sample.values) == [.swipe(direction: .right)])
    }

    @Test func udevCalibrationMatrixParsing() {
        #expect(CalibrationMatrix.parse("1 0 0 0 1 0") == [1, 0, 0, 0, 1, 0])
        #expect(CalibrationMatrix.parse("  1.5\t0 -0.25 0 1 0 ") == [1.5, 0, -0.25, 0, 1, 0])
        #expect(CalibrationMatrix.parse("1 0 0 0 1") == nil)
        #expect(CalibrationMatrix.parse("1 0 0 0 1 0 0") == nil)
        #expect(CalibrationMatrix.parse("1 0 x 0 1 0") == nil)
        #expect(CalibrationMatrix.parse("1 0 nan 0 1 0") == nil)
        #expect(CalibrationMatrix.parse("") == nil)
    }

    /// SYN_DROPPED mid-pan: the pan is cancelled at the drop; the touch that ended inside the gap
    /// ends (no ghost) without recognizing anything; a touch that began inside the gap begins and
    /// is routed afresh.
    @Test func droppedEventsCancelTheGestureAndLeaveNoGhost() throws {
        let config = Configuration(screen: Size(width: 1000, height: 1000), views: [ViewSpec(id: "root", gestures: [pan("drag")])])
        var run = try GesturePipelineTests.Run(config)
        let device = try run.pipeline.addDevice(GesturePipelineTests.panel)
        run.contact(device, slot: 0, id: 1, x: 100, y: 100, ms: 0)
        run.contact(device, slot: 0, id: 1, x: 200, y: 100, ms: 20)
        var output = Decisions()
        let t = Instant(microseconds: 50_000)
        for (type, code, value) in [(EventCode.EV_SYN, EventCode.SYN_DROPPED, Int32(0)),
                                    (EventCode.EV_ABS, EventCode.ABS_MT_SLOT, 0), (EventCode.EV_ABS, EventCode.ABS_MT_TRACKING_ID, -1),
                                    (EventCode.EV_ABS, EventCode.ABS_MT_SLOT, 1), (EventCode.EV_ABS, EventCode.ABS_MT_TRACKING_ID, 2),
                                    (EventCode.EV_ABS, EventCode.ABS_MT_POSITION_X, 700), (EventCode.EV_ABS, EventCode.ABS_MT_POSITION_Y, 700),
                                    (EventCode.EV_SYN, EventCode.SYN_REPORT, 0)] {
            run.pipeline.handle(RawEvent(time: t, type: type, code: code, value: value), from: device, into: &output)
        }
        run.record(output)
        run.contact(device, slot: 1, id: -1, ms: 80)
        #expect(run.lines.map { $0.split(separator: " ").prefix(4).joined(separator: " ") } == [
            "touch began 1 view=root",
            "touch moved 1 view=root",
            "gesture pan began drag",
            "gesture pan cancelled drag",
            "touch ended 1 view=root",
            "touch began 2 view=root",
            "touch ended 2 view=root",
            "gesture pan failed drag",   // touch 2 was routed to the pan, which it never moved
        ], "\(run.lines)")
    }
}
