import GesturedSeeing
import GesturedTestSupport
import Testing
@testable import GesturedCore

/// `gestured explain`'s `application:` line: what the application behind a pass-through device
/// gets of a touch that begins at a point, decided as the daemon decides at the down.
struct ApplicationDeliveryTests {
    /// `edge` (left) and `hold` hold their touches while undecided; `strip` and what it contains
    /// never forward.
    private let views: [ViewSpec] = {
        var edge = edgePan("edge", [.left])
        edge.delivery = TouchDelivery(delaysTouchesBegan: true)
        var hold = longPress("hold")
        hold.delivery = TouchDelivery(delaysTouchesBegan: true)
        return [ViewSpec(id: "root", frame: frame(0, 0, 1000, 1000), gestures: [edge, swipe("flick", touches: 3)], subviews: [
            ViewSpec(id: "strip", frame: frame(900, 0, 100, 1000), subviews: [
                ViewSpec(id: "inStrip", frame: frame(0, 0, 50, 50)),
            ], forwardsTouches: false),
            ViewSpec(id: "photo", frame: frame(300, 300, 200, 200), gestures: [hold]),
        ])]
    }()

    private func delivery(_ x: Double, _ y: Double) throws -> String {
        let engine = try GestureEngine(views: views, screen: Size(width: 1200, height: 1000))
        return "\(engine.applicationDelivery(at: Point(x: x, y: y)))"
    }

    @Test func aTouchNoGestureHoldsIsForwardedAndAnEdgeTouchIsHeld() throws {
        #expect(try delivery(500, 100) == "forwarded")     // the edge pan fails at once away from its edge
        #expect(try delivery(5, 500) == "held edge")       // within edgeZoneWidth of the left edge
    }

    @Test func aTouchIsHeldByEveryUndecidedGestureOnItsRouteThatDelaysItsBegan() throws {
        #expect(try delivery(350, 350) == "held hold")
        let engine = try GestureEngine(views: [ViewSpec(id: "root", frame: frame(0, 0, 1000, 1000), gestures: views[0].gestures,
                                                        subviews: [ViewSpec(id: "photo", frame: frame(0, 300, 200, 200),
                                                                            gestures: views[0].subviews[1].gestures)])],
                                       screen: Size(width: 1000, height: 1000))
        #expect(engine.applicationDelivery(at: Point(x: 5, y: 350)) == .held(["hold", "edge"]), "deepest view first")
    }

    @Test func aTouchInAViewThatDoesNotForwardIsNeverSent() throws {
        #expect(try delivery(950, 500) == "never")
        #expect(try delivery(905, 5) == "never", "a subview of a view that does not forward")
        #expect(try delivery(1100, 500) == "forwarded", "outside every view: no rule holds it")
    }

    /// The line goes before the last (`view ID`), and only when asked for.
    @Test func theApplicationLineComesBeforeTheViewLine() throws {
        let engine = try GestureEngine(views: views, screen: Size(width: 1200, height: 1000))
        let explanation = engine.tree.explainHitTest(Point(x: 950, y: 500))
        let route = explanation.winner.map { engine.route(of: $0) } ?? []
        let lines = explanation.lines(tree: engine.tree, route: route, application: engine.applicationDelivery(at: Point(x: 950, y: 500)))
        #expect(Array(lines.suffix(2)) == ["application: never", "view strip"])
        #expect(explanation.lines(tree: engine.tree, route: route).last == "view strip")
        #expect(!explanation.lines(tree: engine.tree, route: route).contains { $0.hasPrefix("application:") })
    }

    /// Without a passThrough rule the answer is the device rules', wherever the touch is.
    @Test func theDeviceRulesDecideWhetherTouchesAreForwardedAtAll() throws {
        let engine = try GestureEngine(views: views, screen: Size(width: 1200, height: 1000))
        func path(_ rules: [DeviceRule]) -> ApplicationPath {
            var configuration = Configuration(views: views)
            configuration.devices = rules
            return configuration.applicationPath
        }
        let panel = DeviceMatch(type: .touchscreen)
        #expect(path([]) == .direct)
        #expect(path([DeviceRule(match: panel, ignore: true, passThrough: true)]) == .direct, "an ignored rule forwards nothing")
        #expect(path([DeviceRule(match: panel, grab: true)]) == .grabbed)
        #expect(path([DeviceRule(match: panel, grab: true), DeviceRule(match: DeviceMatch(name: "B*"), passThrough: true)]) == .passThrough)
        for point in [Point(x: 950, y: 500), Point(x: 5, y: 500), Point(x: 500, y: 100)] {
            #expect(engine.applicationDelivery(at: point, path: .direct).description == "direct")
            #expect(engine.applicationDelivery(at: point, path: .grabbed).description == "never (grabbed, not forwarded)")
            #expect(engine.applicationDelivery(at: point, path: .passThrough) == engine.applicationDelivery(at: point))
        }
    }
}

/// Which devices can pass through (`DeviceDescription.cloneRefusal`) and the gestures a device
/// with few touches never recognizes.
struct PassThroughCheckTests {
    private func device(slots: Int, trackingID: Bool = true, direct: Bool = true, mt: Bool = true) -> DeviceDescription {
        let axis = AxisInfo(minimum: 0, maximum: 999)
        return DeviceDescription(sysname: "event0", name: "panel", x: axis, y: axis, mtX: mt ? axis : nil, mtY: mt ? axis : nil,
                                 slotCount: slots, hasTrackingID: trackingID, isDirect: direct)
    }

    @Test func onlyADirectProtocolBDeviceCanBeCloned() {
        #expect(device(slots: 10).cloneRefusal == nil)
        #expect(device(slots: 0, trackingID: false, mt: false).cloneRefusal?.hasPrefix("it is single-touch") == true)
        #expect(device(slots: 0, trackingID: false).cloneRefusal?.hasPrefix("it speaks multitouch protocol A") == true)
        #expect(device(slots: 5, trackingID: false).cloneRefusal?.hasPrefix("its slots have no tracking ids") == true)
        #expect(device(slots: 5, direct: false).cloneRefusal?.hasPrefix("it is not a direct-touch device") == true)
    }

    @Test func theGesturesNeedingMoreTouchesThanADeviceReports() {
        let configuration = Configuration(views: [ViewSpec(id: "root", gestures: [
            tap("one"), swipe("three", touches: 3), pinch("zoom"), longPress("five", touches: 5),
        ])])
        #expect(configuration.gestures(needingMoreThan: 2, screen: 0).map { "\($0.id) \($0.touches)" } == ["three 3", "five 5"])
        #expect(configuration.gestures(needingMoreThan: 5, screen: 0).isEmpty)
        #expect(configuration.gestures(needingMoreThan: 1, screen: 0).map(\.id) == ["three", "zoom", "five"])
    }
}
