import FoundationEssentials
import GesturedConfig
import GesturedSynthetic
import GesturedTestSupport
import Testing
@testable import GesturedCore

/// `gestured explain`'s `application:` line (`GestureEngine.applicationDelivery`) and what the
/// daemon's pipeline does at the down of a lone touch on a pass-through panel cannot disagree:
/// over a grid of points on every screen of every example configuration (so every view large
/// enough to hold a grid point), the pipeline's clone gets the down exactly where explain says
/// `forwarded`, holds the touch for the gestures explain names where it says `held`, and drops it
/// where it says `never`.
struct ApplicationDeliveryAgreementTests {
    static let configs = ["default.json5", "gestured.json5", "kiosk.json5", "kiosk-browser.json5",
                          "kiosk-rpi-7inch.json5", "kiosk-rpi-touch-display-2.json5", "two-panels.json5"]
    /// Panel axes 0...399, a point every 7 units: 58 × 58 points per screen.
    static let axis: Int32 = 399, step = 7

    @Test(arguments: configs) func explainSaysWhatThePipelineDoesAtEveryPoint(config name: String) throws {
        let path = RepositoryTests.root + "/config/" + name
        let configuration = try ConfigLoader.load([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), file: path)
        let outcomes = try Self.compare(configuration, name: name)
        #expect(outcomes["forwarded"] != nil, "\(outcomes)")
    }

    /// No example holds a touch back (none sets `delaysTouchesBegan`): a configuration that
    /// holds, claims at once and drops, compared the same way, reaches all three answers.
    @Test func explainSaysWhatThePipelineDoesWhereGesturesHoldTouches() throws {
        var edges = ScreenEdgePanParameters()
        edges.edges = [.left]
        var edge = GestureSpec(id: "edge", kind: .screenEdgePan(edges))
        edge.delivery = TouchDelivery(delaysTouchesBegan: true)
        var hold = GestureSpec(id: "hold", kind: .longPress(LongPressParameters()))
        hold.delivery = TouchDelivery(delaysTouchesBegan: true)
        let views = [ViewSpec(id: "root", frame: Rect(x: 0, y: 0, width: 1000, height: 1000), gestures: [edge], subviews: [
            ViewSpec(id: "strip", frame: Rect(x: 900, y: 0, width: 100, height: 1000), forwardsTouches: false),
            ViewSpec(id: "photo", frame: Rect(x: 300, y: 300, width: 200, height: 200), gestures: [hold]),
        ])]
        let outcomes = try Self.compare(Configuration(screen: Size(width: 1000, height: 1000), views: views), name: "holding")
        #expect(Set(outcomes.keys) == ["forwarded", "held", "never"], "\(outcomes)")
    }

    /// Compares explain with the pipeline at every grid point of every screen of `configuration`;
    /// returns how often each answer came.
    static func compare(_ configuration: Configuration, name: String) throws -> [String: Int] {
        let sizes = configuration.screenSpecs.map { $0.size ?? Size(width: 1280, height: 800) }
        var outcomes: [String: Int] = [:]
        for screen in sizes.indices {
            var pipeline = try GesturePipeline(configuration: configuration, sizes: sizes)
            let panel = DeviceDescription(sysname: "event0", name: "panel", mtX: AxisInfo(minimum: 0, maximum: axis),
                                          mtY: AxisInfo(minimum: 0, maximum: axis), slotCount: 2, hasTrackingID: true)
            let device = try pipeline.addDevice(panel, rule: DeviceRule(passThrough: true), screen: screen)
            let geometry = try #require(pipeline.geometry(of: device))
            let engine = pipeline.screens[screen].engine
            for x in stride(from: 0, through: axis, by: step) {
                for y in stride(from: 0, through: axis, by: step) {
                    let point = geometry.point(for: DevicePosition(x: x, y: y))
                    let explained = engine.applicationDelivery(at: point)
                    let daemon = try daemonDelivery(pipeline, device: device, x: x, y: y, names: engine)
                    #expect(explained == daemon, "\(name), screen \(screen), at \(point.x),\(point.y)")
                    outcomes["\(explained)".split(separator: " ")[0].description, default: 0] += 1
                }
            }
        }
        #expect(outcomes.values.reduce(0, +) == sizes.count * 58 * 58, "every point compared: \(outcomes)")
        return outcomes
    }

    /// The pipeline's own answer for a touch down at device position `x, y`, on a copy.
    static func daemonDelivery(_ pipeline: GesturePipeline, device: GesturePipeline.DeviceID, x: Int32, y: Int32,
                               names engine: GestureEngine) throws -> ApplicationDelivery {
        var run = pipeline
        var frames = PanelScript(firstTrackingID: 100)
        var batch = Batch()
        var written: [ForwardedTouch] = []
        for event in frames.frame(at: Instant(microseconds: 1000), [.down(slot: 0, x: x, y: y)]) {
            run.handle(event, from: device, into: &batch)
            written += batch.forwarded
        }
        if written.contains(where: { if case .down = $0.kind { true } else { false } }) { return .forwarded }
        let touch = try #require(run.forwarder.tracked.first)
        switch touch.state {
        case .held: return .held(touch.holders.filter(\.delaysBegan).map { engine.slots[$0.recognizer].name })
        case .dropped: return .never
        case .forwarded: return .forwarded
        }
    }
}
