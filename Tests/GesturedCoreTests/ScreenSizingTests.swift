import Testing
@testable import GesturedCore

/// Policy said once: a screen's size (`ScreenSizing`, what start, reload, replay, calibrate,
/// explain and draw all use) and the touches a device reports against the gestures that need
/// more (`Configuration.gesturesBeyond`, what `gestured devices` and the daemon's log say).
struct ScreenSizingTests {
    static let panel = DeviceAdmissionTests.panel   // 4096 units at 16 units/mm, 10 slots
    static let noResolution = DeviceDescription(sysname: "event6", name: "plain", mtX: AxisInfo(minimum: 0, maximum: 999),
                                                mtY: AxisInfo(minimum: 0, maximum: 999), slotCount: 2, hasTrackingID: true)
    static let physical = DeviceGeometry.physicalScreen(x: panel.mtX!, y: panel.mtY!, rotation: .none)!

    /// Configured, else before, else the first device's physical size, else the fallback: each
    /// says where it came from.
    @Test func theSizeAndWhereItCameFromInOrder() {
        let configured = Size(width: 800, height: 480), before = Size(width: 1024, height: 600)
        #expect(ScreenSizing.resolve(configured: configured, previous: before, firstDevice: Self.panel) == (configured, .configured))
        #expect(ScreenSizing.resolve(configured: nil, previous: before, firstDevice: Self.panel) == (before, .previous))
        #expect(ScreenSizing.resolve(configured: nil, firstDevice: Self.panel) == (Self.physical, .device(0)))
        let turned = ScreenSizing.resolve(configured: nil, firstDevice: Self.panel, rotation: .quarter)
        #expect(turned.size == Size(width: Self.physical.height, height: Self.physical.width))
        // A device without a resolution implies no size: the fallback, said as such.
        #expect(ScreenSizing.resolve(configured: nil, firstDevice: Self.noResolution) == (ScreenSizing.fallback, .fallback))
        #expect(ScreenSizing.resolve(configured: nil) == (ScreenSizing.fallback, .fallback))
    }

    /// Each screen takes its own first device (by its index among those given).
    @Test func eachScreenTakesItsFirstDevice() throws {
        let screens = [ScreenSpec(id: "front", size: nil, devices: .matching([DeviceMatch(name: "plain")]), views: [ViewSpec(id: "a")]),
                       ScreenSpec(id: "back", size: nil, devices: .rest, views: [ViewSpec(id: "b")])]
        let c = DeviceAdmissionTests.configuration([], screens: screens)
        let plain = try DeviceAdmission.admit(Self.noResolution, properties: DeviceAdmissionTests.touchscreen, configuration: c).get()
        let panel = try DeviceAdmission.admit(Self.panel, properties: DeviceAdmissionTests.touchscreen, configuration: c).get()
        let resolved = ScreenSizing.resolve(c, devices: [(Self.noResolution, plain), (Self.panel, panel)])
        #expect(resolved.map(\.origin) == [.fallback, .device(1)])
        #expect(resolved.map(\.size) == [ScreenSizing.fallback, Self.physical])
    }

    /// The pipeline's reload without sizes follows the same rule: a new screen without a size
    /// takes the fallback, not the first old screen's size.
    @Test func aReloadWithoutSizesFollowsTheRule() throws {
        let before = Configuration(screens: [ScreenSpec(id: "front", size: Size(width: 800, height: 480), devices: .rest,
                                                        views: [ViewSpec(id: "a")])])
        var pipeline = try GesturePipeline(configuration: before, sizes: [Size(width: 800, height: 480)])
        let after = Configuration(screens: [
            ScreenSpec(id: "front", size: nil, devices: .matching([DeviceMatch(name: "x")]), views: [ViewSpec(id: "a")]),
            ScreenSpec(id: "back", size: nil, devices: .rest, views: [ViewSpec(id: "b")]),
        ])
        var batch = Batch()
        try pipeline.reload(configuration: after, now: Instant(microseconds: 1000), into: &batch)
        #expect(pipeline.screens.map(\.size) == [Size(width: 800, height: 480), ScreenSizing.fallback])
    }

    /// A device's touches are its slots, at most its rule's limit; the gestures beyond, in order.
    @Test func theGesturesBeyondADevicesTouches() {
        let configuration = Configuration(views: [ViewSpec(id: "root", gestures: [
            tap("one"), swipe("three", touches: 3), pinch("zoom"), longPress("five", touches: 5),
        ])])
        let (touches, beyond) = configuration.gesturesBeyond(Self.noResolution, rule: nil, screen: 0)
        #expect(touches == 2)
        #expect(beyond.map { "\($0.id) \($0.touches)" } == ["three 3", "five 5"])
        let limited = configuration.gesturesBeyond(Self.panel, rule: DeviceRule(maximumTouches: 1), screen: 0)
        #expect(limited.touches == 1)
        #expect(limited.gestures.map(\.id) == ["three", "zoom", "five"])
        #expect(configuration.gesturesBeyond(Self.panel, rule: nil, screen: 0).gestures.isEmpty)
    }
}
